// `relata export <dir>`: a store's records for one workspace written as a relata-export/1
// directory (records.ts, docs/EXPORT_FORMAT.md): one JSON Lines file per kind, the original bytes
// as blobs/<sha256>, and manifest.json last, with the sha-256 of every file, so a reader can tell a
// finished, untouched export from anything else. Records are streamed from the store to the files,
// so a large store is never held in memory; the blob hashes are (64 bytes per distinct file).

import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import type { BlobStore } from '../blobs.ts';
import type { WorkspaceStore } from '../contract.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../privateFiles.ts';
import {
  EXCHANGE_KINDS,
  FOLDER_ROOT_KEY,
  FORMAT_VERSION,
  RECORD_FILES,
  type BlobRecord,
  type ExchangeKind,
  type ExchangeRecord,
  type ExportManifest,
} from './records.ts';

export const MANIFEST_FILE = 'manifest.json';
export const BLOB_DIR = 'blobs';

export interface ExportOptions {
  store: WorkspaceStore;
  blobs: BlobStore;
  /** A directory that does not exist yet or is empty. */
  dir: string;
  source: { backend: ExportManifest['source']['backend']; location: string };
  /** Progress for people (stderr): a line per kind, and every so often inside a large one. */
  progress?: (message: string) => void;
}

/** Records between two progress lines inside one kind. */
const PROGRESS_EVERY = 50_000;

/** One JSON Lines file, hashed as it is written; writes wait when the disk is behind. */
class RecordsFile {
  private readonly stream: WriteStream;
  private readonly digest = createHash('sha256');
  private failure: Error | null = null;
  bytes = 0;
  records = 0;

  constructor(readonly file: string) {
    this.stream = createWriteStream(file, { flags: 'wx', mode: PRIVATE_FILE_MODE });
    this.stream.on('error', (error) => (this.failure = error));
  }

  async write(record: ExchangeRecord | BlobRecord): Promise<void> {
    if (this.failure) throw this.failure;
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    this.digest.update(line);
    this.bytes += line.length;
    this.records += 1;
    // once() rejects if the stream fails while waiting, so a full disk cannot leave this waiting for ever.
    if (!this.stream.write(line)) await once(this.stream, 'drain');
    if (this.failure) throw this.failure;
  }

  async close(): Promise<{ sha256: string; bytes: number }> {
    await new Promise<void>((resolve, reject) => {
      this.stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
    });
    if (this.failure) throw this.failure;
    return { sha256: this.digest.digest('hex'), bytes: this.bytes };
  }
}

/** Writes the export; returns its manifest. Refuses a target directory that holds anything. */
export async function exportToDirectory(options: ExportOptions): Promise<ExportManifest> {
  const { store, blobs, dir } = options;
  const progress = options.progress ?? (() => undefined);
  const existing = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw new Error(`${dir}: cannot read it (${error.message})`);
  });
  if (existing.length > 0) throw new Error(`${dir} is not empty: export writes into a new or empty directory, so nothing in it is overwritten or mixed in`);
  // The export holds the folder's documents: as private as the store it came from.
  await mkdir(path.join(dir, BLOB_DIR), { recursive: true, mode: PRIVATE_DIR_MODE });

  const files = new Map<ExchangeKind | 'blob', RecordsFile>(
    [...EXCHANGE_KINDS, 'blob' as const].map((kind) => [kind, new RecordsFile(path.join(dir, RECORD_FILES[kind]))]),
  );
  const counts = Object.fromEntries([...files.keys()].map((kind) => [kind, 0])) as ExportManifest['counts'];
  // The bytes a restored store needs: those of every item and version not forgotten.
  const hashes = new Set<string>();
  const forgotten = new Set<string>();
  let folderRoot: string | null = null;
  let current: ExchangeKind | null = null;
  const reportKind = () => current && progress(`exported ${counts[current]} ${RECORD_FILES[current].replace('.jsonl', '').replace(/_/g, ' ')}`);
  try {
    for await (const record of store.exportRecords()) {
      if (record.record !== current) {
        reportKind();
        current = record.record;
      }
      if (record.record === 'meta' && record.key === FOLDER_ROOT_KEY) folderRoot = record.value;
      if (record.record === 'item') {
        if (record.forgottenAt) forgotten.add(record.id);
        else if (record.contentHash) hashes.add(record.contentHash);
      }
      if (record.record === 'item_version' && !forgotten.has(record.itemId)) hashes.add(record.contentHash);
      await files.get(record.record)!.write(record);
      counts[record.record] += 1;
      if (counts[record.record] % PROGRESS_EVERY === 0) progress(`exporting ${record.record.replace(/_/g, ' ')}s: ${counts[record.record]}`);
    }
    reportKind();

    const missingBlobs: string[] = [];
    const blobFile = files.get('blob')!;
    for (const hash of [...hashes].sort()) {
      const bytes = (await blobs.has(hash)) ? await blobs.get(hash) : null;
      if (!bytes || createHash('sha256').update(bytes).digest('hex') !== hash) {
        progress(`the store's original bytes ${hash} are ${bytes ? 'damaged (they no longer hash to their name)' : 'missing'}: left out of the export (\`relata check\` names the files)`);
        missingBlobs.push(hash);
        continue;
      }
      await writeFile(path.join(dir, BLOB_DIR, hash), bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      await blobFile.write({ record: 'blob', hash, size: bytes.length });
      counts.blob += 1;
      if (counts.blob % 1_000 === 0) progress(`exporting original files: ${counts.blob} of ${hashes.size}`);
    }
    if (counts.blob > 0) progress(`exported ${counts.blob} original files`);

    const written: ExportManifest['files'] = {};
    for (const file of files.values()) written[path.basename(file.file)] = await file.close();
    const manifest: ExportManifest = {
      format: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      source: { backend: options.source.backend, location: options.source.location, workspace: store.workspace, folderRoot },
      counts,
      files: written,
      missingBlobs,
    };
    // Last, and by rename: a directory with a manifest is a finished export.
    const temp = path.join(dir, `${MANIFEST_FILE}.tmp`);
    await writeFile(temp, `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
    await rename(temp, path.join(dir, MANIFEST_FILE));
    return manifest;
  } catch (error) {
    await Promise.allSettled([...files.values()].map((file) => file.close()));
    throw new Error(`export to ${dir} failed, and the directory holds no finished export (no ${MANIFEST_FILE}): ${(error as Error).message}`, {
      cause: error,
    });
  }
}
