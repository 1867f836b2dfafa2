// `relata export` then `relata import` reproduces a store record by record: a real folder indexed
// by the real pipeline with the offline default embedding model (vectors included), with a new
// version, a duplicate, a tombstoned and a forgotten document, a confirmed and a rejected
// relationship with notes and confirmed and rejected aliases. Both stores are exported and their
// record streams compared whole, then read through the contract and searched. An export that was
// changed after it was written, and an import into a store that holds something, are refused before
// anything is loaded. Real SQLite stores only: the MongoDB + Qdrant half is the contract suite's.

import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import { createEmbedder } from '../../server/src/embed/choice.ts';
import { decideAlias } from '../../server/src/engine/aliases.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { decide } from '../../server/src/engine/relationships.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { exportToDirectory } from '../../server/src/store/exchange/exportDir.ts';
import { importFromDirectory } from '../../server/src/store/exchange/importDir.ts';
import { EXCHANGE_KINDS, ImportTargetNotEmptyError, RECORD_FILES, type ExchangeRecord, type ExportManifest } from '../../server/src/store/exchange/records.ts';
import { openStoreWithBlobs, type OpenedStore } from '../../server/src/store/index.ts';
import { workspaceIndexNames } from '../../server/src/store/sqlite/workspaceIndexes.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

const WORKSPACE = 'export-import';
const DEMO = path.join(REPO_ROOT, 'docs', 'demo');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const QUERIES = ['gantry crane refurbishment cost', 'forklift collision in the warehouse', 'Carla Mendes dock inspection', 'supplier review Example Ltd'];
/** Recency is measured against a clock: fixed, so both searches weigh it alike. */
const NOW = new Date('2026-01-01T00:00:00Z');

let root: string;
let folder: string;
let sourceDataDir: string;
let exportDir: string;
let manifest: ExportManifest;

function open(dataDir: string, access: 'read' | 'write' = 'write'): OpenedStore {
  return openStoreWithBlobs({ dataDir, workspace: WORKSPACE, access });
}

async function records(store: WorkspaceStore): Promise<ExchangeRecord[]> {
  const all: ExchangeRecord[] = [];
  for await (const record of store.exportRecords()) all.push(record);
  return all;
}

async function importInto(dataDir: string, dir = exportDir) {
  const { store, blobs } = open(dataDir);
  try {
    return await importFromDirectory({ dir, store, blobs, where: dataDir });
  } finally {
    await store.close();
  }
}

/** What a store holds for the workspace, read back: nothing after a refused import. */
async function holdings(dataDir: string): Promise<{ records: number; blobs: number }> {
  const { store, blobs } = open(dataDir);
  try {
    let stored = 0;
    for await (const hash of blobs.list()) if (hash) stored += 1;
    return { records: (await records(store)).length, blobs: stored };
  } finally {
    await store.close();
  }
}

/** A copy of the export to damage. */
function copyOfExport(t: TestContext): string {
  const copy = path.join(tempDir(t), 'export');
  cpSync(exportDir, copy, { recursive: true });
  return copy;
}

/** Rewrites a records file and the manifest's sha-256 of it, as someone editing the export by hand would have to. */
function rewriteWithManifest(dir: string, file: string, edit: (text: string) => string): void {
  const text = edit(readFileSync(path.join(dir, file), 'utf8'));
  writeFileSync(path.join(dir, file), text);
  const edited = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as ExportManifest;
  edited.files[file] = { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(edited));
}

