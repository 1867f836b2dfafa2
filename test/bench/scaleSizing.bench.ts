// npm run bench:scale — sizing figures for the MongoDB + Qdrant store, derived from real documents
// rather than guessed: a real folder (the English Open Source Guides of ../shared/eval and
// docs/demo) is indexed into a temporary SQLite store by the real pipeline with the real default
// model (USE-lite, 512 dimensions); every record is read back through the contract's
// exportRecords, turned into the documents and points the MongoDB + Qdrant backend would write,
// by the backend's own mapping functions, and measured: BSON.calculateObjectSize for each MongoDB
// document, vector bytes plus the payload's JSON for each Qdrant point. No server is opened.
//
// What this does not measure: index sizes, WiredTiger's compression, Qdrant's own structures
// (printed as formulas with their sources). Prints figures; asserts nothing.
//
//   RELATA_BENCH_MAX_FILES=n   index at most n of the guides (all by default; docs/demo always)

import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { BSON } from 'mongodb';
import { DEFAULT_EMBEDDING } from '../../server/src/embed/choice.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import type { ItemVersionRecord } from '../../server/src/store/contract.ts';
import { folderKey } from '../../server/src/store/dataDir.ts';
import type { ExchangeRecord } from '../../server/src/store/exchange/records.ts';
import { decodeVector } from '../../server/src/store/exchange/vectorText.ts';
import { openStoreWithBlobs } from '../../server/src/store/index.ts';
import { aliasFields, ALIASES_COLLECTION } from '../../server/src/store/mongoQdrant/aliases.ts';
import { COLLECTIONS } from '../../server/src/store/mongoQdrant/collections.ts';
import {
  chunkDocument,
  claimDocument,
  entityDocument,
  itemDocument,
  parsedTextStreams,
  phraseDocument,
  splitText,
} from '../../server/src/store/mongoQdrant/documents.ts';
import { BLOB_BUCKET } from '../../server/src/store/mongoQdrant/gridFsBlobs.ts';
import { JOBS_COLLECTION, newJob } from '../../server/src/store/mongoQdrant/jobQueue.ts';
import { eventOf, relationshipFields, RELATIONSHIP_EVENTS_COLLECTION, RELATIONSHIPS_COLLECTION } from '../../server/src/store/mongoQdrant/relationships.ts';
import type { Scope } from '../../server/src/store/mongoQdrant/scope.ts';
import {
  EMBEDDING_MODELS_COLLECTION,
  VECTOR_COVERAGE_COLLECTION,
  vectorPoint,
  windowsByChunk,
} from '../../server/src/store/mongoQdrant/vectorPoints.ts';
import { pairKey } from '../../server/src/store/relationshipRules.ts';
import { DATABASE_FILE } from '../../server/src/store/sqlite/sqliteStore.ts';
import { EVAL_ROOT, REPO_ROOT } from '../support/tempFolder.ts';

/** GridFS's default chunk size (the driver's GridFSBucket, which gridFsBlobs.ts uses unchanged). */
const GRIDFS_CHUNK_BYTES = 255 * 1024;
/** Qdrant's default HNSW `m` (qdrant/qdrant config/config.yaml, storage.hnsw_index.m). */
const QDRANT_HNSW_M = 16;
/** Bytes per link: a link is a PointOffsetType, a u32 (qdrant lib/segment, hnsw_index/graph_layers.rs). */
const QDRANT_LINK_BYTES = 4;

const maxFiles = Number(process.env.RELATA_BENCH_MAX_FILES) || Infinity;
const WORKSPACE = 'bench';

// The corpus --------------------------------------------------------------------------------

