// The words of a query as search weighs them, and where they occur in a text. The lexical search
// quotes these words into its full-text query (store/sqlite/ftsQuery.ts); the explanations name
// the ones a result contains; the search list and the Ask panel mark them in the passage shown.
// One definition, so what is marked is what was searched for.
//
// English function words ("what", "did", "the") are left out: in a small folder one of them can
// be rare enough for BM25 to weigh it above every word that matters. A query made only of such
// words keeps them, so it still finds something. Negations ("not", "no") are not in the list.

import { eng } from 'stopword';

const WORD = /[\p{L}\p{N}]+/gu;
const FUNCTION_WORDS = new Set(eng);

/**
 * A word in a text counts as a query word when it is the same word or shares its stem ("payment"
 * and "payments", "replacement" and "replaced"), roughly as the full-text index's stemming finds
 * it: a shared start of at least MIN_STEM letters covering STEM_SHARE of the shorter word, so
 * "pay" does not mark "payment" and "process" does not mark "procurement".
 */
const MIN_STEM = 4;
const STEM_SHARE = 0.75;

/** The query's words, lower case, each once, in the order typed. */
export function queryWords(query: string): string[] {
  const words = [...new Set(query.toLowerCase().match(WORD) ?? [])];
  const meaningful = words.filter((word) => !FUNCTION_WORDS.has(word));
  return meaningful.length > 0 ? meaningful : words;
}

function sameWord(queryWord: string, textWord: string): boolean {
  if (queryWord === textWord) return true;
  const shorter = Math.min(queryWord.length, textWord.length);
  let shared = 0;
  while (shared < shorter && queryWord[shared] === textWord[shared]) shared += 1;
  return shared >= MIN_STEM && shared >= shorter * STEM_SHARE && !/\d/.test(queryWord);
}

export interface WordMatch {
  start: number;
  end: number;
  /** The query word it stands for. */
  word: string;
}

/** Every occurrence in `text` of one of `words` (from queryWords), in order. */
export function wordMatches(text: string, words: readonly string[]): WordMatch[] {
  if (words.length === 0) return [];
  const found: WordMatch[] = [];
  for (const match of text.matchAll(WORD)) {
    const lower = match[0].toLowerCase();
    const word = words.find((candidate) => sameWord(candidate, lower));
    if (word !== undefined) found.push({ start: match.index, end: match.index + match[0].length, word });
  }
  return found;
}

/** The query words that occur in any of the texts, in the query's order. */
export function wordsFound(texts: readonly string[], words: readonly string[]): string[] {
  const present = new Set(texts.flatMap((text) => wordMatches(text, words).map((match) => match.word)));
  return words.filter((word) => present.has(word));
}
