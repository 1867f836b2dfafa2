// `relata import <dir>`: a relata-export/1 directory (exportDir.ts) loaded into an empty store of
// any backend. An export is untrusted input, checked as a folder's files are (docs/SECURITY.md):
// only regular files are read from it, never through a link, with size caps (exportFiles.ts,
// limits.ts). Everything that can be checked is checked before anything is loaded: the manifest's
// format (a newer major is refused), every records file against the sha-256 the manifest gives
// it, every record against the schema (records.ts: paths inside the folder, statuses, ranges,
// finite vectors) and the items, passages, models and relationships it refers to, and every blob
// against its name. Only then are the blobs put back and the records streamed into the store, so
// a damaged or edited export never leaves a half-loaded store behind. What is loaded is what was
// checked: each blob is read once into memory and hashed before it is stored, and each records
// file is hashed again as it is loaded, a change failing the load (which the store rolls back).

import path from 'node:path';
import type { BlobStore } from '../blobs.ts';
import type { WorkspaceStore } from '../contract.ts';
import { BLOB_DIR, MANIFEST_FILE } from './exportDir.ts';
import { ExportDirectoryError, exportLines, hashesAsExpected, readExportFile, requireDirectory } from './exportFiles.ts';
import { MAX_BLOB_BYTES, MAX_MANIFEST_BYTES, maxLineBytes } from './limits.ts';
import { decodeVector } from './vectorText.ts';
import {
  checkRecord,
  describeId,
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

export { ExportDirectoryError } from './exportFiles.ts';

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
  // itself empty (contract.ts): a refused import puts nothing anywhere. Each is read once, and the
  // bytes hashed are the bytes stored: a blob changed since the check is refused, not stored.
  const putBlobs = async () => {
    for (const [index, blob] of blobRecords.entries()) {
      const file = path.join(dir, BLOB_DIR, blob.hash);
      const { bytes, sha256 } = await readExportFile(file, { expectedSize: blob.size, source: 'its record', cap: MAX_BLOB_BYTES });
      if (sha256 !== blob.hash) throw blobChanged(file);
      await blobs.put(blob.hash, bytes);
      if ((index + 1) % 1_000 === 0) progress(`original files stored: ${index + 1} of ${blobRecords.length}`);
    }
  };
  const position = { file: '', line: 0 };
  try {
    const counts = await store.importRecords(readRecords(dir, manifest, position, progress, options.folderRoot, putBlobs));
    return { manifest, counts, blobs: blobRecords.length };
  } catch (error) {
    if (error instanceof ImportTargetNotEmptyError || error instanceof ExportDirectoryError || position.line === 0) throw error;
    throw new Error(`import stopped at ${path.join(dir, position.file)} line ${position.line}: ${(error as Error).message}`, { cause: error });
  }
}

function blobChanged(file: string): ExportDirectoryError {
  return new ExportDirectoryError(`${file} has changed since it was exported (its bytes no longer hash to its name): nothing was imported`);
}

export async function readManifest(dir: string): Promise<ExportManifest> {
  const file = path.join(dir, MANIFEST_FILE);
  const { bytes } = await readExportFile(file, { cap: MAX_MANIFEST_BYTES, missing: 'missing: this is not a Relata export, or its export did not finish' });
  let manifest: Partial<ExportManifest>;
  try {
    manifest = JSON.parse(bytes.toString('utf8')) as Partial<ExportManifest>;
  } catch {
    // JSON.parse's message quotes the text it choked on: a manifest linked to a secret would be printed.
    throw new ExportDirectoryError(`${file} is not valid JSON: it is not a Relata export's manifest, or it was damaged`);
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) throw new ExportDirectoryError(`${file} is not a Relata export's manifest (not a JSON object)`);
  const major = formatMajor(manifest.format);
  if (major === null) throw new ExportDirectoryError(`${file}: its format is not a Relata export format (${FORMAT_VERSION})`);
  if (major > FORMAT_MAJOR) {
    throw new ExportDirectoryError(`${file}: written by a newer Relata (format ${manifest.format}); this version reads ${FORMAT_VERSION}: upgrade Relata to import it`);
  }
  if (typeof manifest.files !== 'object' || manifest.files === null || typeof manifest.counts !== 'object' || manifest.counts === null) {
    throw new ExportDirectoryError(`${file} lacks its files or counts`);
  }
  return { ...manifest, missingBlobs: manifest.missingBlobs ?? [] } as ExportManifest;
}

/** The manifest's word on a records file: its sha-256 and size, and how many records it holds. */
function listed(dir: string, manifest: ExportManifest, kind: ExchangeKind | 'blob'): { sha256: string; bytes: number } {
  const name = RECORD_FILES[kind];
  const entry = Object.hasOwn(manifest.files, name) ? manifest.files[name] : undefined;
  const count = Object.hasOwn(manifest.counts, kind) ? manifest.counts[kind] : undefined;
  if (!entry || typeof entry.sha256 !== 'string' || !Number.isSafeInteger(entry.bytes) || entry.bytes < 0 || !Number.isSafeInteger(count) || count! < 0) {
    throw new ExportDirectoryError(`${path.join(dir, MANIFEST_FILE)} lists no ${name}, or not its sha-256, size and count`);
  }
  return entry;
}