before(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'relata-export-'));
  folder = path.join(root, 'folder');
  sourceDataDir = path.join(root, 'data');
  cpSync(DEMO, folder, { recursive: true });
  writeFiles(folder, {
    'dock/handover.md': '# Dock handover\n\nMs. Mendes walked the loading dock with the night shift.\n\nThe cost of the dock door repair is EUR 4,200.\n',
    'dock/inspection.md': '# Dock inspection\n\nMs. Carla Mendes signed the inspection of the loading dock.\n\nThe cost of the dock door repair is EUR 4,200.\n',
    'dock/inspection-copy.md': '# Dock inspection\n\nMs. Carla Mendes signed the inspection of the loading dock.\n\nThe cost of the dock door repair is EUR 4,200.\n',
    'notes/retired-procedure.md': '# Retired procedure\n\nThe old gantry crane lockout procedure used a single padlock per crew.\n',
    'notes/private-draft.txt': 'A draft about the forklift collision that its author later deleted.\n',
    'notes/readings.json': JSON.stringify({ gauge: 'GC2 hoist', readings: [{ date: '2025-05-20', load_kg: 4200 }] }),
  });
  const index = await FolderIndex.open({ folder, dataDir: sourceDataDir, workspace: WORKSPACE, embedding: { kind: 'use-lite' } });
  try {
    await index.index();
    // A second version, a tombstone and a forgotten document.
    writeFileSync(path.join(folder, 'notes/readings.json'), JSON.stringify({ gauge: 'GC2 hoist', readings: [{ date: '2025-06-20', load_kg: 5100 }] }));
    unlinkSync(path.join(folder, 'notes/retired-procedure.md'));
    unlinkSync(path.join(folder, 'notes/private-draft.txt'));
    await index.index();
    await index.forget(['notes/private-draft.txt']);

    const relationships = await index.store.listRelationships();
    const [first, second] = relationships;
    assert.ok(first && second, 'the folder gives at least two relationships to decide');
    await decide(index.store, first.id, { status: 'confirmed', by: 'ana', note: 'checked against the invoice' });
    await decide(index.store, second.id, { status: 'rejected', by: 'ben', note: 'different crane' });
    const aliases = await index.store.listAliases('pending');
    const mendes = aliases.find((alias) => alias.a.key === 'person:carla mendes' && alias.b.key === 'person:mendes');
    assert.ok(mendes, 'the short name is offered as an alias');
    await decideAlias(index.store, mendes.id, { status: 'confirmed', by: 'ana', note: 'same inspector' });
    const other = aliases.find((alias) => alias.id !== mendes.id);
    if (other) await decideAlias(index.store, other.id, { status: 'rejected', by: 'ben', note: 'not the same' });
    // Discovery runs again with the confirmed alias as evidence.
    await index.index();
  } finally {
    await index.close();
  }

  exportDir = path.join(root, 'export');
  const { store, blobs } = open(sourceDataDir, 'read');
  try {
    manifest = await exportToDirectory({ store, blobs, dir: exportDir, source: { backend: 'sqlite', location: sourceDataDir } });
  } finally {
    await store.close();
  }
});

after(() => rmSync(root, { recursive: true, force: true }));

test('the folder exercises every kind of record, and every state the round trip must keep', async () => {
  for (const kind of [...EXCHANGE_KINDS, 'blob' as const]) assert.ok(manifest.counts[kind] > 0, `the export holds ${kind} records`);
  const { store } = open(sourceDataDir, 'read');
  try {
    const items = await store.listItems({ includeDeleted: true });
    assert.ok(items.some((item) => item.status === 'duplicate'), 'a duplicate');
    assert.ok(items.some((item) => item.deletedAt && !item.forgottenAt), 'a tombstoned item');
    assert.ok(items.some((item) => item.forgottenAt), 'a forgotten item');
    assert.ok(items.some((item) => item.version > 1), 'an item with two versions');
    const decided = await store.listRelationships();
    assert.ok(decided.some((r) => r.status === 'confirmed' && r.note && r.decisionBasis), 'a confirmed relationship with a note and its basis');
    assert.ok(decided.some((r) => r.status === 'rejected' && r.note), 'a rejected relationship with a note');
    assert.ok((await store.listAliases('confirmed')).length > 0 && (await store.listAliases('rejected')).length > 0, 'decided aliases');
    assert.ok((await store.modelUsage())[0]!.vectors > 0, 'vectors of the default model');
    const report = (await store.getItemByPath('maintenance/gantry-crane-gc2-refurbishment-report.md'))!;
    assert.ok((await store.listMetadata(report.id)).length > 0, 'an item giving itself metadata (front matter)');
  } finally {
    await store.close();
  }
});

