// What spelling tolerance searched, said to the person beside the results ("also searched:
// license, project"), and the words a result's passage is marked with (the typed ones and the
// corrected ones). One wording for the search list, the chat and the CLI.

import { namedWords } from './queryWords.ts';
import type { SpellingCorrection } from './types.ts';

/** The query searched: what was typed, and beside it the corrected words. */
export const searchedQuery = (query: string, corrections: readonly SpellingCorrection[] = []) =>
  corrections.length === 0 ? query : `${query} ${corrections.map((correction) => correction.searched).join(' ')}`;

/** How a corrected word is shown: as written (the CLI, the chat), or marked as the search list marks matched words. */
export type WordMark = (word: string) => string;

/** "also searched: license, project"; null when every word was searched as typed. */
export function alsoSearchedWords(corrections: readonly SpellingCorrection[] = [], mark: WordMark = (word) => word): string | null {
  if (corrections.length === 0) return null;
  return `also searched: ${corrections.map((correction) => mark(correction.searched)).join(', ')}`;
}

/** Why: "for licnese, projct, which no document here contains". */
export const alsoSearchedReason = (corrections: readonly SpellingCorrection[]) =>
  `for ${corrections.map((correction) => correction.typed).join(', ')}, which no document here contains`;

/** "also searched: license, project (for licnese, projct, which no document here contains)"; null when every word was searched as typed. */
export function alsoSearchedText(corrections: readonly SpellingCorrection[] = [], mark?: WordMark): string | null {
  const words = alsoSearchedWords(corrections, mark);
  return words && `${words} (${alsoSearchedReason(corrections)})`;
}

/** The words to mark in a result's passage: the query's and the corrected ones. */
export const markedWords = (query: string, corrections: readonly SpellingCorrection[] = []) => namedWords(searchedQuery(query, corrections));
