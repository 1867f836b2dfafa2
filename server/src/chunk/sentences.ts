// Sentence ends for the chunker, in time linear in the text, whatever the text.
//
// ICU (Intl.Segmenter) finds the boundaries, but V8's segment iterator costs time in proportion
// to the whole string at every step: on Node 20, 4 KB of prose segments at ~60 ms/MB, 64 KB at
// ~700 ms/MB, 1 MB at ~15 s/MB. So ICU sees only lines that hold a sentence terminator (a line
// without one holds no boundary), in windows of a few KB cut where its answer cannot change
// (the UAX #29 sentence rules):
//   - after a paragraph separator: rule SB4 always breaks there and no rule looks back across one;
//   - at a boundary it found with a letter after it in the window: the only rule that looks
//     ahead (SB8, "etc. and" does not break) looks no further than the next letter;
//   - in a sentence longer than half a window, before a word that follows whitespace after a
//     letter, where no rule applies; that cut is no boundary, the sentence goes on there.
// Only half a window with none of these (a huge token, a wall of digits and dots) is cut
// blindly at a word or a character, and ICU restarts there.

import { isWhitespace, trailingWhitespaceStart } from './words.ts';

/** Largest string handed to ICU at once: small enough that its per-step cost stays flat. */
export const SEGMENTER_WINDOW = 4 * 1024;

let segmenter: Intl.Segmenter | undefined;

/**
 * Abbreviations after which ICU breaks but a sentence rarely ends, tested on the few characters
 * before a sentence's trailing whitespace (at most "(approx.", 8 characters).
 */
const ABBREVIATION_END =
  /(?:^|[\s(])(?:[A-Z]|Dr|Mr|Mrs|Ms|Mx|Prof|Sr|Jr|St|Mt|No|Nos|Fig|Figs|Vol|pp|approx|cf|vs|e\.g|i\.e)\.$/;
const ABBREVIATION_REACH = 8;

const LETTER = /\p{L}/u;
/** ICU's sentence terminators (STerm and ATerm): every one, and nothing else, can end a sentence. */
const SENTENCE_TERMINAL = /\p{Sentence_Terminal}/u;

/**
 * End offsets of the sentences of `text`, ascending, the last one `text.length`. ICU's sentences,
 * except that pieces ICU cuts inside a whitespace-delimited token ("end?Next") are rejoined so
 * that no word is ever split, as are breaks after common abbreviations ("Dr. Osei") and
 * whitespace-only pieces (joined to what follows).
 */
export function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  let sentenceStart = 0;
  let hasWord = false;
  let whitespaceStart = 0; // where the current sentence's trailing whitespace begins
  let pieceStart = 0;
  for (const pieceEnd of icuSentenceEnds(text)) {
    const pieceWhitespace = trailingWhitespaceStart(text, pieceStart, pieceEnd);
    const rejoin =
      ends.length > 0 &&
      ((!isWhitespace(text.charCodeAt(pieceStart - 1)) && !isWhitespace(text.charCodeAt(pieceStart))) ||
        !hasWord ||
        endsWithAbbreviation(text, sentenceStart, whitespaceStart));
    if (rejoin) {
      ends[ends.length - 1] = pieceEnd;
    } else {
      ends.push(pieceEnd);
      sentenceStart = pieceStart;
      hasWord = false;
      whitespaceStart = pieceStart;
    }
    if (pieceWhitespace > pieceStart) {
      hasWord = true;
      whitespaceStart = pieceWhitespace;
    }
    pieceStart = pieceEnd;
  }
  return ends;
}

function endsWithAbbreviation(text: string, sentenceStart: number, whitespaceStart: number): boolean {
  const from = Math.max(sentenceStart, whitespaceStart - ABBREVIATION_REACH);
  // A window shorter than the sentence starts mid-sentence, where `^` must not match; it cannot,
  // since no abbreviation with its full stop fills all ABBREVIATION_REACH characters.
  return ABBREVIATION_END.test(text.slice(from, whitespaceStart));
}

/**
 * End offsets of ICU's sentences of `text`: the same as segmenting it whole, but for a blind cut
 * (see above). Only lines that hold a sentence terminator are handed to ICU, in windows of at most
 * `windowChars` (plus one, for CR LF).
 */