test('an export imported into a fresh SQLite store gives back every record of every kind, and every original file', async (t) => {
  const target = tempDir(t);
  const report = await importInto(target);
  for (const kind of EXCHANGE_KINDS) assert.equal(report.counts[kind], manifest.counts[kind], `${kind} records loaded`);
  assert.equal(report.blobs, manifest.counts.blob);

  const source = open(sourceDataDir, 'read');
  const restored = open(target, 'read');
  try {
    const before = await records(source.store);
    const afterImport = await records(restored.store);
    assert.equal(afterImport.length, before.length);
    // Record by record, in order: ids, times, statuses, decisions, signals, vectors' bytes.
    for (const [index, record] of before.entries()) assert.deepEqual(afterImport[index], record, `record ${index} (${record.record})`);
    for await (const hash of source.blobs.list()) {
      if (!(await source.store.listItems({ includeDeleted: true })).some((item) => item.contentHash === hash && !item.forgottenAt)) continue;
      assert.deepEqual(await restored.blobs.get(hash), await source.blobs.get(hash), `original file ${hash}`);
    }
    assert.equal(await restored.store.getMeta('folder_root'), folder);
  } finally {
    await source.store.close();
    await restored.store.close();
  }

  // Exported again, the restored store writes the very same files.
  const again = path.join(tempDir(t), 'again');
  const reopened = open(target, 'read');
  try {
    await exportToDirectory({ ...reopened, dir: again, source: { backend: 'sqlite', location: target } });
  } finally {
    await reopened.store.close();
  }
  for (const kind of [...EXCHANGE_KINDS, 'blob' as const]) {
    assert.ok(readFileSync(path.join(again, RECORD_FILES[kind])).equals(readFileSync(path.join(exportDir, RECORD_FILES[kind]))), `${RECORD_FILES[kind]} is identical`);
  }
});

test('the restored store answers listings, histories, aliases, vector look-ups and searches as the original does', { timeout: 120_000 }, async (t) => {
  const target = tempDir(t);
  await importInto(target);
  const embedder = (await createEmbedder({ kind: 'use-lite' }))!;
  const source = open(sourceDataDir, 'read');
  const restored = open(target, 'read');
  t.after(async () => {
    await embedder.close();
    await source.store.close();
    await restored.store.close();
  });
  const both = async <T>(read: (store: WorkspaceStore) => Promise<T>): Promise<[T, T]> => [await read(source.store), await read(restored.store)];
  const same = async <T>(what: string, read: (store: WorkspaceStore) => Promise<T>) => {
    const [a, b] = await both(read);
    assert.deepEqual(b, a, what);
  };

  await same('items, deleted and forgotten included', (store) => store.listItems({ includeDeleted: true }));
  const items = await source.store.listItems({ includeDeleted: true });
  for (const item of items) {
    await same(`versions of ${item.path}`, (store) => store.listVersions(item.id));
    await same(`parsed text of ${item.path}`, (store) => store.getParsedText(item.id));
    await same(`passages of ${item.path}`, (store) => store.listChunks(item.id));
    await same(`entities of ${item.path}`, (store) => store.listEntities(item.id));
    await same(`claims of ${item.path}`, (store) => store.listClaims(item.id));
    await same(`phrases of ${item.path}`, (store) => store.listPhrases(item.id));
    await same(`metadata of ${item.path}`, (store) => store.listMetadata(item.id));
  }
  await same('relationships', (store) => store.listRelationships());
  for (const relationship of await source.store.listRelationships()) {
    await same(`history of ${relationship.id}`, (store) => store.relationshipHistory(relationship.id));
  }
  await same('aliases', (store) => store.listAliases());
  await same('entity summaries', (store) => store.entitySummaries());
  await same('models and their vectors', (store) => store.modelUsage());
  const model = (await source.store.modelUsage())[0]!;
  await same('what still needs vectors, extraction or discovery', async (store) => [
    await store.itemsNeedingVectors(model.id),
    await store.itemsNeedingExtraction('entities@1+claims@1+concepts@1'),
    await store.itemsNeedingDiscovery('any'),
  ]);
  for (const query of QUERIES) {
    const [vector] = await embedder.embed([query]);
    await same(`nearest passages to "${query}"`, (store) => store.searchVectors(model.id, vector!, 8));
  }

  // SQLite's contentless FTS5 tables keep counting a deleted row in their BM25 statistics (the
  // source deleted and re-added rows as documents changed), so the original's lexical scores carry
  // its history. The import builds its lexical index from the rows as they are, as a store does
  // for a workspace without one: compared with the original's rows indexed that same way.
  const reindexed = path.join(tempDir(t), 'data');
  cpSync(sourceDataDir, reindexed, { recursive: true });
  const raw = new Database(path.join(reindexed, 'relata.sqlite'));
  for (const table of Object.values(workspaceIndexNames(WORKSPACE))) raw.exec(`DROP TABLE ${table}`);
  raw.close();
  const original = open(reindexed);
  t.after(() => original.store.close());
  for (const query of QUERIES) {
    const lexical = async (store: WorkspaceStore) => [await store.searchItemsLexical(query, 10), await store.searchChunksLexical(query, 10)];
    assert.deepEqual(await lexical(restored.store), await lexical(original.store), `lexical matches for "${query}"`);
    const search = (store: WorkspaceStore) => searchWorkspace(store, embedder, query, { now: NOW });
    const results = await search(restored.store);
    assert.ok(results.results.length > 0, `"${query}" finds something`);
    assert.deepEqual(results, await search(original.store), `search for "${query}"`);
  }
});

