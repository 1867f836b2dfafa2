// The structure-aware chunker: groups a parser's blocks into passages of roughly
// minWords..maxWords words. Passages, not windows: chunks break where the document breaks
// (headings, page changes), blocks are kept whole when they fit, and only a block longer than
// maxWords is split, at sentence boundaries. Same input, same output.

import type { Location } from '../../../shared/types.ts';
import type { Block, BlockKind } from '../parse/types.ts';

/** Recorded with every chunk set. Bump on any change to the output for the same input. */
export const CHUNKER_VERSION = 'chunker@1';

export const DEFAULT_MIN_WORDS = 150;
export const DEFAULT_MAX_WORDS = 400;

export interface Chunk {
  /** 0-based position in the document, contiguous. */
  ordinal: number;
  /** The chunk's blocks' texts joined by a blank line (headings included). */
  text: string;
  /** Heading path of the chunk's first non-heading block (or of its first block if all are headings). */
  headingPath: string[];
  /** Union of the chunk's blocks' locations. */
  location: Location;
  wordCount: number;
}

export interface ChunkOptions {
  minWords?: number;
  maxWords?: number;
}

/** A block, or a piece of a block longer than maxWords: what the packer places whole. */
interface Unit {
  kind: BlockKind;
  text: string;
  words: number;
  /** Opens a section: only a heading block, or the first piece of an (absurdly) long one. */
  opensSection: boolean;
  headingPath: string[];
  location: Location;
}

/** Words are maximal runs of non-whitespace. */
export function countWords(text: string): number {
  const m = text.match(/\S+/g);
  return m === null ? 0 : m.length;
}

export function chunkBlocks(blocks: Block[], options: ChunkOptions = {}): Chunk[] {
  const maxWords = Math.floor(options.maxWords ?? DEFAULT_MAX_WORDS);
  if (!Number.isFinite(maxWords) || maxWords < 1) {
    throw new RangeError(`maxWords must be a positive number, got ${String(options.maxWords)}`);
  }
  const rawMin = Math.floor(options.minWords ?? DEFAULT_MIN_WORDS);
  if (!Number.isFinite(rawMin) || rawMin < 0) {
    throw new RangeError(`minWords must be a non-negative number, got ${String(options.minWords)}`);
  }
  const minWords = Math.min(rawMin, maxWords);

  const units: Unit[] = [];
  for (const block of blocks) units.push(...toUnits(block, maxWords));
  if (units.length === 0) return [];

  const groups = pack(units, minWords, maxWords);
  return groups.map((group, ordinal) => toChunk(group, ordinal));
}

// ---------------------------------------------------------------------------------------------
// Blocks to units

function normalizeText(block: Block): string {
  // Code keeps its first line's indentation; only blank lines around it go.
  if (block.kind === 'code') return block.text.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
  return block.text.trim();
}

function toUnits(block: Block, maxWords: number): Unit[] {
  const text = normalizeText(block);
  const words = countWords(text);
  if (words === 0) return [];
  const base = { kind: block.kind, headingPath: block.headingPath, location: block.location };
  if (words <= maxWords) {
    return [{ ...base, text, words, opensSection: block.kind === 'heading' }];
  }
  return splitLongText(text, maxWords).map((piece, i) => ({
    ...base,
    text: piece,
    words: countWords(piece),
    opensSection: block.kind === 'heading' && i === 0,
  }));
}

let segmenter: Intl.Segmenter | undefined;

/** Abbreviations after which ICU's sentence rules break but a sentence rarely ends. */
const NO_BREAK_AFTER =
  /(?:^|[\s(])(?:[A-Z]|Dr|Mr|Mrs|Ms|Mx|Prof|Sr|Jr|St|Mt|No|Nos|Fig|Figs|Vol|pp|approx|cf|vs|e\.g|i\.e)\.\s*$/;

/**
 * Sentences of `text`, concatenating back to `text` exactly. ICU may break inside a
 * whitespace-delimited token ("end?Next"); such pieces are rejoined so that no word is ever
 * split, as are breaks after common abbreviations ("Dr. Osei").
 */
function sentences(text: string): string[] {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    const prev = out[out.length - 1];
    if (
      prev !== undefined &&
      (!/\s$/.test(prev) && !/^\s/.test(segment) || NO_BREAK_AFTER.test(prev) || countWords(prev) === 0)
    ) {
      out[out.length - 1] = prev + segment;
    } else {
      out.push(segment);
    }
  }
  return out;
}

