// Cutting a block too long for one chunk into pieces that fit: at sentence ends, aiming at equal
// sizes; a sentence longer than maxWords is cut by words, and anything longer than maxChars (a
// 10 MB "word", a wall of spaces) by characters. Every step walks offsets into the block's text
// once, so a block of 50 MB costs what 50 blocks of 1 MB cost.

import { sentenceEnds } from './sentences.ts';
import { countWords, isWhitespace, skipWhitespace, trailingWhitespaceStart, wordEnd } from './words.ts';

export interface PieceBounds {
  maxWords: number;
  maxChars: number;
}

/** Pieces of `text` (trimmed, non-empty) of at most maxWords words and maxChars characters. */
export function splitLongText(text: string, { maxWords, maxChars }: PieceBounds): string[] {
  const total = countWords(text);
  const target = total / Math.ceil(total / maxWords);
  const pieces: string[] = [];

  // The piece being built: `head` (what is left of a sentence cut by words, then one space)
  // followed by the sentences text[start, end).
  let head = '';
  let start = 0;
  let end = 0;
  let words = 0;
  const chars = (): number => (head === '' ? 0 : head.length + 1) + end - start;
  const flush = (): void => {
    if (words > 0) pieces.push((head === '' ? text.slice(start, end) : `${head} ${text.slice(start, end)}`).trim());
    head = '';
    start = end;
    words = 0;
  };

  let sentenceStart = 0;
  for (const sentenceEnd of sentenceEnds(text)) {
    const sentenceWords = countWords(text, sentenceStart, sentenceEnd);
    const sentenceChars = sentenceEnd - sentenceStart;
    if (sentenceWords > maxWords || sentenceChars > maxChars) {
      flush();
      const cuts = cutSentence(text, sentenceStart, sentenceEnd, sentenceWords, maxWords, maxChars);
      head = cuts.pop() ?? '';
      for (const cut of cuts) pieces.push(cut);
      start = end = sentenceEnd;
      words = countWords(head);
    } else {
      if (words > 0 && (words + sentenceWords > maxWords || words >= target || chars() + sentenceChars > maxChars)) {
        flush();
      }
      end = sentenceEnd;
      words += sentenceWords;
    }
    sentenceStart = sentenceEnd;
  }
  flush();
  return pieces;
}

/** One over-long sentence, cut by words into even pieces, and pieces still too long by characters. */
function cutSentence(
  text: string,
  start: number,
  end: number,
  words: number,
  maxWords: number,
  maxChars: number,
): string[] {
  const pieces: string[] = [];
  for (const [from, to] of cutByWords(text, start, end, words, maxWords)) {
    if (to - from <= maxChars) pieces.push(text.slice(from, to));
    else for (const [a, b] of cutByChars(text, from, to, maxChars)) pieces.push(text.slice(a, b));
  }
  return pieces;
}

/** Ranges of ceil(words / maxWords) word-aligned pieces of `text[start, end)`, as even as possible. */
function cutByWords(text: string, start: number, end: number, words: number, maxWords: number): Array<[number, number]> {
  const size = Math.ceil(words / Math.ceil(words / maxWords));
  const ranges: Array<[number, number]> = [];
  let i = skipWhitespace(text, start, end);
  while (i < end) {
    const first = i;
    let last = i;
    for (let k = 0; k < size && i < end; k++) {
      last = wordEnd(text, i, end);
      i = skipWhitespace(text, last, end);
    }
    ranges.push([first, last]);
  }
  return ranges;
}

/**
 * Ranges of pieces of `text[start, end)` of at most maxChars characters, cut at the last
 * whitespace that fits, or inside a word longer than maxChars (never inside a surrogate pair).
 * Whitespace between pieces is dropped.
 */
function cutByChars(text: string, start: number, end: number, maxChars: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let i = skipWhitespace(text, start, end);
  while (i < end) {
    let cut = i + maxChars;
    if (cut >= end) {
      ranges.push([i, trailingWhitespaceStart(text, i, end)]);
      break;
    }
    while (cut > i && !isWhitespace(text.charCodeAt(cut))) cut--;
    if (cut === i) {
      cut = i + maxChars;
      const code = text.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff && cut - 1 > i) cut--;
    }
    ranges.push([i, trailingWhitespaceStart(text, i, cut)]);
    i = skipWhitespace(text, cut, end);
  }
  return ranges;
}
