// Ingest: reconcile one path with the disk. Present → bytes kept verbatim (content-addressed),
// hashed, and recorded as new, changed, renamed, duplicate or unchanged. Gone → tombstoned.
// Unsupported or oversized → skipped with a reason. Unchanged bytes cost no parsing.

import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../../store/blobs.ts';
import { parserFor, SUPPORTED_EXTENSIONS } from '../../parse/registry.ts';
import { MEBIBYTE } from '../settings.ts';
import type { StageContext } from './context.ts';

export async function ingest(context: StageContext, relativePath: string): Promise<void> {
  const { store, blobs, folder, settings } = context;
  const absolute = path.join(folder, relativePath);
  const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    throw error;
  });
  if (!info || !info.isFile()) {
    const orphanedDuplicates = await store.tombstone(relativePath);
    // A duplicate whose original is gone becomes the original: re-ingest it.
    for (const duplicate of orphanedDuplicates) await store.enqueue('ingest', duplicate);
    return;
  }

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

  const bytes = await readFile(absolute);
  const contentHash = sha256(bytes);
  await blobs.put(contentHash, bytes);
  const outcome = await store.recordIngest(
    { path: relativePath, contentHash, size: bytes.length },
    (other) => existsSync(path.join(folder, other)),
  );
  if (outcome.kind === 'unchanged') {
    // Same bytes, but a newer parser may read them better (or, this time, at all).
    const item = await store.getItem(outcome.itemId);
    if (item && item.parserVersion !== parser.version) await store.enqueue('parse', item.id);
  }
}
