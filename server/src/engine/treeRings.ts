// The items nearest a file in the folder tree, for Related's nearby fallback: nearest folders
// first (the steps between two files' folders, 0 for the same folder), then path in code-point
// order. Read ring by ring, one distance at a time, each ring a few stretches of paths at one folder
// depth that the store answers through an index, a few items per stretch: the cost follows the
// items shown and the tree's depth, never the folder's size (issue 32). Listing every item and
// sorting it by distance made each Related view read the whole folder.

import path from 'node:path';
import type { ItemPath, PathRange, WorkspaceStore } from '../store/contract.ts';

/**
 * A file's folders from the root, as the distance counts them: a root file's folder is '.'
 * (path.posix.dirname's answer), one step from every top-level folder, two from a file in one.
 */
function foldersOf(filePath: string): string[] {
  return path.posix.dirname(filePath).split('/');
}

/** The order both stores keep paths in: UTF-8 bytes, which is code-point order (not UTF-16 units). */
export function byCodePoint(a: { path: string }, b: { path: string }): number {
  return Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));
}

/** Paths under a folder: from `folder/` up to `folder0`, '0' being the character after '/'. */
const under = (folder: string): [string, string] => [`${folder}/`, `${folder}0`];

/** The stretches from `from` to `to` that leave out the paths under `folder`. */
function outside(from: string, to: string | null, folder: string): (readonly [string, string | null])[] {
  const [first, last] = under(folder);
  return [
    [from, first],
    [last, to],
  ];
}

/**
 * The stretches of paths whose files are `distance` steps from the folders `mine`. A file whose
 * folders share the first `common` of mine and are `theirs` deep is mine.length - common + theirs -
 * common steps away; its path is under the shared folder but outside the next of mine.
 */
function ringAt(mine: readonly string[], distance: number): PathRange[] {
  if (mine.length === 1 && mine[0] === '.') {
    // A root file: the other root files at 0, a file `k` folders deep at 1 + k.
    if (distance === 0) return [{ from: '', to: null, slashes: 0 }];
    return distance >= 2 ? [{ from: '', to: null, slashes: distance - 1 }] : [];
  }
  const ranges: PathRange[] = [];
  for (let common = Math.max(0, mine.length - distance); common <= mine.length; common++) {
    const theirs = distance - mine.length + 2 * common;
    if (theirs < 1) continue;
    const [from, to] = common === 0 ? ['', null] : under(mine.slice(0, common).join('/'));
    const stretches = common === mine.length ? [[from, to] as const] : outside(from, to, mine.slice(0, common + 1).join('/'));
    for (const [start, end] of stretches) {
      ranges.push({ from: start, to: end, slashes: theirs });
      // Root files sit in '.', a folder one deep that shares nothing with mine.
      if (common === 0 && theirs === 1) ranges.push({ from: start, to: end, slashes: 0 });
    }
  }
  return ranges;
}

/**
 * Up to `count` live indexed items nearest `filePath` in the tree, leaving out those `isBlocked`
 * refuses (at most `blockedCount` of them can meet the walk, so each stretch reads that many more).
 */
export async function nearestInTree(
  store: WorkspaceStore,
  filePath: string,
  count: number,
  isBlocked: (itemId: string) => boolean,
  blockedCount: number,
): Promise<ItemPath[]> {
  const mine = foldersOf(filePath);
  const found: ItemPath[] = [];
  // Every tree reaches one folder deep; how much deeper is asked only when the walk gets there.
  let farthest = mine.length + 1;
  let deepestKnown = false;
  for (let distance = 0; found.length < count; distance++) {
    if (distance > farthest) {
      if (deepestKnown) break;
      deepestKnown = true;
      farthest = mine.length + Math.max(1, (await store.deepestIndexedPath()) ?? 0);
      if (distance > farthest) break;
    }
    const need = count - found.length;
    const ring = await Promise.all(ringAt(mine, distance).map((range) => store.indexedItemsInPathRange(range, need + blockedCount)));
    found.push(...ring.flat().filter((entry) => !isBlocked(entry.id)).sort(byCodePoint).slice(0, need));
  }
  return found;
}
