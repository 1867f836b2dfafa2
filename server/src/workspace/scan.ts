// Lists the files of a folder that Relata should index, as folder-relative paths in a stable
// order (so the queue is deterministic; which of identical files is the original does not depend
// on it: store/preferredOriginal.ts). Nothing is followed: a directory is descended only when it is a real one, and
// every other entry (a file, a link, a FIFO) is listed, so ingest can report why it is skipped.
// A subfolder that cannot be read (no permission, or gone since its parent was listed) costs the
// run nothing else: it is listed with the reason, and its files, unseen, are not taken for deleted.

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FolderRules } from './folderRules.ts';

export interface UnreadableFolder {
  /** Folder-relative, with a trailing slash, so a report tells it from a file. */
  path: string;
  reason: string;
}

export interface FolderScan {
  files: string[];
  unreadable: UnreadableFolder[];
}

export async function scanFolder(root: string, rules: FolderRules): Promise<FolderScan> {
  const files: string[] = [];
  const unreadable: UnreadableFolder[] = [];
  const top = path.resolve(root);
  const pending = [top];
  while (pending.length > 0) {
    const directory = pending.pop()!;
    let entries;
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      // The folder itself must be readable: without it there is nothing to index.
      const reason = directory === top ? null : unreadableFolderReason(error as NodeJS.ErrnoException);
      if (reason === null) throw error;
      unreadable.push({ path: `${rules.relative(directory)}/`, reason });
      continue;
    }
    for (const entry of entries) {
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!rules.isIgnored(absolute, true)) pending.push(absolute);
      } else if (!rules.isIgnored(absolute, false)) {
        files.push(rules.relative(absolute));
      }
    }
  }
  return { files: files.sort(), unreadable: unreadable.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
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
