// Turns what a person typed into a safe FTS5 query. FTS5 has its own syntax (AND, NEAR, quotes,
// column filters); user text must never be interpreted as that syntax, so every word is quoted
// and the words are OR-ed, which is how BM25 expects a bag of query terms. Which words count is
// shared/queryWords.ts, so the explanations and the marked passages name the same words.
//
// A word is searched as its stem in each of the stemming's languages (shared/stems.ts
// queryStemming), and as typed where the folder also holds unstemmed text: the index holds a German
// or French text's words as their Snowball stems (itemText.ts textForIndex), so "Beiträgen" must
// be asked for as "beitrag". With no languages (an English folder) the query is what it always was.
//
// A Korean word is searched as itself and as a prefix: Korean writes its particles onto the noun
// ("커뮤니티는", "프로젝트를"), so the index holds those forms and "커뮤니티" alone would match none
// of them; the exact form still counts twice. A Chinese or Japanese query of several words is also
// searched as the phrase it is, so a passage holding that exact sequence (a heading typed as
// written) ranks above one holding its words apart.

import { queryWords } from '../../../../shared/queryWords.ts';
import { stemWord, type QueryStemming } from '../../../../shared/stems.ts';
import { isSpaceless, wordsOf, WORD_RUN } from '../../../../shared/words.ts';

export function toFtsQuery(text: string, stemming: QueryStemming = { languages: [], asTyped: true }): string | null {
  const words = queryWords(text);
  if (words.length === 0) return null;
  const terms = words.flatMap((word) => {
    const stems = [...new Set(stemming.languages.map((language) => stemWord(word, language)))];
    if (!stemming.asTyped && stems.length > 0) return stems.map((stem) => `"${stem}"`);
    const asTyped = /^\p{Script=Hangul}+$/u.test(word) ? `"${word}" OR "${word}"*` : `"${word}"`;
    return [asTyped, ...stems.filter((stem) => stem !== word).map((stem) => `"${stem}"`)];
  });
  for (const run of text.toLowerCase().match(WORD_RUN) ?? []) {
    if (!isSpaceless(run)) continue;
    const phrase = [...wordsOf(run)].map((word) => word.text);
    if (phrase.length > 1) terms.push(`"${phrase.join(' ')}"`);
  }
  return terms.join(' OR ');
}
