// Ingest: reconcile one path with the disk. Present → bytes kept verbatim (content-addressed),
// hashed, and recorded as new, changed, renamed, duplicate or unchanged. Gone → tombstoned.
// Unsupported, oversized or empty → skipped with a reason. Unreadable (no permission) → failed
// with the reason, at once: retrying cannot help until the file changes. Unchanged bytes, and a
// duplicate's, cost no parsing. Links and special files are skipped too, and the read never
// leaves the folder (workspace/folderFile.ts); nor does a path the store held, checked before
// anything is looked at (workspace/storedPath.ts). A path the folder's rules exclude is never read,
// whoever queued it (the editor's re-index of one file, a run that finds a stored item the rules
// now exclude): it is treated as gone, so what was stored under it leaves search as a deleted
// file's passages do.
// The file's modification time and the run's start go with it, so that among identical files
// first seen together the store picks the original by store/preferredOriginal.ts, not read order.
// What was seen of the file before it was read (size, times, when) is recorded once the bytes are
// stored: a later run reads it again only if that changed (workspace/checkedFiles.ts).

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { sha256 } from '../../store/blobs.ts';
import { parserFor, SUPPORTED_EXTENSIONS } from '../../parse/registry.ts';
import { examineEntry, readFolderFile } from '../../workspace/folderFile.ts';
import { storedPathProblem } from '../../workspace/storedPath.ts';
import { MEBIBYTE } from '../settings.ts';
import type { StageContext } from './context.ts';

export async function ingest(context: StageContext, relativePath: string): Promise<void> {
  const { store, blobs, folder, settings } = context;
  // A path the store holds (an older import, an edited export) is data, not a place: one that
  // leaves the folder is reported on its item and never opened.
  const problem = storedPathProblem(relativePath);
  if (problem) {
    await failUnreadable(store, relativePath, `${OUTSIDE_THE_FOLDER}: the stored path ${problem}; it was not read`);
    return;
  }
  if (context.rules.exclusionReason(relativePath) !== null) {
    await fileGone(store, relativePath);
    return;
  }
  const checkedMs = Date.now();
  const entry = await examineEntry(folder, relativePath);
  if (entry.kind === 'skipped') {
    await skipUnreadable(store, relativePath, entry.reason);
    return;
  }
  if (entry.kind === 'unreadable') {
    await failUnreadable(store, relativePath, entry.reason);
    return;
  }
  if (entry.kind !== 'file') {
    await fileGone(store, relativePath);
    return;
  }
  const info = entry.stats;

  const parser = parserFor(relativePath);
  if (!parser) {
    const extension = path.extname(relativePath).toLowerCase() || '(none)';
    await store.recordSkipped(
      relativePath,
      `unsupported file type ${extension}: Relata reads ${SUPPORTED_EXTENSIONS.join(', ')}`,
      info.size,
    );
    return;
  }
  if (info.size > settings.maxFileBytes) {
    await store.recordSkipped(
      relativePath,
      `file is ${(info.size / MEBIBYTE).toFixed(1)} MB, over the ${(settings.maxFileBytes / MEBIBYTE).toFixed(0)} MB size limit`,
      info.size,
    );
    return;
  }

  const read = await readFolderFile(folder, relativePath, info);
  if (read.kind === 'skipped') {
    await skipUnreadable(store, relativePath, read.reason);
    return;
  }
  if (read.kind === 'unreadable') {
    await failUnreadable(store, relativePath, read.reason);
    return;
  }
  const bytes = read.bytes;
  // Checked on the bytes read, not the size listed: all empty files are byte-identical, and
  // none of them is a copy of another.
  if (bytes.length === 0) {
    await skipUnreadable(store, relativePath, EMPTY_FILE);
    return;
  }
  const contentHash = sha256(bytes);
  await blobs.put(contentHash, bytes);
  // A link is not the file it points to: an original replaced by one no longer counts as on disk.
  const fileAt = (other: string) => {
    try {
      const stats = lstatSync(path.join(folder, other));
      return stats.isFile() ? stats : null;
    } catch {
      return null;
    }
  };
  const outcome = await store.recordIngest(
    { path: relativePath, contentHash, size: bytes.length, modifiedMs: info.mtimeMs },
    (other) => fileAt(other) !== null,
    context.runStartedAt ? { startedAt: context.runStartedAt, modifiedMs: (other) => fileAt(other)?.mtimeMs ?? null } : undefined,
  );
  await store.recordFileCheck(relativePath, { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, checkedMs });
  if (outcome.kind === 'unchanged') {
    // Same bytes, but a newer parser may read them better (or, this time, at all). A duplicate is
    // never parsed (its original is), so its parser version is always unset: not a reason.
    const item = await store.getItem(outcome.itemId);
    if (item && item.status !== 'duplicate' && item.parserVersion !== parser.version) await store.enqueue('parse', item.id);
  }
}

export const OUTSIDE_THE_FOLDER = 'not a path inside the folder';

export const EMPTY_FILE = 'empty file (0 bytes): nothing to index';

async function failUnreadable(store: StageContext['store'], relativePath: string, reason: string): Promise<void> {
  // Its duplicates no longer have a readable original: one of them takes over.
  for (const duplicate of await store.recordFailed(relativePath, reason)) await store.enqueue('ingest', duplicate);
}

async function fileGone(store: StageContext['store'], relativePath: string): Promise<void> {
  const orphanedDuplicates = await store.tombstone(relativePath);
  // A duplicate whose original is gone becomes the original: re-ingest it.
  for (const duplicate of orphanedDuplicates) await store.enqueue('ingest', duplicate);
}

/**
 * A link, a special file or an empty file is not read. If it took the place of a file, that file
 * is gone (its passages are dropped and its duplicates take over); the entry is listed as skipped.
 */
async function skipUnreadable(store: StageContext['store'], relativePath: string, reason: string): Promise<void> {
  const live = await store.getItemByPath(relativePath);
  if (live && live.status !== 'skipped') await fileGone(store, relativePath);
  await store.recordSkipped(relativePath, reason, null);
}
