// What a person typed, as the search string of a MongoDB `$text` query. The SQLite store's rules
// (sqlite/ftsQuery.ts) apply: the text is never read as query syntax, words are a bag of terms
// (`$text` ORs the words of its search string), and function words (shared/queryWords.ts) are left out unless
// the query has nothing else. Beyond SQLite, a phrase the person put in double quotes stays a
// phrase: `$text` then returns only documents containing it.
//
// Nothing the person typed can become `$text` syntax: a word is letters and digits only, so it
// cannot carry the `-` that negates a term, and a phrase loses any character (`"`, `\`) that
// could end it early.
//
// How scores compare: LexicalHit.bm25 is "higher is better" (the SQLite store negates FTS5's
// bm25(), which is lower-is-better, and ranking/fusion.ts divides each hit's score by the path's
// best). MongoDB's textScore is also higher-is-better and positive, so it is used as it is.
// It is not BM25: it weighs term frequency and field weights but not how rare a term is across
// documents, so it is not drawn from other workspaces' documents either (a shared index with
// corpus-wide statistics would let one workspace's documents shape another's ranking).

import { isQueryFunctionWord } from '../../../../shared/queryWords.ts';

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const QUOTED = /"([^"]*)"/g;

/** The `$text` search string for a query, or null when it holds nothing to search for. */
export function toTextSearch(text: string): string | null {
  const phrases = new Set<string>();
  const outside = text.replace(QUOTED, (_match, inner: string) => {
    const phrase = inner.replace(/[\\"]/g, ' ').replace(/\s+/gu, ' ').trim().toLowerCase();
    // A quoted single word is a word: it takes part in the function-word rule like any other.
    if ((phrase.match(WORD) ?? []).length < 2) return ` ${inner} `;
    phrases.add(phrase);
    return ' ';
  });
  const words = [...new Set(outside.toLowerCase().match(WORD) ?? [])];
  if (words.length === 0 && phrases.size === 0) return null;
  const meaningful = words.filter((word) => !isQueryFunctionWord(word));
  const terms = meaningful.length > 0 || phrases.size > 0 ? meaningful : words;
  return [...phrases].map((phrase) => `"${phrase}"`).concat(terms).join(' ');
}