/** Every records file hashes to what the manifest says: nothing was edited, cut short or swapped. */
async function verifyFiles(dir: string, manifest: ExportManifest): Promise<void> {
  for (const kind of [...EXCHANGE_KINDS, 'blob' as const]) {
    const file = path.join(dir, RECORD_FILES[kind]);
    if (!(await hashesAsExpected(file, listed(dir, manifest, kind)))) {
      throw new ExportDirectoryError(`${file} has changed since it was exported (its sha-256 is not the manifest's): nothing was imported`);
    }
  }
  if (manifest.counts.blob > 0) await requireDirectory(path.join(dir, BLOB_DIR));
}

/**
 * The file's records in order, each checked against the schema; `position` says where the last
 * one came from. The file is hashed as it is read, and fails at its end if it is not the
 * manifest's: every record handed out was part of the file that was checked.
 */
async function* fileRecords<K extends ExchangeKind | 'blob'>(
  dir: string,
  manifest: ExportManifest,
  kind: K,
  position: { file: string; line: number } = { file: '', line: 0 },
): AsyncGenerator<Extract<ExchangeRecord | BlobRecord, { record: K }>> {
  const name = RECORD_FILES[kind];
  const file = path.join(dir, name);
  for await (const { text, line } of exportLines(file, listed(dir, manifest, kind), maxLineBytes(kind))) {
    position.file = name;
    position.line = line;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON.parse's message: it quotes the line.
      throw new ExportDirectoryError(`${file} line ${line}: not valid JSON`);
    }
    let record;
    try {
      record = checkRecord(parsed, kind);
    } catch (error) {
      throw new ExportDirectoryError(`${file} line ${line}: ${(error as Error).message}`);
    }
    yield record;
  }
}

/**
 * Reads every record once before anything is loaded: each well-formed, the counts the manifest's,
 * each reference to an item, passage, model or relationship to one the export holds (a passage of
 * the same item), each vector of its model's dimensions, each blob's bytes hashing to its name.
 * Returns the blob records.
 */
async function checkContents(dir: string, manifest: ExportManifest): Promise<BlobRecord[]> {
  const items = new Set<string>();
  const duplicates: { line: number; of: string }[] = [];
  const models = new Map<string, number>();
  const chunks = new Map<string, string>();
  const relationships = new Set<string>();
  const where = (kind: ExchangeKind | 'blob', line: number) => `${path.join(dir, RECORD_FILES[kind])} line ${line}`;
  const refer = (set: { has(id: string): boolean }, id: string | null, what: string, kind: ExchangeKind, line: number) => {
    if (id !== null && !set.has(id)) throw new ExportDirectoryError(`${where(kind, line)}: refers to ${what} ${describeId(id)}, which the export does not hold`);
  };
  const inChunk = (record: { itemId: string; chunkId: string }, kind: ExchangeKind, line: number) => {
    refer(chunks, record.chunkId, 'passage', kind, line);
    if (chunks.get(record.chunkId) !== record.itemId) {
      throw new ExportDirectoryError(`${where(kind, line)}: passage ${describeId(record.chunkId)} belongs to another item than ${describeId(record.itemId)}`);
    }
  };
  for (const kind of EXCHANGE_KINDS) {
    let line = 0;
    for await (const record of fileRecords(dir, manifest, kind)) {
      line += 1;
      switch (record.record) {
        case 'embedding_model':
          models.set(record.id, record.dims);
          break;
        case 'item':
          items.add(record.id);
          if (record.duplicateOf !== null) duplicates.push({ line, of: record.duplicateOf });
          break;
        case 'chunk':
          refer(items, record.itemId, 'item', kind, line);
          chunks.set(record.id, record.itemId);
          break;
        case 'relationship':
          refer(items, record.fromItemId, 'item', kind, line);
          refer(items, record.toItemId, 'item', kind, line);
          relationships.add(record.id);
          break;
        case 'relationship_event':
          refer(relationships, record.relationshipId, 'relationship', kind, line);
          break;
        case 'vector': {
          refer(models, record.modelId, 'embedding model', kind, line);
          refer(items, record.itemId, 'item', kind, line);
          inChunk(record, kind, line);
          const values = decodeVector(record.vector).length;
          const dims = models.get(record.modelId)!;
          if (values !== dims) throw new ExportDirectoryError(`${where(kind, line)}: a vector of ${values} values, the model ${describeId(record.modelId)} has ${dims} dimensions`);
          break;
        }
        case 'entity':
        case 'claim':
          refer(items, record.itemId, 'item', kind, line);
          inChunk(record, kind, line);
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
  for (const { line, of } of duplicates) refer(items, of, 'item', 'item', line);

  const blobs: BlobRecord[] = [];
  for await (const blob of fileRecords(dir, manifest, 'blob')) {
    const file = path.join(dir, BLOB_DIR, blob.hash);
    if (!(await hashesAsExpected(file, { sha256: blob.hash, bytes: blob.size }, 'its record'))) throw blobChanged(file);
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
  manifest: ExportManifest,
  position: { file: string; line: number },
  progress: (message: string) => void,
  folderRoot: string | undefined,
  beforeFirst: () => Promise<void>,
): AsyncGenerator<ExchangeRecord> {
  await beforeFirst();
  for (const kind of EXCHANGE_KINDS) {
    let count = 0;
    for await (const record of fileRecords(dir, manifest, kind, position)) {
      const moved = folderRoot !== undefined && record.record === 'meta' && record.key === FOLDER_ROOT_KEY && record.value !== folderRoot;
      yield moved ? { ...record, value: folderRoot } : (record as ExchangeRecord);
      count += 1;
    }
    if (count > 0) progress(`imported ${count} ${RECORD_FILES[kind].replace('.jsonl', '').replace(/_/g, ' ')}`);
  }
}
