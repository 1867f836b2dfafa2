// Which of two byte-identical files a person would call the original, when both were first seen
// in the same run: the folder walk's order says nothing about that (an archive copy is often
// walked first), so the store decides by the file itself. The oldest modification time wins (a
// copy is usually made later), then the shorter path (a copy tends to sit deeper, in an archive
// folder), then a name without a copy marker, then path order, so the outcome never depends on
// which file was read first. An original the store already had is never displaced by this rule.

/** One candidate: its folder-relative path and modification time (ms), null when it could not be read. */
export interface OriginalCandidate {
  path: string;
  modifiedMs: number | null;
}

/** Words and suffixes that mark a file as somebody's copy, in the languages Relata meets most. */
export const COPY_MARKERS: readonly RegExp[] = [
  /\bcopy\b/i,
  /\bbackup\b/i,
  /\barchived?\b/i,
  /\bold\b/i,
  /\bkopie\b/i,
  /\(\d+\)/,
  /\bbak\b/i,
];

/** True when any part of the path (folder or file name) carries a copy marker. */
export function hasCopyMarker(relativePath: string): boolean {
  return relativePath.split('/').some((part) => COPY_MARKERS.some((marker) => marker.test(part.replace(/[_.-]+/g, ' '))));
}

/**
 * Modification times this close count as the same: files written by one copy, unpack or checkout
 * land milliseconds apart in whatever order the tool walked them, which says nothing about which
 * is the copy (and FAT keeps times to 2 s).
 */
export const SAME_TIME_MS = 2_000;

/** Negative when `a` is the better original, positive when `b` is; zero only for the same path. */
export function compareOriginals(a: OriginalCandidate, b: OriginalCandidate): number {
  if (a.modifiedMs !== null && b.modifiedMs !== null && Math.abs(a.modifiedMs - b.modifiedMs) > SAME_TIME_MS) {
    return a.modifiedMs - b.modifiedMs;
  }
  if (a.path.length !== b.path.length) return a.path.length - b.path.length;
  const marked = Number(hasCopyMarker(a.path)) - Number(hasCopyMarker(b.path));
  if (marked !== 0) return marked;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
