// Turns what a person typed into a safe FTS5 query. FTS5 has its own syntax (AND, NEAR, quotes,
// column filters); user text must never be interpreted as that syntax, so every word is quoted
// and the words are OR-ed, which is how BM25 expects a bag of query terms.

const WORD = /[\p{L}\p{N}]+/gu;

export function toFtsQuery(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(WORD) ?? [])];
  if (words.length === 0) return null;
  return words.map((word) => `"${word}"`).join(' OR ');
}
