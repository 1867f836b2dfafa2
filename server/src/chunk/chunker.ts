// The structure-aware chunker: groups a parser's blocks into passages of roughly
// minWords..maxWords words. Passages, not windows: chunks break where the document breaks
// (headings, page changes), blocks are kept whole when they fit, and only a block longer than
// maxWords (or maxChars characters) is split, at sentence boundaries. Same input, same output,
// in time linear in the input whatever it holds, one 50 MB line or a 10 MB "word" (split.ts).

import type { Location } from '../../../shared/types.ts';
import type { Block, BlockKind } from '../parse/types.ts';
import { splitLongText } from './split.ts';
import { countWords } from './words.ts';

export { countWords } from './words.ts';

/** Recorded with every chunk set. Bump on any change to the output for the same input. */
export const CHUNKER_VERSION = 'chunker@1';

export const DEFAULT_MIN_WORDS = 150;
export const DEFAULT_MAX_WORDS = 400;
/**
 * 80 characters a word at 400 words, where prose needs about 6: reached only by text that is not
 * prose (a base64 blob, a minified line, a run of blank space), which is then cut by characters.
 */
export const DEFAULT_MAX_CHARS = 32_000;

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
  maxChars?: number;
}

interface Bounds {
  minWords: number;
  maxWords: number;
  maxChars: number;
}

/** Between the units of a chunk's text. */
const UNIT_SEPARATOR = '\n\n';

/** A block, or a piece of a block too long for one chunk: what the packer places whole. */
interface Unit {
  kind: BlockKind;
  text: string;
  words: number;
  chars: number;
  /** Opens a section: only a heading block, or the first piece of an (absurdly) long one. */
  opensSection: boolean;
  headingPath: string[];
  location: Location;
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
  const maxChars = Math.floor(options.maxChars ?? DEFAULT_MAX_CHARS);
  if (!Number.isFinite(maxChars) || maxChars < 2) {
    throw new RangeError(`maxChars must be at least 2, got ${String(options.maxChars)}`);
  }
  const bounds = { minWords, maxWords, maxChars };

  const units: Unit[] = [];
  for (const block of blocks) for (const unit of toUnits(block, bounds)) units.push(unit);
  if (units.length === 0) return [];

  const groups = pack(units, bounds);
  return groups.map((group, ordinal) => toChunk(group, ordinal));
}

// ---------------------------------------------------------------------------------------------
// Blocks to units

function normalizeText(block: Block): string {
  // Code keeps its first line's indentation; only blank lines around it go.
  if (block.kind === 'code') return block.text.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
  return block.text.trim();
}

function toUnits(block: Block, bounds: Bounds): Unit[] {
  const text = normalizeText(block);
  const words = countWords(text);
  if (words === 0) return [];
  const base = { kind: block.kind, headingPath: block.headingPath, location: block.location };
  if (words <= bounds.maxWords && text.length <= bounds.maxChars) {
    return [{ ...base, text, words, chars: text.length, opensSection: block.kind === 'heading' }];
  }
  return splitLongText(text, bounds).map((piece, i) => ({
    ...base,
    text: piece,
    words: countWords(piece),
    chars: piece.length,
    opensSection: block.kind === 'heading' && i === 0,
  }));
}

// ---------------------------------------------------------------------------------------------
// Units to groups

function sumWords(units: readonly Unit[]): number {
  let n = 0;
  for (const u of units) n += u.words;
  return n;
}

/** Length of texts of `a` and `b` characters joined by the separator (0: no text). */
function joinedChars(a: number, b: number): number {
  return a === 0 ? b : b === 0 ? a : a + UNIT_SEPARATOR.length + b;
}

function groupChars(units: readonly Unit[]): number {
  let n = 0;
  for (const u of units) n = joinedChars(n, u.chars);
  return n;
}

function pageChanges(last: Unit, next: Unit): boolean {
  return (
    last.location.kind === 'pages' &&
    next.location.kind === 'pages' &&
    next.location.start !== last.location.end
  );
}

/** Whether two locations can be one range: the same kind and, for rows, the same sheet. */
function sameRange(a: Location, b: Location): boolean {
  return a.kind === b.kind && a.sheet === b.sheet;
}

function pack(units: readonly Unit[], { minWords, maxWords, maxChars }: Bounds): Unit[][] {
  const groups: Unit[][] = [];
  let cur: Unit[] = [];
  let curWords = 0;
  let curChars = 0;
  // The group's body: its units up to the run of headings at its end, which belong to what
  // follows them, so a close carries them along. Kept as the group grows so that a group of
  // hundreds of one-word blocks costs no more per unit than a group of one.
  let bodyEnd = 0;
  let bodyWords = 0;
  let bodyChars = 0;

  /** Closes the current group after its body (`bodyEnd`) or all of it; the rest open the next group. */
  const close = (keep: number): void => {
    groups.push(cur.slice(0, keep));
    cur = cur.slice(keep);
    if (cur.length === 0) {
      curWords = 0;
      curChars = 0;
    } else {
      curWords -= bodyWords;
      curChars -= bodyChars + UNIT_SEPARATOR.length;
    }
    bodyEnd = 0;
    bodyWords = 0;
    bodyChars = 0;
  };

  for (const unit of units) {
    const last = cur[cur.length - 1];
    if (last !== undefined) {
      const carriedWords = curWords - bodyWords;
      const carriedChars = bodyEnd === cur.length ? 0 : bodyEnd === 0 ? curChars : curChars - bodyChars - UNIT_SEPARATOR.length;
      if (!sameRange(unit.location, last.location)) {
        close(cur.length); // a location range cannot mix kinds, nor a spreadsheet's sheets
      } else if (curWords + unit.words > maxWords || joinedChars(curChars, unit.chars) > maxChars) {
        const carried = carriedWords + unit.words <= maxWords && joinedChars(carriedChars, unit.chars) <= maxChars;
        close(bodyEnd > 0 && carried ? bodyEnd : cur.length);
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
    curChars = joinedChars(curChars, unit.chars);
    if (unit.kind !== 'heading') {
      bodyEnd = cur.length;
      bodyWords = curWords;
      bodyChars = curChars;
    }
  }
  if (cur.length > 0) groups.push(cur);

  // A small tail reads better as the end of the previous passage than as a passage of its own.
  if (groups.length >= 2) {
    const tail = groups[groups.length - 1]!;
    const prev = groups[groups.length - 2]!;
    if (
      sumWords(tail) < minWords / 3 &&
      sumWords(prev) + sumWords(tail) <= maxWords &&
      joinedChars(groupChars(prev), groupChars(tail)) <= maxChars &&
      sameRange(tail[0]!.location, prev[0]!.location)
    ) {
      groups.splice(groups.length - 2, 2, [...prev, ...tail]);
    }
  }
  return groups;
}

function toChunk(group: readonly Unit[], ordinal: number): Chunk {
  const first = group[0]!;
  const text = group.map((u) => u.text).join(UNIT_SEPARATOR);
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
    location: { ...first.location, start, end },
    wordCount: countWords(text),
  };
}
