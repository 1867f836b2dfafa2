// One file of the folder, looked at and read without leaving the folder. The check (lstat, real
// path) and the read are two moments, and the disk may change in between: the read therefore
// opens with O_NOFOLLOW (a link swapped in is refused by the kernel) and O_NONBLOCK (a FIFO
// swapped in does not block), then checks the opened handle itself: a regular file, the very
// file that was checked, and (where /proc/self/fd tells) still at its real path in the folder.
// A file the user may not read, or whose path is too long for the system to open, is
// `unreadable`, with the reason: a failure of that one file, not of the run, and not worth
// retrying until something on disk changes.

import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { LINK_NOT_FOLLOWED, LINKED_FOLDER_ON_PATH, unreadableReason } from './folderBoundary.ts';

export type FolderEntry =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'skipped'; reason: string; size: number | null }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'file'; stats: Stats };

export type FolderRead = { kind: 'read'; bytes: Buffer } | { kind: 'skipped'; reason: string } | { kind: 'unreadable'; reason: string };

// Absent on Windows, where a link is not opened through by default anyway.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

const gone = (error: NodeJS.ErrnoException) => error.code === 'ENOENT' || error.code === 'ENOTDIR';

export const PERMISSION_DENIED = 'permission denied: Relata cannot read this file (give your user read permission on it)';

export const PATH_TOO_LONG = 'path too long: the system cannot open a file this deep (its path is over PATH_MAX); shorten the folder names above it';

/** Why the file cannot be read, for the errors that are the file's and not the run's; null otherwise. */
function unreadable(error: NodeJS.ErrnoException): { kind: 'unreadable'; reason: string } | null {
  if (error.code === 'EACCES' || error.code === 'EPERM') return { kind: 'unreadable', reason: PERMISSION_DENIED };
  if (error.code === 'ENAMETOOLONG') return { kind: 'unreadable', reason: PATH_TOO_LONG };
  return null;
}

/** Where a folder-relative path is on disk if no link lies on the way: the folder's real path, plus the path. */
async function expectedRealPath(folder: string, relativePath: string): Promise<string> {
  return path.join(await realpath(folder), ...relativePath.split('/'));
}

/** What is at a folder-relative path, looked at without following anything. */
export async function examineEntry(folder: string, relativePath: string): Promise<FolderEntry> {
  const absolute = path.join(folder, relativePath);
  const whenGone = (error: NodeJS.ErrnoException) => {
    if (gone(error)) return null;
    throw error;
  };
  const stats = await lstat(absolute).catch((error: NodeJS.ErrnoException) => {
    // A loop of links among the folders on the path.
    if (error.code === 'ELOOP') return LINKED_FOLDER_ON_PATH;
    return unreadable(error) ?? whenGone(error);
  });
  if (stats === null) return { kind: 'missing' };
  if (typeof stats === 'string') return { kind: 'skipped', reason: stats, size: null };
  if ('kind' in stats) return stats;
  const reason = unreadableReason(stats);
  if (reason) return { kind: 'skipped', reason, size: null };
  const real = await realpath(absolute).catch(whenGone);
  if (real === null) return { kind: 'missing' };
  if (real !== (await expectedRealPath(folder, relativePath))) return { kind: 'skipped', reason: LINKED_FOLDER_ON_PATH, size: null };
  return stats.isDirectory() ? { kind: 'directory' } : { kind: 'file', stats };
}

function changedWhileRead(relativePath: string): Error {
  return new Error(`${relativePath}: the file changed while it was being read; it will be read again`);
}

/** The bytes of a file that `examineEntry` found to be a regular file, or why it is not read after all. */
export async function readFolderFile(folder: string, relativePath: string, checked: Stats): Promise<FolderRead> {
  const absolute = path.join(folder, relativePath);
  const handle = await open(absolute, OPEN_FLAGS).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') return null;
    if (gone(error)) throw changedWhileRead(relativePath);
    const reason = unreadable(error);
    if (reason) return reason;
    throw error;
  });
  if (!handle) return { kind: 'skipped', reason: LINK_NOT_FOLLOWED };
  if ('kind' in handle) return handle;
  try {
    const opened = await handle.stat();
    const reason = unreadableReason(opened);
    if (reason) return { kind: 'skipped', reason };
    if (opened.dev !== checked.dev || opened.ino !== checked.ino) throw changedWhileRead(relativePath);
    const where = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    if (where !== null && where !== (await expectedRealPath(folder, relativePath))) throw changedWhileRead(relativePath);
    return { kind: 'read', bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}
