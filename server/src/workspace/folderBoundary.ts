// Where a folder ends. Relata reads only what lies inside the folder it was given: a path leaves
// it only through the segment `..` (a name such as `..notes.md` is an ordinary name), symbolic
// links are never followed (a link may lead anywhere, and a link to a parent multiplies the
// folder), and special files are never opened (opening a FIFO blocks until someone writes). The
// scan and the watcher descend real directories only and pass every other entry on; ingest then
// skips, with the reasons below, whatever is not a regular file reached without a link, so a run
// and a watch record the same thing.

import { existsSync, realpathSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { isInside } from '../store/dataDir.ts';

export const LINK_NOT_FOLLOWED = 'symbolic link (not followed)';
export const LINKED_FOLDER_ON_PATH = 'a folder on its path is a symbolic link (not followed)';

/** True when a folder-relative path (either separator) climbs out of the folder. */
export function leavesFolder(relative: string): boolean {
  if (path.isAbsolute(relative)) return true;
  const first = relative.split(/[\\/]/, 1)[0];
  return first === '..';
}

/** A directory entry as seen without following it (lstat, or readdir's entries). */
type Unfollowed = Pick<Stats | Dirent, 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>;

/** Why an entry that is neither a directory nor a regular file is not read; null for those two. */
export function unreadableReason(entry: Unfollowed): string | null {
  if (entry.isFile() || entry.isDirectory()) return null;
  if (entry.isSymbolicLink()) return LINK_NOT_FOLLOWED;
  if (entry.isFIFO()) return 'not a regular file (a FIFO)';
  if (entry.isSocket()) return 'not a regular file (a socket)';
  if (entry.isCharacterDevice()) return 'not a regular file (a character device)';
  if (entry.isBlockDevice()) return 'not a regular file (a block device)';
  return 'not a regular file';
}

/** The real path of a path that may not exist yet: its nearest existing ancestor's, plus the rest. */
function realPathOf(given: string): string {
  const absolute = path.resolve(given);
  let existing = absolute;
  while (!existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  return path.join(realpathSync(existing), path.relative(existing, absolute));
}

/**
 * Why a folder cannot be indexed into this data directory, or null when it can: one inside the
 * other would make Relata index its own store (or find nothing but its store). Real paths are
 * compared, so a link to either does not hide the overlap.
 */
export function dataDirOverlap(folder: string, dataDir: string): string | null {
  const realFolder = realPathOf(folder);
  const realData = realPathOf(dataDir);
  const advice = 'Relata would index its own store; choose a data directory outside the folder';
  if (isInside(realData, realFolder)) return `the data directory ${path.resolve(dataDir)} is inside the folder ${path.resolve(folder)}: ${advice}`;
  if (isInside(realFolder, realData)) return `the folder ${path.resolve(folder)} is inside its data directory ${path.resolve(dataDir)}: ${advice}`;
  return null;
}
