// Turns what a person typed into a safe FTS5 query. FTS5 has its own syntax (AND, NEAR, quotes,
// column filters); user text must never be interpreted as that syntax, so every word is quoted
// and the words are OR-ed, which is how BM25 expects a bag of query terms.
//
// English function words ("what", "did", "the") are left out of the query: in a small folder one
// of them can be rare enough for BM25 to weigh it above every word that matters ("What did the
// GC-2 refurbishment cost?" ranked the one report containing "did" first). A query made only of
// such words keeps them, so it still finds something. Negations ("not", "no") are not in the list.

import { eng } from 'stopword';

const WORD = /[\p{L}\p{N}]+/gu;
const FUNCTION_WORDS = new Set(eng);

export function toFtsQuery(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(WORD) ?? [])];
  if (words.length === 0) return null;
  const meaningful = words.filter((word) => !FUNCTION_WORDS.has(word));
  return (meaningful.length > 0 ? meaningful : words).map((word) => `"${word}"`).join(' OR ');
}
