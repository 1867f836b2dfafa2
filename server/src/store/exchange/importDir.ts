// `relata import <dir>`: a relata-export/1 directory (exportDir.ts) loaded into an empty store of
// any backend. Everything that can be checked is checked before anything is loaded: the manifest's
// format (a newer major is refused), every records file against the sha-256 the manifest gives
// it, every record's shape and the items, models and relationships it refers to, and every blob
// against its name. Only then are the blobs put back and the records streamed into the store, so
// a damaged or edited export never leaves a half-loaded store behind.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BlobStore } from '../blobs.ts';
import type { WorkspaceStore } from '../contract.ts';
import { BLOB_DIR, MANIFEST_FILE } from './exportDir.ts';
import {
  checkRecord,
  EXCHANGE_KINDS,
  FORMAT_MAJOR,
  FOLDER_ROOT_KEY,
  FORMAT_VERSION,
  formatMajor,
  ImportTargetNotEmptyError,
  RECORD_FILES,
  type BlobRecord,
  type ExchangeKind,
  type ExchangeRecord,
  type ExportManifest,
  type ImportCounts,
} from './records.ts';

export interface ImportOptions {
  dir: string;
  store: WorkspaceStore;
  blobs: BlobStore;
  /** Where the store is, for messages (describeLocation: never a password). */
  where: string;
  /**
   * The folder the store is for, when it is not where the export was made (a restore on another
   * machine): the one record an import changes, the workspace's `folder_root`.
   */
  folderRoot?: string;
  progress?: (message: string) => void;
}

export interface ImportReport {
  manifest: ExportManifest;
  counts: ImportCounts;
  blobs: number;
}

/** An export that cannot be loaded as it is: the message names the file (and line) and the reason. */
export class ExportDirectoryError extends Error {
  override readonly name = 'ExportDirectoryError';
}

export async function importFromDirectory(options: ImportOptions): Promise<ImportReport> {
  const { dir, store, blobs } = options;
  const progress = options.progress ?? (() => undefined);
  const manifest = await readManifest(dir);
  await verifyFiles(dir, manifest);
  progress('records files match the manifest; checking every record and original file');
  const blobRecords = await checkContents(dir, manifest);
  progress(`${EXCHANGE_KINDS.reduce((sum, kind) => sum + manifest.counts[kind], 0)} records and ${blobRecords.length} original files checked`);
  if (manifest.missingBlobs.length > 0) {
    progress(`the export says ${manifest.missingBlobs.length} original file(s) were missing from the store it came from; their items import without their bytes`);
  }

  // The blobs go in when the store takes its first record, which it does only once it has found
  // itself empty (contract.ts): a refused import puts nothing anywhere.
  const putBlobs = async () => {
    for (const [index, blob] of blobRecords.entries()) {
      await blobs.put(blob.hash, await readFile(path.join(dir, BLOB_DIR, blob.hash)));
      if ((index + 1) % 1_000 === 0) progress(`original files stored: ${index + 1} of ${blobRecords.length}`);
    }
  };
  const position = { file: '', line: 0 };
  try {
    const counts = await store.importRecords(readRecords(dir, position, progress, options.folderRoot, putBlobs));
    return { manifest, counts, blobs: blobRecords.length };
  } catch (error) {
    if (error instanceof ImportTargetNotEmptyError || position.line === 0) throw error;
    throw new Error(`import stopped at ${path.join(dir, position.file)} line ${position.line}: ${(error as Error).message}`, { cause: error });
  }
}

export async function readManifest(dir: string): Promise<ExportManifest> {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ExportDirectoryError(
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `${dir} holds no ${MANIFEST_FILE}: it is not a Relata export, or its export did not finish`
        : `${file}: ${(error as Error).message}`,
    );
  }
  let manifest: Partial<ExportManifest>;
  try {
    manifest = JSON.parse(text) as Partial<ExportManifest>;
  } catch (error) {
    throw new ExportDirectoryError(`${file} is not valid JSON (${(error as Error).message})`);
  }
  const major = formatMajor(manifest.format);
  if (major === null) throw new ExportDirectoryError(`${file}: format ${JSON.stringify(manifest.format)} is not a Relata export format (${FORMAT_VERSION})`);
  if (major > FORMAT_MAJOR) {
    throw new ExportDirectoryError(`${file}: written by a newer Relata (format ${manifest.format}); this version reads ${FORMAT_VERSION}: upgrade Relata to import it`);
  }
  if (typeof manifest.files !== 'object' || manifest.files === null || typeof manifest.counts !== 'object' || manifest.counts === null) {
    throw new ExportDirectoryError(`${file} lacks its files or counts`);
  }
  return { ...manifest, missingBlobs: manifest.missingBlobs ?? [] } as ExportManifest;
}

