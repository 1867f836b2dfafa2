// What the Ask panel and @relata quote of a source: the sentences of its passage that hold the question's
// words or figures, highlighted, with a sentence either side for context and the rest left out
// ("…"), so a person reads the part that answers rather than a whole document. Within a
// highlighted sentence the question's words and the figures are marked. Pure (no DOM), so tested
// without a browser; webview-ui/src/ask.ts and client/src/chat/chatParts.ts render it.

import { namedWords, wordMatches } from './queryWords.ts';

export interface Mark {
  start: number;
  end: number;
}

export interface QuotedSentence {
  kind: 'sentence';
  text: string;
  /** Holds the question's words or figures. */
  highlighted: boolean;
  /** Question words and figures within a highlighted sentence, in order, not overlapping. */
  marks: Mark[];
}

/** Sentences left out between two quoted ones. */
export interface Gap {
  kind: 'gap';
}

export type PassagePart = QuotedSentence | Gap;

/** Sentences quoted either side of a highlighted one. */
const CONTEXT = 1;
/** Sentences quoted from the start when none holds the question's words. */
const OPENING = 3;

/** An amount, a count, a percentage or a year: "EUR 42,000", "$1.5", "12.5", "125%", "2025" (not a list's "2."). */
const FIGURE = /(?:(?:EUR|USD|GBP|CHF)\s?|[€$£])\d[\d,]*(?:\.\d+)?|\d[\d,]*\d(?:\.\d+)?%?|\d(?:\.\d+)?%|\d\.\d+/g;

/**
 * Sentence ends: after . ! ? followed by space and a capital, digit or quote (not after an
 * honorific: "Mr. Okafor"); and at line breaks.
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])(?<!\b(?:Mr|Mrs|Ms|Dr|Prof|St|No)\.)\s+(?=[\p{Lu}\p{N}"“(])/u)
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
    .filter((sentence) => sentence !== '');
}

function figuresIn(sentence: string): Mark[] {
  return [...sentence.matchAll(FIGURE)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

function merged(marks: Mark[]): Mark[] {
  const sorted = [...marks].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Mark[] = [];
  for (const mark of sorted) {
    const last = out.at(-1);
    if (last && mark.start < last.end) last.end = Math.max(last.end, mark.end);
    else out.push({ ...mark });
  }
  return out;
}

/** The question word found in the fewest of the passage's sentences (the longer word on a tie); null when none is found. */
function rarestWord(foundPerSentence: readonly { word: string }[][]): string | null {
  const sentencesWith = new Map<string, number>();
  for (const found of foundPerSentence) for (const word of new Set(found.map((match) => match.word))) sentencesWith.set(word, (sentencesWith.get(word) ?? 0) + 1);
  const ranked = [...sentencesWith].sort(([a, m], [b, n]) => m - n || b.length - a.length || a.localeCompare(b));
  return ranked[0]?.[0] ?? null;
}

/**
 * A sentence answers when it holds as many of the question's words as the best sentence of the
 * passage, or one fewer (at least two, when the question has two): holding any one word of a
 * long question is what every sentence of a document about the subject does. A figure in the
 * sentence counts as one more word; a number typed in the question, found, outweighs them all.
 * When no sentence holds two of its words, those holding its rarest word in the passage answer.
 */
export function passageView(text: string, question: string): PassagePart[] {
  const words = namedWords(question);
  const numbers = words.filter((word) => /^\d+$/.test(word));
  const needed = Math.min(2, words.length);
  const read = sentencesOf(text).map((sentence) => {
    const found = wordMatches(sentence, words);
    const figures = figuresIn(sentence);
    const distinct = new Set(found.map((match) => match.word)).size;
    const givesFigure = found.some((match) => numbers.includes(match.word));
    const score = distinct === 0 ? 0 : distinct + (figures.length > 0 ? 1 : 0) + (givesFigure ? words.length : 0);
    return { sentence, found, figures, score };
  });
  const best = Math.max(0, ...read.map((entry) => entry.score));
  const bar = Math.max(1, needed, best - 1);
  // No sentence holds two of the question's words: the ones holding its rarest word found here
  // ("toxic" rather than "contributors") answer before the passage's opening would.
  const rare = best >= bar ? null : rarestWord(read.map((entry) => entry.found));
  const sentences = read.map(({ sentence, found, figures, score }): QuotedSentence => {
    const highlighted = rare === null ? score >= bar : found.some((match) => match.word === rare);
    return { kind: 'sentence', text: sentence, highlighted, marks: highlighted ? merged([...found, ...figures]) : [] };
  });
  const shown = new Set<number>();
  sentences.forEach((sentence, index) => {
    if (!sentence.highlighted) return;
    for (let near = index - CONTEXT; near <= index + CONTEXT; near += 1) if (near >= 0 && near < sentences.length) shown.add(near);
  });
  if (shown.size === 0) for (let index = 0; index < Math.min(OPENING, sentences.length); index += 1) shown.add(index);
  const parts: PassagePart[] = [];
  sentences.forEach((sentence, index) => {
    if (shown.has(index)) parts.push(sentence);
    else if (parts.at(-1)?.kind !== 'gap') parts.push({ kind: 'gap' });
  });
  return parts;
}
