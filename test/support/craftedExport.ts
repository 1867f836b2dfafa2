// Crafted export directories for the import's hostile-input tests: a real export written by the
// real code from a small indexed folder (vectors of the offline default model included), copied
// per test and then edited the way an attacker would, records file and manifest alike, so that
// every refusal a test sees is the check it means and not a hash mismatch.

import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { exportToDirectory } from '../../server/src/store/exchange/exportDir.ts';
import { RECORD_FILES, type ExchangeKind, type ExportManifest } from '../../server/src/store/exchange/records.ts';
import { openStoreWithBlobs } from '../../server/src/store/index.ts';
import { tempDir, writeFiles } from './tempFolder.ts';

export const CRAFTED_WORKSPACE = 'crafted';

/** Indexes a small folder (`root/folder`) into `root/data` and exports it to `root/export`. */
export async function realExport(root: string): Promise<{ dir: string; folder: string }> {
  const folder = writeFiles(path.join(root, 'folder'), {
    'dock/handover.md': '# Dock handover\n\nMs. Carla Mendes walked the loading dock with Example Ltd.\n\nThe cost of the dock door repair is EUR 4,200.\n',
    'dock/inspection.md': '# Dock inspection\n\nMs. Carla Mendes signed the inspection of the loading dock on 2025-03-14.\n\nThe cost of the dock door repair is EUR 4,200.\n',
  });
  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder, dataDir, workspace: CRAFTED_WORKSPACE, embedding: { kind: 'use-lite' } });
  try {
    await index.index();
  } finally {
    await index.close();
  }
  const dir = path.join(root, 'export');
  const { store, blobs } = openStoreWithBlobs({ dataDir, workspace: CRAFTED_WORKSPACE, access: 'read' });
  try {
    await exportToDirectory({ store, blobs, dir, source: { backend: 'sqlite', location: dataDir } });
  } finally {
    await store.close();
  }
  return { dir, folder };
}

/** A copy of the export to edit, removed when the test ends. */
export function copyOfExport(t: TestContext, exportDir: string): string {
  const copy = path.join(tempDir(t), 'export');
  cpSync(exportDir, copy, { recursive: true });
  return copy;
}

export function readManifestFile(dir: string): ExportManifest {
  return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as ExportManifest;
}

/** Writes a records file's text and makes the manifest agree with it (hash, size, count). */
export function writeRecordsText(dir: string, kind: ExchangeKind | 'blob', text: string): void {
  const file = RECORD_FILES[kind];
  writeFileSync(path.join(dir, file), text);
  const manifest = readManifestFile(dir);
  manifest.files[file] = { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
  manifest.counts[kind] = text.split('\n').filter((line) => line !== '').length;
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
}

/** Rewrites the records of one kind as parsed objects, the manifest following. */
export function editRecords(dir: string, kind: ExchangeKind | 'blob', edit: (records: Record<string, unknown>[]) => Record<string, unknown>[]): void {
  const lines = readFileSync(path.join(dir, RECORD_FILES[kind]), 'utf8').split('\n').filter((line) => line !== '');
  const edited = edit(lines.map((line) => JSON.parse(line) as Record<string, unknown>));
  writeRecordsText(dir, kind, edited.map((record) => `${JSON.stringify(record)}\n`).join(''));
}

/** The records of one kind as parsed objects. */
export function recordsOf(dir: string, kind: ExchangeKind | 'blob'): Record<string, unknown>[] {
  return readFileSync(path.join(dir, RECORD_FILES[kind]), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