/** Every records file hashes to what the manifest says: nothing was edited, cut short or swapped. */
async function verifyFiles(dir: string, manifest: ExportManifest): Promise<void> {
  for (const kind of [...EXCHANGE_KINDS, 'blob' as const]) {
    const name = RECORD_FILES[kind];
    const expected = manifest.files[name];
    if (!expected) throw new ExportDirectoryError(`${path.join(dir, MANIFEST_FILE)} lists no ${name}`);
    const digest = createHash('sha256');
    let bytes = 0;
    try {
      for await (const chunk of createReadStream(path.join(dir, name))) {
        digest.update(chunk as Buffer);
        bytes += (chunk as Buffer).length;
      }
    } catch (error) {
      throw new ExportDirectoryError(`${path.join(dir, name)}: ${(error as Error).message}`);
    }
    if (digest.digest('hex') !== expected.sha256 || bytes !== expected.bytes) {
      throw new ExportDirectoryError(`${path.join(dir, name)} has changed since it was exported (its sha-256 is not the manifest's): nothing was imported`);
    }
  }
}

/** The file's records in order, each checked; `position` says where the last one came from. */
async function* fileRecords<K extends ExchangeKind | 'blob'>(
  dir: string,
  kind: K,
  position: { file: string; line: number } = { file: '', line: 0 },
): AsyncGenerator<Extract<ExchangeRecord | BlobRecord, { record: K }>> {
  const name = RECORD_FILES[kind];
  const lines = createInterface({ input: createReadStream(path.join(dir, name)), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    position.file = name;
    position.line = line;
    let record;
    try {
      record = checkRecord(JSON.parse(text), kind);
    } catch (error) {
      throw new ExportDirectoryError(`${path.join(dir, name)} line ${line}: ${(error as Error).message}`);
    }
    yield record;
  }
}

/**
 * Reads every record once before anything is loaded: each well-formed, the counts the manifest's,
 * each reference to an item, model or relationship to one the export holds, each blob's bytes
 * hashing to its name. Returns the blob records.
 */
async function checkContents(dir: string, manifest: ExportManifest): Promise<BlobRecord[]> {
  const items = new Set<string>();
  const models = new Set<string>();
  const relationships = new Set<string>();
  const where = (kind: ExchangeKind | 'blob', line: number) => `${path.join(dir, RECORD_FILES[kind])} line ${line}`;
  const refer = (set: Set<string>, id: string | null, what: string, kind: ExchangeKind, line: number) => {
    if (id !== null && !set.has(id)) throw new ExportDirectoryError(`${where(kind, line)}: refers to ${what} ${id}, which the export does not hold`);
  };
  for (const kind of EXCHANGE_KINDS) {
    let line = 0;
    for await (const record of fileRecords(dir, kind)) {
      line += 1;
      switch (record.record) {
        case 'embedding_model':
          models.add(record.id);
          break;
        case 'item':
          items.add(record.id);
          break;
        case 'relationship':
          refer(items, record.fromItemId, 'item', kind, line);
          refer(items, record.toItemId, 'item', kind, line);
          relationships.add(record.id);
          break;
        case 'relationship_event':
          refer(relationships, record.relationshipId, 'relationship', kind, line);
          break;
        case 'vector':
          refer(models, record.modelId, 'embedding model', kind, line);
          refer(items, record.itemId, 'item', kind, line);
          break;
        case 'meta':
        case 'alias':
          break;
        default:
          refer(items, record.itemId, 'item', kind, line);
      }
    }
    if (line !== manifest.counts[kind]) {
      throw new ExportDirectoryError(`${path.join(dir, RECORD_FILES[kind])} holds ${line} records, the manifest says ${manifest.counts[kind]}`);
    }
  }
  // Duplicates refer to their original, which may come later in the file: checked once all are known.
  let line = 0;
  for await (const item of fileRecords(dir, 'item')) {
    line += 1;
    refer(items, item.duplicateOf, 'item', 'item', line);
  }

  const blobs: BlobRecord[] = [];
  for await (const blob of fileRecords(dir, 'blob')) {
    const file = path.join(dir, BLOB_DIR, blob.hash);
    const digest = createHash('sha256');
    let size = 0;
    try {
      for await (const chunk of createReadStream(file)) {
        digest.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
    } catch (error) {
      throw new ExportDirectoryError(`${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : (error as Error).message}`);
    }
    if (digest.digest('hex') !== blob.hash || size !== blob.size) {
      throw new ExportDirectoryError(`${file} has changed since it was exported (its bytes no longer hash to its name): nothing was imported`);
    }
    blobs.push(blob);
  }
  if (blobs.length !== manifest.counts.blob) {
    throw new ExportDirectoryError(`${path.join(dir, RECORD_FILES.blob)} holds ${blobs.length} records, the manifest says ${manifest.counts.blob}`);
  }
  return blobs;
}

/** Every file's records in the format's kind order, for the store to load. */
async function* readRecords(
  dir: string,
  position: { file: string; line: number },
  progress: (message: string) => void,
  folderRoot: string | undefined,
  beforeFirst: () => Promise<void>,
): AsyncGenerator<ExchangeRecord> {
  await beforeFirst();
  for (const kind of EXCHANGE_KINDS) {
    let count = 0;
    for await (const record of fileRecords(dir, kind, position)) {
      const moved = folderRoot !== undefined && record.record === 'meta' && record.key === FOLDER_ROOT_KEY && record.value !== folderRoot;
      yield moved ? { ...record, value: folderRoot } : (record as ExchangeRecord);
      count += 1;
    }
    if (count > 0) progress(`imported ${count} ${RECORD_FILES[kind].replace('.jsonl', '').replace(/_/g, ' ')}`);
  }
}
