// Lists the files of a folder that Relata should index, as folder-relative paths in a stable
// order (so the queue is deterministic; which of identical files is the original does not depend
// on it: store/preferredOriginal.ts). Nothing is followed: a directory is descended only when it is a real one, and
// every other entry (a file, a link, a FIFO) is listed, so ingest can report why it is skipped.

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FolderRules } from './folderRules.ts';

export async function scanFolder(root: string, rules: FolderRules): Promise<string[]> {
  const found: string[] = [];
  const pending = [path.resolve(root)];
  while (pending.length > 0) {
    const directory = pending.pop()!;
    const entries = await readdir(directory, { withFileTypes: true });
    for (const entry of entries) {
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!rules.isIgnored(absolute, true)) pending.push(absolute);
      } else if (!rules.isIgnored(absolute, false)) {
        found.push(rules.relative(absolute));
      }
    }
  }
  return found.sort();
}
