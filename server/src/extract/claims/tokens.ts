// A sentence as a list of words, with each figure and date collapsed into one token, so the
// attribute and subject rules can look "two words before the figure" without re-reading the
// figure's digits and separators as words.

export type TokenKind = 'word' | 'number' | 'punct' | 'figure' | 'date';

export interface Token {
  kind: TokenKind;
  /** As written. */
  text: string;
  /** Lower case, for matching. */
  lower: string;
  /** Offsets in the sentence. */
  start: number;
  end: number;
  /** For figure and date tokens: the index of the figure or date they stand for. */
  ref?: number;
}

// A word is shared/words.ts's (Unicode letters, marks, digits: "Größe", "проекта" and "프로젝트"
// are one word each), with the apostrophes, ampersands and hyphens that join English ones.
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}_'’&-]*[\p{L}\p{M}\p{N}_]|[\p{L}\p{N}]\p{M}*|[^\s\p{L}\p{M}\p{N}_]/gu;

/**
 * Tokens of the sentence; `spans` (figures, then dates) are given as [start, end, kind, ref]
 * and each becomes a single token.
 */
export function tokenize(sentence: string, spans: readonly [number, number, 'figure' | 'date', number][]): Token[] {
  const tokens: Token[] = [];
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let next = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(sentence); m !== null; m = WORD.exec(sentence)) {
    const start = m.index;
    const end = start + m[0].length;
    while (next < sorted.length && sorted[next]![1] <= start) next++;
    const span = sorted[next];
    if (span && start < span[1] && end > span[0]) {
      const last = tokens[tokens.length - 1];
      if (!(last && last.ref === span[3] && last.kind === span[2])) {
        const text = sentence.slice(span[0], span[1]);
        tokens.push({ kind: span[2], text, lower: text.toLowerCase(), start: span[0], end: span[1], ref: span[3] });
      }
      continue;
    }
    const text = m[0];
    const kind: TokenKind = /^\d[\d.,]*$/.test(text) ? 'number' : /^[^\p{L}\p{M}\p{N}_]$/u.test(text) ? 'punct' : 'word';
    tokens.push({ kind, text, lower: text.toLowerCase(), start, end });
  }
  return tokens;
}