/** Cuts one over-long sentence into word-aligned pieces of at most maxWords, as even as possible. */
function cutByWords(sentence: string, maxWords: number): string[] {
  const spans: Array<[number, number]> = [];
  for (const m of sentence.matchAll(/\S+/g)) spans.push([m.index, m.index + m[0].length]);
  const pieceCount = Math.ceil(spans.length / maxWords);
  const size = Math.ceil(spans.length / pieceCount);
  const pieces: string[] = [];
  for (let i = 0; i < spans.length; i += size) {
    const first = spans[i]!;
    const last = spans[Math.min(i + size, spans.length) - 1]!;
    pieces.push(sentence.slice(first[0], last[1]));
  }
  return pieces;
}

/**
 * Splits a text longer than maxWords into pieces of at most maxWords at sentence boundaries,
 * aiming at equal sizes (ceil(words / maxWords) pieces) rather than filling each to the brim.
 */
function splitLongText(text: string, maxWords: number): string[] {
  const parts = sentences(text).map((s) => ({ text: s, words: countWords(s) }));
  const total = parts.reduce((n, p) => n + p.words, 0);
  const target = total / Math.ceil(total / maxWords);

  const pieces: string[] = [];
  let cur = '';
  let curWords = 0;
  const flush = (): void => {
    if (curWords > 0) pieces.push(cur.trim());
    cur = '';
    curWords = 0;
  };
  for (const part of parts) {
    if (part.words > maxWords) {
      flush();
      const cuts = cutByWords(part.text, maxWords);
      pieces.push(...cuts.slice(0, -1));
      cur = cuts[cuts.length - 1]! + ' ';
      curWords = countWords(cur);
      continue;
    }
    if (curWords > 0 && (curWords + part.words > maxWords || curWords >= target)) flush();
    cur += part.text;
    curWords += part.words;
  }
  flush();
  return pieces;
}

// ---------------------------------------------------------------------------------------------
// Units to groups

function sumWords(units: readonly Unit[]): number {
  let n = 0;
  for (const u of units) n += u.words;
  return n;
}

/** Index where the run of headings at the end of `units` begins (units.length if none). */
function trailingHeadingsStart(units: readonly Unit[]): number {
  let i = units.length;
  while (i > 0 && units[i - 1]!.kind === 'heading') i--;
  return i;
}

function pageChanges(last: Unit, next: Unit): boolean {
  return (
    last.location.kind === 'pages' &&
    next.location.kind === 'pages' &&
    next.location.start !== last.location.end
  );
}

function pack(units: readonly Unit[], minWords: number, maxWords: number): Unit[][] {
  const groups: Unit[][] = [];
  let cur: Unit[] = [];
  let curWords = 0;

  /** Closes the current group after its first `keep` units; the rest open the next group. */
  const close = (keep: number): void => {
    groups.push(cur.slice(0, keep));
    cur = cur.slice(keep);
    curWords = sumWords(cur);
  };

  for (const unit of units) {
    const last = cur[cur.length - 1];
    if (last !== undefined) {
      // Trailing headings belong to what follows them, so a close carries them along.
      const bodyEnd = trailingHeadingsStart(cur);
      const bodyWords = sumWords(cur.slice(0, bodyEnd));
      const carriedWords = curWords - bodyWords;
      if (unit.location.kind !== last.location.kind) {
        close(cur.length); // a location range cannot mix kinds
      } else if (curWords + unit.words > maxWords) {
        close(bodyEnd > 0 && carriedWords + unit.words <= maxWords ? bodyEnd : cur.length);
      } else if (
        (unit.opensSection || pageChanges(last, unit)) &&
        bodyEnd > 0 &&
        bodyWords >= minWords
      ) {
        close(bodyEnd);
      }
    }
    cur.push(unit);
    curWords += unit.words;
  }
  if (cur.length > 0) groups.push(cur);

  // A small tail reads better as the end of the previous passage than as a passage of its own.
  if (groups.length >= 2) {
    const tail = groups[groups.length - 1]!;
    const prev = groups[groups.length - 2]!;
    if (
      sumWords(tail) < minWords / 3 &&
      sumWords(prev) + sumWords(tail) <= maxWords &&
      tail[0]!.location.kind === prev[0]!.location.kind
    ) {
      groups.splice(groups.length - 2, 2, [...prev, ...tail]);
    }
  }
  return groups;
}

function toChunk(group: readonly Unit[], ordinal: number): Chunk {
  const first = group[0]!;
  const text = group.map((u) => u.text).join('\n\n');
  const pathSource = group.find((u) => u.kind !== 'heading') ?? first;
  let start = first.location.start;
  let end = first.location.end;
  for (const u of group) {
    start = Math.min(start, u.location.start);
    end = Math.max(end, u.location.end);
  }
  return {
    ordinal,
    text,
    headingPath: [...pathSource.headingPath],
    location: { kind: first.location.kind, start, end },
    wordCount: countWords(text),
  };
}
