// Whether two items are near-copies, read from their text (relationship-score-v2, rule 5). v1
// flagged a pair when its closest windows had a cosine of 0.94 or more; embeddings place opposite
// claims side by side ("X accelerates Y" and "X slows Y" differ by one word), so ten of SciFact's
// eleven flagged pairs said opposite things. Here the whole texts are compared as sets of word
// shingles (five words in a row), which a changed word breaks in five places; and a pair whose
// differing words include a negation, a direction or a figure differs in what it claims, so it
// is a comparison, never a duplicate.

import type { ItemRecord, WorkspaceStore } from '../store/contract.ts';

/** Words in a row that make one shingle. */
export const SHINGLE_WORDS = 5;

/** Share of shingles two texts have in common (Jaccard) from which they are near-copies. */
export const NEAR_COPY_OVERLAP = 0.8;

/** Share of the shorter text's shingles found in the longer from which the shorter is a draft (or excerpt) of it. */
export const DRAFT_CONTAINMENT = 0.9;

/** Text read per item: enough for any note or contract, bounded for a crafted giant. */
const MAX_CHARACTERS = 400_000;

/** Shingle sets remembered per store (an item meets many candidates in one run): 4 bytes a shingle, a few MB in all. */
const REMEMBERED = 500;

/**
 * Words whose difference changes what a text claims: negations and directions. A changed figure
 * is the claims' to judge (a contradiction between the two is never a duplicate: evidence.ts).
 */
const CLAIM_WORDS = new Set(
  (
    'not no never none nor without cannot neither ' +
    'increase increases increased increasing decrease decreases decreased decreasing raise raises raised lower lowers lowered ' +
    'reduce reduces reduced reducing improve improves improved worsen worsens worsened accelerate accelerates accelerated ' +
    'slow slows slowed inhibit inhibits inhibited promote promotes promoted higher greater fewer'
  ).split(' '),
);

export interface TextOverlap {
  /** Shared shingles over all shingles of either (Jaccard). */
  overlap: number;
  /** Shared shingles over the shorter text's shingles. */
  containment: number;
  /** Words one text has and the other lacks that change what it claims (a negation, a direction). */
  claimWords: string[];
  /** Which item is the shorter (its shingles are the fewer). */
  shorter: 'a' | 'b';
}

export type CopyKind = 'near_copy' | 'draft';

/** What the overlap makes the pair: near-copies, one a draft (or excerpt) of the other, or neither. */
export function copyKind(overlap: TextOverlap): CopyKind | null {
  if (overlap.claimWords.length > 0) return null;
  if (overlap.overlap >= NEAR_COPY_OVERLAP) return 'near_copy';
  if (overlap.containment >= DRAFT_CONTAINMENT) return 'draft';
  return null;
}

/** A text's distinct shingles (hashed, sorted) and its distinct words. */
export interface Shingled {
  shingles: Uint32Array;
  words: Set<string>;
}

export function words(text: string): string[] {
  return text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+(?:[.,'’][\p{L}\p{N}]+)*/gu) ?? [];
}

export function shingle(text: string): Shingled {
  const all = words(text.slice(0, MAX_CHARACTERS));
  const shingles = new Set<number>();
  // A text shorter than one shingle is one shingle of all its words.
  const last = all.length === 0 ? -1 : Math.max(0, all.length - SHINGLE_WORDS);
  for (let i = 0; i <= last; i++) shingles.add(hash(all.slice(i, i + SHINGLE_WORDS).join(' ')));
  return { shingles: Uint32Array.from(shingles).sort(), words: new Set(all) };
}

export function textOverlap(a: Shingled, b: Shingled): TextOverlap {
  const shared = sharedCount(a.shingles, b.shingles);
  const smaller = Math.min(a.shingles.length, b.shingles.length);
  const union = a.shingles.length + b.shingles.length - shared;
  const differing = [...symmetricDifference(a.words, b.words)];
  return {
    overlap: union === 0 ? 0 : shared / union,
    containment: smaller === 0 ? 0 : shared / smaller,
    claimWords: differing.filter((word) => CLAIM_WORDS.has(word)).sort(),
    shorter: a.shingles.length <= b.shingles.length ? 'a' : 'b',
  };
}

const remembered = new WeakMap<WorkspaceStore, Map<string, Shingled>>();

/** The item's shingles, read from its stored passages (remembered by content hash). */
export async function shingledItem(store: WorkspaceStore, item: ItemRecord): Promise<Shingled> {
  const cache = remembered.get(store) ?? new Map<string, Shingled>();
  remembered.set(store, cache);
  const key = `${item.id}|${item.contentHash}`;
  const known = cache.get(key);
  if (known) return known;
  let text = '';
  for (const chunk of await store.listChunks(item.id)) {
    if (text.length >= MAX_CHARACTERS) break;
    text += `${chunk.text}\n`;
  }
  const shingled = shingle(text);
  if (cache.size >= REMEMBERED) cache.delete(cache.keys().next().value!);
  cache.set(key, shingled);
  return shingled;
}

/** Values in both sorted arrays, by one merge pass. */
function sharedCount(a: Uint32Array, b: Uint32Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (a[i]! < b[j]!) i += 1;
    else j += 1;
  }
  return shared;
}

function* symmetricDifference(a: Set<string>, b: Set<string>): Iterable<string> {
  for (const word of a) if (!b.has(word)) yield word;
  for (const word of b) if (!a.has(word)) yield word;
}

/** FNV-1a over the shingle's text: 32 bits are plenty to tell apart the shingles of two texts. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193);
  return value >>> 0;
}
