// The structure-aware chunker: groups a parser's blocks into passages of roughly
// minWords..maxWords words. Passages, not windows: chunks break where the document breaks
// (headings, page changes), blocks are kept whole when they fit, and only a block longer than
// maxWords is split, at sentence boundaries. Same input, same output, in time linear in the
// input whatever it holds (one 50 MB line, a 10 MB "word"): a chunk also holds at most maxChars
// characters, and every step walks the text once (split.ts, sentences.ts, words.ts).

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

/** A block, or a piece of a block longer than maxWords: what the packer places whole. */
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
