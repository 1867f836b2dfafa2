// Lists the files of a folder that Relata should index, as folder-relative paths in a stable
// order (so the queue is deterministic; which of identical files is the original does not depend
// on it: store/preferredOriginal.ts). Nothing is followed: a directory is descended only when it is a real one, and
// every other entry (a file, a link, a FIFO) is listed, so ingest can report why it is skipped.
// A subfolder that cannot be read (no permission, or gone since its parent was listed) costs the
// run nothing else: it is listed with the reason, and its files, unseen, are not taken for deleted.
// The same holds for a folder whose path is longer than the system lets a program open
// (PATH_MAX): listed, with the reason, and the rest of the folder indexed.
//
// A name that is not valid UTF-8 is skipped with that reason, not indexed. Items are stored under
// text paths, and Node's text form of such a name replaces the bad bytes with U+FFFD: that path
// names no file, so nothing stored under it could be read again, watched, or told apart from
// another name differing in the same bytes. The report shows the name with its bad bytes escaped
// (\xFF), so the person can find and rename it.

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FolderRules } from './folderRules.ts';

export interface UnreadableFolder {
  /** Folder-relative, with a trailing slash, so a report tells it from a file. */
  path: string;
  reason: string;
}

/** An entry the scan saw and will not index, with the reason (a name that is not valid UTF-8). */
export interface SkippedEntry {
  /** Folder-relative, the bad bytes escaped as \xNN; a folder's ends in a slash. */
  path: string;
  reason: string;
}

export interface FolderScan {
  files: string[];
  unreadable: UnreadableFolder[];
  skipped: SkippedEntry[];
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

export async function scanFolder(root: string, rules: FolderRules): Promise<FolderScan> {
  const files: string[] = [];
  const unreadable: UnreadableFolder[] = [];
  const skipped: SkippedEntry[] = [];
  const top = path.resolve(root);
  const pending = [top];
  while (pending.length > 0) {
    const directory = pending.pop()!;
    let entries;
    try {
      // Names as bytes, so that one which is not valid UTF-8 is seen as such, not silently altered.
      entries = await readdir(directory, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      // The folder itself must be readable: without it there is nothing to index.
      const reason = directory === top ? null : unreadableFolderReason(error as NodeJS.ErrnoException);
      if (reason === null) throw error;
      unreadable.push({ path: `${rules.relative(directory)}/`, reason });
      continue;
    }
    for (const entry of entries) {
      const name = utf8Name(entry.name);
      if (name === null) {
        // The rules read text: the lossy form still matches patterns such as `*.tmp` or `build/`.
        if (rules.isIgnored(path.join(directory, entry.name.toString()), entry.isDirectory())) continue;
        const parent = rules.relative(directory);
        const shown = escapedName(entry.name);
        skipped.push({
          path: `${parent ? `${parent}/` : ''}${shown}${entry.isDirectory() ? '/' : ''}`,
          reason: `name is not valid UTF-8: ${shown} (bytes that are not UTF-8 shown as \\xNN); Relata stores paths as text, so rename it to index it`,
        });
        continue;
      }
      const absolute = path.join(directory, name);
      if (entry.isDirectory()) {
        if (!rules.isIgnored(absolute, true)) pending.push(absolute);
      } else if (!rules.isIgnored(absolute, false)) {
        files.push(rules.relative(absolute));
      }
    }
  }
  return { files: files.sort(), unreadable: unreadable.sort(byPath), skipped: skipped.sort(byPath) };
}

/** The name as text, or null when its bytes are not valid UTF-8 (and no text path could name the file). */
function utf8Name(bytes: Buffer): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** A name for people to read: its valid UTF-8 as text, every other byte as \xNN. */
export function escapedName(bytes: Uint8Array): string {
  let shown = '';
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at]!;
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    const text = length > 0 && at + length <= bytes.length ? utf8Name(Buffer.from(bytes.subarray(at, at + length))) : null;
    if (text === null) {
      shown += `\\x${lead.toString(16).toUpperCase().padStart(2, '0')}`;
      at += 1;
    } else {
      shown += text;
      at += length;
    }
  }
  return shown;
}

/** Why a subfolder could not be listed, in words a user can act on; null for errors that should stop the run. */
function unreadableFolderReason(error: NodeJS.ErrnoException): string | null {
  switch (error.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied: the folder cannot be listed, so its files were not indexed (give your user read and execute permission on it)';
    case 'ENOENT':
    case 'ENOTDIR':
      return 'the folder was removed or replaced while the folder was being scanned';
    case 'ENAMETOOLONG':
      return 'path too long: the system cannot open a folder this deep (its path is over PATH_MAX), so its files were not indexed (shorten the folder names above it)';
    case 'EIO':
      return 'input/output error while listing the folder (a failing disk or network share?); its files were not indexed';
    default:
      return null;
  }
}

/** True when a folder-relative file path lies inside one of the unreadable folders. */
export function insideUnreadable(relativePath: string, unreadable: readonly UnreadableFolder[]): boolean {
  return unreadable.some((folder) => relativePath.startsWith(folder.path));
}
