// Which of a folder's files a run must read again. Reading and hashing every file only to find it
// unchanged was all of a restart's re-check: ~100 s of the language server's main thread for
// 100,000 notes (325 MB), while the editor's requests waited behind it (docs/PERFORMANCE.md).
//
// As git's index does, a file whose size, modification time and change time are those ingest saw
// when it last read it is taken as unchanged without reading it. The change time (ctime) moves with
// every write and every rename, and also when a tool sets the modification time back, so equal times
// mean a file nobody touched. A file whose recorded modification time lies within RACY_MS of the
// moment it was checked may have been written again within the same tick of a coarse clock, its
// times unchanged: it is read again (git's "racily clean" entries). A file its parser has a newer
// version for is read again, so the new parser reads it; and one now over the size limit (a
// setting lowered since), so that ingest skips it as it would a new file.

import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { FileCheck, FileStats } from '../store/contract.ts';

/** How close to its check a recorded modification time makes the check unsafe (coarse file-system clocks: FAT keeps 2 s). */
export const RACY_MS = 2_000;
/** Files looked at at once. */
const LANES = 32;

/**
 * Whether the file, as it is now, is the one the check recorded: same size and times, checked well
 * after it was last modified, and (for an original, not a copy) parsed by the current parser.
 */
export function unchangedSinceCheck(check: FileCheck, now: FileStats, currentParserVersion: string | null): boolean {
  if (now.size !== check.size || now.mtimeMs !== check.mtimeMs || now.ctimeMs !== check.ctimeMs) return false;
  if (check.checkedMs - check.mtimeMs < RACY_MS || check.checkedMs - check.ctimeMs < RACY_MS) return false;
  return check.duplicate || check.parserVersion === currentParserVersion;
}

/** How a run reads its files: the current parser of a path, and the largest file it reads. */
export interface ReadSettings {
  parserVersionOf(relativePath: string): string | null;
  maxFileBytes: number;
}

/** The scanned files a run reads: every file without a check, and every one no longer as its check recorded. */
export async function filesToRead(folder: string, files: readonly string[], checks: readonly FileCheck[], settings: ReadSettings): Promise<string[]> {
  const byPath = new Map(checks.map((check) => [check.path, check]));
  const unchanged = new Set<string>();
  const waiting = files.filter((file) => byPath.has(file));
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      for (let file = waiting.pop(); file !== undefined; file = waiting.pop()) {
        // Not there, or not a file, any more: ingest reads the path and says what happened to it.
        const stats = await lstat(path.join(folder, file)).catch(() => null);
        if (!stats?.isFile() || stats.size > settings.maxFileBytes) continue;
        if (unchangedSinceCheck(byPath.get(file)!, stats, settings.parserVersionOf(file))) unchanged.add(file);
      }
    }),
  );
  return files.filter((file) => !unchanged.has(file));
}