export function icuSentenceEnds(text: string, windowChars = SEGMENTER_WINDOW): number[] {
  const ends: number[] = [];
  let pending = 0; // start of the lines with a terminator not yet handed to ICU
  let lineStart = 0;
  let terminated = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!terminated && mayEndSentence(text, i)) terminated = true;
    if (!isParagraphSeparator(code) || (code === 0x0d && text.charCodeAt(i + 1) === 0x0a)) continue;
    if (!terminated) {
      segmentInWindows(ends, text, pending, lineStart, windowChars);
      ends.push(i + 1);
      pending = i + 1;
    }
    lineStart = i + 1;
    terminated = false;
  }
  if (terminated) {
    segmentInWindows(ends, text, pending, text.length, windowChars);
  } else {
    segmentInWindows(ends, text, pending, lineStart, windowChars);
    if (lineStart < text.length) ends.push(text.length);
  }
  return ends;
}

/** Whether the character at `i` may end a sentence (a surrogate: perhaps, ICU will know). */
function mayEndSentence(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code < 0x80) return code === 0x2e || code === 0x21 || code === 0x3f;
  return (code >= 0xd800 && code <= 0xdfff) || SENTENCE_TERMINAL.test(text[i]!);
}

/** Appends ICU's sentence ends in `text[from, to)`, which starts and ends at a boundary. */
function segmentInWindows(ends: number[], text: string, from: number, to: number, windowChars: number): void {
  const half = Math.max(1, Math.floor(windowChars / 2));
  while (from < to) {
    if (to - from <= windowChars) {
      segmentInto(ends, text, from, to);
      return;
    }
    const windowEnd = from + windowChars;
    const paragraphEnd = lastParagraphEnd(text, from + half, windowEnd);
    if (paragraphEnd > 0) {
      segmentInto(ends, text, from, paragraphEnd);
      from = paragraphEnd;
      continue;
    }
    const found: number[] = [];
    segmentInto(found, text, from, windowEnd);
    const lastLetter = lastLetterIndex(text, from, windowEnd);
    let settled = found.length;
    while (settled > 0 && (found[settled - 1]! >= windowEnd || found[settled - 1]! > lastLetter)) settled--;
    for (let i = 0; i < settled; i++) ends.push(found[i]!);
    from = nextWindowStart(text, from, windowEnd, settled > 0 ? found[settled - 1]! : from, half);
  }
}

function segmentInto(ends: number[], text: string, from: number, to: number): void {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  for (const { index, segment } of segmenter.segment(text.slice(from, to))) {
    ends.push(from + index + segment.length);
  }
}

function isParagraphSeparator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x85 || code === 0x2028 || code === 0x2029;
}

/** Offset just after the last paragraph separator in `text[from, to)` (CR LF counts as one), or -1. */
function lastParagraphEnd(text: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) {
    const code = text.charCodeAt(i);
    if (!isParagraphSeparator(code)) continue;
    return code === 0x0d && text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
  }
  return -1;
}

function isLetter(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code < 0x80) return (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;
  return LETTER.test(text[i]!);
}

function lastLetterIndex(text: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (isLetter(text, i)) return i;
  return -1;
}

/**
 * Where the window after `text[from, to)` starts, given the last boundary found in it that is
 * settled. Each choice moves at least an eighth of a window on, which keeps the whole linear.
 */
function nextWindowStart(text: string, from: number, to: number, settledEnd: number, half: number): number {
  if (settledEnd >= from + half) return settledEnd;
  // A sentence longer than half a window: go on inside it, where no rule can apply (any boundary
  // before such a cut has a letter after it, so it is settled and kept).
  const quiet = wordAfterLetter(text, from + half, to);
  if (quiet > 0) return quiet;
  if (settledEnd >= from + Math.ceil(half / 4)) return settledEnd;
  // Half a window without a letter followed by whitespace: a huge token or a wall of punctuation.
  return lastWordStart(text, from + half, to);
}

/** Start of the last word in `text[from, to)` that follows whitespace after a letter, or -1. */
function wordAfterLetter(text: string, from: number, to: number): number {
  for (let i = to - 1; i > from; i--) {
    if (isWhitespace(text.charCodeAt(i)) || !isWhitespace(text.charCodeAt(i - 1))) continue;
    const before = trailingWhitespaceStart(text, from, i) - 1;
    if (before >= from && isLetter(text, before)) return i;
    i = before + 1;
  }
  return -1;
}

/** Start of the last word after whitespace in `text(from, to)`, else `to` (kept off a surrogate pair). */
function lastWordStart(text: string, from: number, to: number): number {
  for (let i = to - 1; i > from; i--) {
    if (!isWhitespace(text.charCodeAt(i)) && isWhitespace(text.charCodeAt(i - 1))) return i;
  }
  const code = text.charCodeAt(to - 1);
  return code >= 0xd800 && code <= 0xdbff ? to - 1 : to;
}