const root = mkdtempSync(path.join(tmpdir(), 'relata-bench-scale-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
const folder = path.join(root, 'corpus');
const dataDir = path.join(root, 'data');
const guides = path.join(EVAL_ROOT, 'knowledge-bases', 'opensource-guide-en');
mkdirSync(folder);
let corpusNote: string;
if (existsSync(guides)) {
  const chosen = readdirSync(guides).filter((name) => name.endsWith('.md')).sort().slice(0, maxFiles);
  mkdirSync(path.join(folder, 'opensource-guide-en'));
  for (const name of chosen) cpSync(path.join(guides, name), path.join(folder, 'opensource-guide-en', name));
  corpusNote = `${chosen.length} Open Source Guides (English Markdown, ${path.relative(REPO_ROOT, guides)}) + docs/demo`;
} else {
  corpusNote = `docs/demo only: ${guides} is missing`;
}
cpSync(path.join(REPO_ROOT, 'docs', 'demo'), path.join(folder, 'demo'), { recursive: true });

const filesOf = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
const corpusFiles = filesOf(folder);
const corpusBytes = corpusFiles.reduce((sum, file) => sum + statSync(file).size, 0);

// Index with the real pipeline and the real default model ---------------------------------------

const started = performance.now();
const index = await FolderIndex.open({ folder, dataDir, workspace: WORKSPACE, embedding: DEFAULT_EMBEDDING });
try {
  await index.index();
} finally {
  await index.close();
}
const indexSeconds = (performance.now() - started) / 1000;

// Read every record back through the contract -----------------------------------------------------

const { store, blobs } = openStoreWithBlobs({ dataDir, workspace: WORKSPACE, access: 'read' });
const records: ExchangeRecord[] = [];
for await (const record of store.exportRecords()) records.push(record);
const jobs = await store.listJobs();
const blobBytes = new Map<string, Uint8Array>();
for (const record of records) {
  if ((record.record === 'item' || record.record === 'item_version') && record.contentHash && !blobBytes.has(record.contentHash)) {
    blobBytes.set(record.contentHash, await blobs.get(record.contentHash));
  }
}
await store.close();

// Map each record to what the MongoDB + Qdrant backend writes, and measure it -----------------------

/** The scope every document and point carries; its two strings' lengths count in every size below. */
const scope: Scope = { workspace: WORKSPACE, folder: folderKey(folder) };
/** BSON sizes of the documents of each collection. */
const bsonSizes = new Map<string, number[]>();
/** The document as MongoDB stores it: the scope added by the collection, and the `_id` the driver or server adds on insert. */
function measure(collection: string, fields: object, scoped = true): number {
  const document = { _id: new BSON.ObjectId(), ...fields, ...(scoped ? scope : {}) };
  const size = BSON.calculateObjectSize(document);
  const sizes = bsonSizes.get(collection) ?? [];
  sizes.push(size);
  bsonSizes.set(collection, sizes);
  return size;
}
function groupBy<T>(values: readonly T[], key: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const group = groups.get(key(value)) ?? [];
    group.push(value);
    groups.set(key(value), group);
  }
  return groups;
}
const byKind = <K extends ExchangeRecord['record']>(kind: K) => records.filter((record): record is Extract<ExchangeRecord, { record: K }> => record.record === kind);

const items = byKind('item');
const versionsOf = new Map<string, ItemVersionRecord[]>();
for (const { record: _kind, itemId, ...version } of byKind('item_version')) versionsOf.set(itemId, [...(versionsOf.get(itemId) ?? []), version]);
const itemOf = new Map(items.map((item) => [item.id, item]));
const chunks = byKind('chunk');
const chunkedItems = new Set(chunks.map((chunk) => chunk.itemId));

for (const { record: _kind, ...entry } of byKind('meta')) measure(COLLECTIONS.meta, entry);
for (const { record: _kind, ...model } of byKind('embedding_model')) measure(EMBEDDING_MODELS_COLLECTION, model);
for (const { record: _kind, ...item } of items) measure(COLLECTIONS.items, itemDocument(item, versionsOf.get(item.id) ?? []));

// A parse result: one header naming the current write, and each stream's parts (parsedTexts.ts write).
const parseResultBytes: number[] = [];
for (const parsed of byKind('parsed_text')) {
  const writeId = randomUUID();
  const streams = parsedTextStreams(parsed.document as Parameters<typeof parsedTextStreams>[0], typeof parsed.document.text === 'string');
  let bytes = 0;
  const parts = {} as Record<keyof typeof streams, number>;
  for (const stream of Object.keys(streams) as (keyof typeof streams)[]) {
    const pieces = splitText(streams[stream]);
    parts[stream] = pieces.length;
    pieces.forEach((text, n) => (bytes += measure(COLLECTIONS.parsedTextParts, { itemId: parsed.itemId, writeId, stream, n, text })));
  }
  bytes += measure(COLLECTIONS.parsedTexts, { itemId: parsed.itemId, contentHash: parsed.contentHash, parserVersion: parsed.parserVersion, writeId, parts });
  parseResultBytes.push(bytes);
  // The item's lexical entry (title and the start of its text), as the import and an indexing write it.
  const item = itemOf.get(parsed.itemId);
  if (item && item.deletedAt === null && (item.status === 'indexed' || chunkedItems.has(item.id))) {
    measure(COLLECTIONS.itemLexical, { itemId: item.id, title: item.title ?? '', text: streams.indexText });
  }
}

for (const { record: _kind, ...chunk } of chunks) measure(COLLECTIONS.chunks, chunkDocument(chunk, itemOf.get(chunk.itemId)?.contentHash ?? ''));

// Vectors: a coverage document per chunk in MongoDB (as storeVectors writes it), a point per window in Qdrant.
const vectors = byKind('vector');
const payloadBytes: number[] = [];
const vectorBytes: number[] = [];
for (const [modelId, ofModel] of groupBy(vectors, (vector) => vector.modelId)) {
  const entries = ofModel.map((vector) => ({ ...vector, vector: decodeVector(vector.vector) }));
  const itemOfChunk = new Map(entries.map((entry) => [entry.chunkId, entry]));
  for (const [chunkId, windows] of windowsByChunk(entries)) {
    const first = itemOfChunk.get(chunkId)!;
    measure(VECTOR_COVERAGE_COLLECTION, { chunkId, itemId: first.itemId, modelId, dims: first.vector.length, windows, createdAt: first.createdAt, writeId: randomUUID() });
  }
  for (const entry of entries) {
    const point = vectorPoint(scope, { id: modelId }, entry.itemId, entry);
    payloadBytes.push(Buffer.byteLength(JSON.stringify(point.payload)));
    vectorBytes.push((point.vector as number[]).length * 4);
  }
}

for (const { record: _kind, itemId, ...entity } of byKind('entity')) measure(COLLECTIONS.entities, entityDocument(itemId, entity));
for (const { record: _kind, itemId, ...claim } of byKind('claim')) measure(COLLECTIONS.claims, claimDocument(itemId, claim));
for (const phrase of byKind('phrase')) measure(COLLECTIONS.itemPhrases, phraseDocument(phrase.itemId, phrase));
// storeExtraction's own write (extraction.ts): `capped` is always set, null when no cap applied.
for (const done of byKind('extraction')) measure(COLLECTIONS.itemExtractions, { itemId: done.itemId, contentHash: done.contentHash, versions: done.versions, capped: done.capped ?? null });
for (const seen of byKind('discovery')) measure(COLLECTIONS.itemDiscoveries, { itemId: seen.itemId, contentHash: seen.contentHash, basis: seen.basis, discoveredAt: seen.discoveredAt });

// Relationships as the store's own writes leave them: revision n after n writes, each write one history entry.
const events = byKind('relationship_event');
const eventsOf = groupBy(events, (event) => event.relationshipId);
for (const { record: _kind, ...relationship } of byKind('relationship')) {
  const history = eventsOf.get(relationship.id) ?? [];
  measure(RELATIONSHIPS_COLLECTION, { ...relationshipFields(relationship), pairKey: pairKey(relationship.fromItemId, relationship.toItemId), revision: Math.max(1, history.length), pendingEvent: null });
  history.forEach((event, place) =>
    measure(RELATIONSHIP_EVENTS_COLLECTION, eventOf(relationship.id, place + 1, event.kind, event.actor, event, event.note, event.at)),
  );
}
for (const { record: _kind, ...alias } of byKind('alias')) measure(ALIASES_COLLECTION, aliasFields(alias));

// The job queue keeps done jobs (jobQueue.ts complete), so they stay on the server: the store's real jobs, as documents.
const now = new Date().toISOString();
for (const job of jobs) {
  const { id, stage, subject, ...state } = job;
  measure(JOBS_COLLECTION, { ...newJob(id, stage, subject, now), ...state });
}

// Original bytes in GridFS: one files document and a chunk document per 255 KiB (the driver's upload.js), store-wide (no scope).
const originalBytes: number[] = [];
for (const [hash, bytes] of blobBytes) {
  originalBytes.push(bytes.length);
  const filesId = new BSON.ObjectId();
  measure(`${BLOB_BUCKET}.files`, { length: bytes.length, chunkSize: GRIDFS_CHUNK_BYTES, uploadDate: new Date(), filename: hash }, false);
  for (let start = 0; start < bytes.length; start += GRIDFS_CHUNK_BYTES) {
    const data = new BSON.Binary(bytes.subarray(start, start + GRIDFS_CHUNK_BYTES));
    measure(`${BLOB_BUCKET}.chunks`, { files_id: filesId, n: start / GRIDFS_CHUNK_BYTES, data }, false);
  }
}

// The SQLite store of the same corpus, for comparison -----------------------------------------------

const sizeOf = (files: string[]) => files.reduce((sum, file) => sum + statSync(file).size, 0);
const dataFiles = filesOf(dataDir);
const blobsDir = path.join(dataDir, 'blobs');
const sqliteBlobBytes = sizeOf(dataFiles.filter((file) => file.startsWith(blobsDir + path.sep)));
const sqliteDatabaseBytes = sizeOf(dataFiles.filter((file) => path.basename(file).startsWith(DATABASE_FILE)));
const sqliteOtherBytes = sizeOf(dataFiles) - sqliteBlobBytes - sqliteDatabaseBytes;

// The table ---------------------------------------------------------------------------------

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const average = (values: readonly number[]) => (values.length === 0 ? 0 : sum(values) / values.length);
/** Nearest-rank percentile. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const n = (value: number) => Math.round(value).toLocaleString('en-US');
const kib = (bytes: number) => `${(bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} KiB`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toLocaleString('en-US', { maximumFractionDigits: 2 })} MiB`;
const sizes = (collection: string) => bsonSizes.get(collection) ?? [];

const liveItems = items.filter((item) => item.deletedAt === null);
const indexedItems = liveItems.filter((item) => item.status === 'indexed');
const chunkCount = chunks.length;
const per1000Chunks = (bytes: number) => (chunkCount === 0 ? 0 : (bytes / chunkCount) * 1000);
const dims = vectorBytes.length > 0 ? vectorBytes[0]! / 4 : 0;
const cpu = /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';

console.log(`Relata sizing for MongoDB + Qdrant, ${new Date().toISOString().slice(0, 10)}`);
console.log(`machine: ${cpu}, ${cpus().length} cores, Node ${process.version}`);
console.log(`corpus: ${corpusNote}: ${corpusFiles.length} files, ${kib(corpusBytes)}; indexed in ${indexSeconds.toFixed(1)} s with ${DEFAULT_EMBEDDING.kind} (${dims} dims)`);
console.log(`scope on every document and point: workspace "${scope.workspace}" (${scope.workspace.length} chars), folder key "${scope.folder}" (${scope.folder.length} chars)`);
console.log('');
console.log('records');
const counts: [string, number][] = [
  ['items (all statuses)', items.length],
  ['  live and indexed', indexedItems.length],
  ['chunks', chunkCount],
  ['  per live indexed item', Number((chunkCount / Math.max(1, indexedItems.length)).toFixed(1))],
  ['windows (vectors)', vectors.length],
  ['entities', byKind('entity').length],
  ['claims', byKind('claim').length],
  ['phrases', byKind('phrase').length],
  ['relationships', byKind('relationship').length],
  ['relationship events', events.length],
  ['entity aliases', byKind('alias').length],
  ['jobs (kept after done)', jobs.length],
];
for (const [label, count] of counts) console.log(`  ${label.padEnd(26)} ${count.toLocaleString('en-US').padStart(8)}`);

console.log('');
console.log('MongoDB documents, BSON bytes (with scope and _id; before compression and indexes)');
console.log(`  ${'document'.padEnd(40)} ${'count'.padStart(7)} ${'average'.padStart(9)} ${'p95'.padStart(9)} ${'total'.padStart(12)} ${'per 1k chunks'.padStart(14)}`);
const row = (label: string, values: readonly number[]) =>
  console.log(
    `  ${label.padEnd(40)} ${n(values.length).padStart(7)} ${n(average(values)).padStart(9)} ${n(percentile(values, 95)).padStart(9)} ` +
      `${n(sum(values)).padStart(12)} ${kib(per1000Chunks(sum(values))).padStart(14)}`,
  );
row('item (items, versions inside)', sizes(COLLECTIONS.items));
row('chunk (chunks, incl. its text)', sizes(COLLECTIONS.chunks));
row('parse result (header + parts, per item)', parseResultBytes);
row('  of which parts (parsed_text_parts)', sizes(COLLECTIONS.parsedTextParts));
row('item lexical entry (item_lexical)', sizes(COLLECTIONS.itemLexical));
row('vector coverage (per chunk)', sizes(VECTOR_COVERAGE_COLLECTION));
row('entity', sizes(COLLECTIONS.entities));
row('claim', sizes(COLLECTIONS.claims));
row('entity or claim', [...sizes(COLLECTIONS.entities), ...sizes(COLLECTIONS.claims)]);
row('phrase (item_phrases)', sizes(COLLECTIONS.itemPhrases));
row('extraction record (item_extractions)', sizes(COLLECTIONS.itemExtractions));
row('discovery record (item_discoveries)', sizes(COLLECTIONS.itemDiscoveries));
row('relationship (signals inside)', sizes(RELATIONSHIPS_COLLECTION));
row('relationship event', sizes(RELATIONSHIP_EVENTS_COLLECTION));
row('entity alias', sizes(ALIASES_COLLECTION));
row('meta + embedding model', [...sizes(COLLECTIONS.meta), ...sizes(EMBEDDING_MODELS_COLLECTION)]);
row('job (done jobs are kept)', sizes(JOBS_COLLECTION));

const gridFsCollections = [`${BLOB_BUCKET}.files`, `${BLOB_BUCKET}.chunks`];
const knowledgeBytes = sum([...bsonSizes].filter(([name]) => name !== JOBS_COLLECTION && !gridFsCollections.includes(name)).flatMap(([, values]) => values));
const jobBytes = sum(sizes(JOBS_COLLECTION));
const gridFsBytes = sum(gridFsCollections.flatMap(sizes));
const pointBytes = vectorBytes.map((bytes, index) => bytes + payloadBytes[index]!);

console.log('');
console.log('Qdrant points (one per window)');
console.log(`  vector: ${dims} × 4 = ${n(dims * 4)} bytes; payload JSON: average ${n(average(payloadBytes))}, p95 ${n(percentile(payloadBytes, 95))} bytes`);
console.log(`  per point (vector + payload): average ${n(average(pointBytes))}, p95 ${n(percentile(pointBytes, 95))} bytes; windows per chunk ${(vectors.length / Math.max(1, chunkCount)).toFixed(2)}`);
console.log(`  not measured, Qdrant's own (formulas): HNSW level-0 links ≤ 2 × m × ${QDRANT_LINK_BYTES} = ${2 * QDRANT_HNSW_M * QDRANT_LINK_BYTES} bytes per point at m = ${QDRANT_HNSW_M}`);
console.log(`    (m = 16 default: qdrant config/config.yaml; level 0 keeps m0 = 2m links of u32: lib/segment/src/index/hnsw_index/graph_layers.rs),`);
console.log(`    upper levels ≈ m × 4 / (m − 1) ≈ ${n((QDRANT_HNSW_M * QDRANT_LINK_BYTES) / (QDRANT_HNSW_M - 1))} bytes more; RAM rule of thumb vectors × dims × 4 × 1.5 and payload × 1.5`);
console.log(`    (qdrant.tech/documentation/guides/capacity-planning); plus a keyword index on workspace, folder, model_id, item_id, chunk_id.`);

console.log('');
console.log(`per 1,000 chunks (${(vectors.length / Math.max(1, chunkCount)).toFixed(2)} windows each)`);
console.log(`  MongoDB documents (all but jobs and GridFS)   ${mib(per1000Chunks(knowledgeBytes)).padStart(12)}`);
console.log(`  MongoDB done jobs                             ${mib(per1000Chunks(jobBytes)).padStart(12)}`);
console.log(`  Qdrant vectors + payload                      ${mib(per1000Chunks(sum(pointBytes))).padStart(12)}`);
console.log(`    + HNSW level-0 links (formula above)        ${mib(per1000Chunks(vectors.length * 2 * QDRANT_HNSW_M * QDRANT_LINK_BYTES)).padStart(12)}`);
console.log(`  original bytes (GridFS)                       ${mib(per1000Chunks(sum(originalBytes))).padStart(12)}`);
console.log('');
console.log(`original bytes per item (GridFS, ${blobBytes.size} distinct blobs): average ${kib(average(originalBytes))}, p95 ${kib(percentile(originalBytes, 95))}; ` +
  `GridFS documents ${kib(gridFsBytes)} for ${kib(sum(originalBytes))} of bytes`);
console.log('');
console.log('totals for this corpus');
console.log(`  MongoDB documents ${mib(knowledgeBytes)} + jobs ${mib(jobBytes)} + GridFS ${mib(gridFsBytes)}; Qdrant points ${mib(sum(pointBytes))} (vectors ${mib(sum(vectorBytes))}, payload ${mib(sum(payloadBytes))})`);
console.log(`  SQLite store of the same corpus: ${DATABASE_FILE} (with -wal/-shm) ${mib(sqliteDatabaseBytes)}, blobs ${mib(sqliteBlobBytes)}, other files ${mib(sqliteOtherBytes)}`);