test('a records file changed after the export is refused before anything is loaded', async (t) => {
  const damaged = copyOfExport(t);
  const file = path.join(damaged, RECORD_FILES.chunk);
  writeFileSync(file, readFileSync(file, 'utf8').replace('crane', 'Crane'));
  const target = tempDir(t);
  await assert.rejects(importInto(target, damaged), (error: Error) => {
    assert.match(error.message, /chunks\.jsonl has changed since it was exported/);
    return true;
  });
  assert.deepEqual(await holdings(target), { records: 0, blobs: 0 });
});

test('an original file changed after the export is refused before anything is loaded', async (t) => {
  const damaged = copyOfExport(t);
  const [hash] = readdirSync(path.join(damaged, 'blobs'));
  writeFileSync(path.join(damaged, 'blobs', hash!), 'not the bytes that were exported');
  const target = tempDir(t);
  await assert.rejects(importInto(target, damaged), new RegExp(`blobs/${hash} has changed since it was exported`));
  assert.deepEqual(await holdings(target), { records: 0, blobs: 0 });
});

test('a malformed record is named by file and line, and nothing is loaded', async (t) => {
  const damaged = copyOfExport(t);
  rewriteWithManifest(damaged, RECORD_FILES.relationship, (text) => {
    const lines = text.split('\n');
    lines[1] = lines[1]!.replace('"nearDuplicate":false', '"nearDuplicate":"no"');
    return lines.join('\n');
  });
  const target = tempDir(t);
  await assert.rejects(importInto(target, damaged), /relationships\.jsonl line 2: field nearDuplicate is not boolean/);
  assert.deepEqual(await holdings(target), { records: 0, blobs: 0 });
});

test('a record referring to an item the export does not hold is refused before anything is loaded', async (t) => {
  const damaged = copyOfExport(t);
  rewriteWithManifest(damaged, RECORD_FILES.relationship_event, (text) => text.replace(/"relationshipId":"rel_[0-9a-f]+"/, '"relationshipId":"rel_0000000000000000"'));
  const target = tempDir(t);
  await assert.rejects(importInto(target, damaged), /relationship_events\.jsonl line 1: refers to relationship rel_0000000000000000/);
  assert.deepEqual(await holdings(target), { records: 0, blobs: 0 });
});

test('an export in a newer major format is refused with what to do', async (t) => {
  const newer = copyOfExport(t);
  const edited = JSON.parse(readFileSync(path.join(newer, 'manifest.json'), 'utf8')) as ExportManifest;
  writeFileSync(path.join(newer, 'manifest.json'), JSON.stringify({ ...edited, format: 'relata-export/2' }));
  await assert.rejects(importInto(tempDir(t), newer), /written by a newer Relata \(format relata-export\/2\).*upgrade Relata/);
});

test('an import into a store that already holds something for the workspace is refused, and changes nothing', async (t) => {
  const holdingASetting = tempDir(t);
  const { store } = open(holdingASetting);
  await store.setMeta('note', 'already here');
  await store.close();
  await assert.rejects(importInto(holdingASetting), (error: Error) => {
    assert.ok(error instanceof ImportTargetNotEmptyError);
    assert.match(error.message, /already holds metadata entries \(1\) for workspace "export-import"/);
    return true;
  });
  assert.deepEqual(await holdings(holdingASetting), { records: 1, blobs: 0 }, 'the setting alone: no record, no original file');

  const imported = tempDir(t);
  await importInto(imported);
  const once = await holdings(imported);
  await assert.rejects(importInto(imported), /already holds items \(\d+\)/);
  assert.deepEqual(await holdings(imported), once, 'nothing twice');
});

test('a SQLite import that fails part-way leaves the store as empty as it was', async (t) => {
  const target = tempDir(t);
  const { store } = open(target);
  t.after(() => store.close());
  const source = open(sourceDataDir, 'read');
  const [item] = (await records(source.store)).filter((record) => record.record === 'item');
  await source.store.close();
  async function* partly(): AsyncGenerator<ExchangeRecord> {
    yield item!;
    yield { record: 'chunk', id: 'c1', itemId: 'no-such-item', ordinal: 0, text: 'x', headingPath: [], location: { kind: 'lines', start: 1, end: 1 }, wordCount: 1 };
  }
  await assert.rejects(store.importRecords(partly()), /chunk c1 could not be loaded/);
  assert.deepEqual(await store.listItems({ includeDeleted: true }), []);
});

test('relata export and relata import round-trip a store through the command line', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
  timeout: 120_000,
}, (t) => {
  const run = (args: string[]) => {
    const result = spawnSync(process.execPath, [CLI, ...args, '--workspace', WORKSPACE, '--json'], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return JSON.parse(result.stdout);
  };
  const dir = path.join(tempDir(t), 'export');
  const exported = run(['export', dir, '--data', sourceDataDir]);
  assert.equal(exported.format, 'relata-export/1');
  assert.deepEqual(exported.counts, manifest.counts);

  const refused = spawnSync(process.execPath, [CLI, 'export', dir, '--data', sourceDataDir, '--workspace', WORKSPACE], { encoding: 'utf8' });
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /is not empty: export writes into a new or empty directory/);

  const target = tempDir(t);
  const imported = run(['import', dir, '--data', target]);
  assert.equal(imported.folder, folder);
  assert.deepEqual(imported.counts, manifest.counts);
  const again = path.join(tempDir(t), 'again');
  run(['export', again, '--data', target]);
  for (const kind of [...EXCHANGE_KINDS, 'blob' as const]) {
    assert.ok(readFileSync(path.join(again, RECORD_FILES[kind])).equals(readFileSync(path.join(dir, RECORD_FILES[kind]))), `${RECORD_FILES[kind]} is identical`);
  }

  const twice = spawnSync(process.execPath, [CLI, 'import', dir, '--data', target, '--workspace', WORKSPACE], { encoding: 'utf8' });
  assert.equal(twice.status, 1);
  assert.match(twice.stderr, /already holds .* for workspace "export-import": import loads into an empty store only/);
});
