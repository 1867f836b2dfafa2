// The store is private on disk: owner-only directories and files after a real index run, an older
// store tightened when opened; and `relata forget` leaves nothing of a deleted document in the
// store's files (database, write-ahead log, blobs, vector graphs) while the relationship history
// still records that the pair existed.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

/** Unusual enough to appear nowhere else. */
const SECRET = 'quetzalcoatlite';
/** What is searched for in the raw bytes: also matches the lexical index's stemmed term. */
const TRACE = 'quetzalcoatl';

const DOCUMENTS = {
  'supplier.md': `# Supplier review\n\nExample Ltd supplied 40 pumps in March 2024 for 12,000 EUR. Dr. Carla Mendes signed the review.\n`,
  'audit.md': `# Audit of ${SECRET}\n\nThe ${SECRET} audit found that Example Ltd supplied 40 pumps for 12,000 EUR. Carla Mendes approved the ${SECRET} order.\n`,
  'notes/plan.md': '# Plan\n\nReplace the pumps at the north site before winter.\n',
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const mode = (file: string) => statSync(file).mode & 0o777;

function containing(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle);
  return filesUnder(dir).filter((file) => readFileSync(file).includes(bytes));
}

test('a real index run leaves every directory 0700 and every file 0600, and an older store is tightened at open', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), DOCUMENTS);
  const dataDir = path.join(root, 'data', 'store');
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' } });
  await index.index();
  // A saved vector graph too (vectorIndex.ts): one vector is enough below an exactBelow of 1.
  const store = openSqliteStore({ dataDir, workspace: 'alice', vectorIndex: { exactBelow: 1, log: () => undefined } });
  const model = { id: 'probe', dims: 4, version: '1', maxTokens: 16 };
  await store.registerModel(model);
  const item = (await store.listItems())[0]!;
  const chunks = await store.chunksWithoutVectors(item.id, model.id);
  await store.storeVectors(item.id, item.contentHash!, model, chunks.map((chunk) => ({ chunkId: chunk.id, window: 0, start: 0, end: 1, vector: new Float32Array([1, 0, 0, 0]) })));
  await store.searchVectors(model.id, new Float32Array([1, 0, 0, 0]), 1);
  const names = new Set(filesUnder(dataDir).map((file) => path.basename(file)));
  await store.close();
  await index.close();

  assert.ok(['relata.sqlite-wal', 'relata.sqlite-shm'].every((name) => names.has(name)), 'the write-ahead log existed while open');
  const files = filesUnder(dataDir);
  assert.ok(files.some((file) => file.includes(`${path.sep}blobs${path.sep}`)), 'blobs were written');
  assert.ok(files.some((file) => file.endsWith('.hnsw')), 'a vector graph was saved');
  for (const file of files) assert.equal(mode(file).toString(8), '600', file);
  const dirs = readdirSync(dataDir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isDirectory());
  for (const dir of [dataDir, ...dirs.map((entry) => path.join(entry.parentPath, entry.name))]) assert.equal(mode(dir).toString(8), '700', dir);

  // An older Relata left it readable by everyone: opening tightens it.
  chmodSync(dataDir, 0o755);
  for (const file of files) chmodSync(file, 0o644);
  (await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' } })).close();
  assert.equal(mode(dataDir).toString(8), '700');
  for (const file of filesUnder(dataDir)) assert.equal(mode(file).toString(8), '600', file);
});

test('forget leaves no trace of a deleted document in the database, its log, the blobs or the vector graphs; the relationship history stays', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), DOCUMENTS);
  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const audit = (await index.store.getItemByPath('audit.md'))!;
  const supplier = (await index.store.getItemByPath('supplier.md'))!;
  const pair = (await index.store.relationshipBetween(audit.id, supplier.id))!;
  assert.ok(pair, 'the audit and the supplier review are related');
  assert.ok(pair.signals.some((signal) => signal.type === 'shared_entity'), 'a shared name quoted from both');
  assert.ok(containing(dataDir, TRACE).length > 0, 'the word is in the store before');

  await assert.rejects(index.forget(['audit.md']), /audit\.md is still in the folder; delete it first or exclude it/);
  rmSync(path.join(folder, 'audit.md'));
  await index.index();
  assert.ok(containing(dataDir, TRACE).length > 0, 'a tombstone keeps the text and bytes');

  // A saved vector graph of this workspace: hnswlib keeps a removed point in the file, so it must go.
  const vectors = openSqliteStore({ dataDir, workspace: 'alice', vectorIndex: { exactBelow: 1, log: () => undefined } });
  const model = { id: 'probe', dims: 4, version: '1', maxTokens: 16 };
  await vectors.registerModel(model);
  const chunks = await vectors.chunksWithoutVectors(supplier.id, model.id);
  await vectors.storeVectors(supplier.id, supplier.contentHash!, model, chunks.map((chunk) => ({ chunkId: chunk.id, window: 0, start: 0, end: 1, vector: new Float32Array([1, 0, 0, 0]) })));
  await vectors.searchVectors(model.id, new Float32Array([1, 0, 0, 0]), 1);
  await vectors.close();
  assert.ok(filesUnder(path.join(dataDir, 'vector-index')).some((file) => file.endsWith('.hnsw')));

  const report = await index.forget(['audit.md']);
  assert.deepEqual(filesUnder(path.join(dataDir, 'vector-index')), [], 'saved graphs are discarded, rebuilt when next needed');
  assert.deepEqual(report.forgotten, [{ item_id: audit.id, path: 'audit.md' }]);
  assert.equal(report.blobs_removed, 1);
  assert.equal(report.log_truncated, true);
  assert.deepEqual(containing(dataDir, TRACE), [], 'nothing in relata.sqlite, its -wal, the blobs or the graphs');
  assert.deepEqual(containing(dataDir, 'Carla Mendes approved'), []);

  const kept = (await index.store.getItem(audit.id))!;
  assert.equal(kept.path, 'audit.md');
  assert.equal(kept.contentHash, audit.contentHash);
  assert.ok(kept.forgottenAt && kept.deletedAt);
  assert.equal(kept.title, null);
  assert.equal(await index.store.getParsedText(audit.id), null);
  const history = await index.store.relationshipHistory(pair.id);
  assert.ok(history.length > 0, 'the history still lists the pair');
  const redacted = (await index.store.getRelationship(pair.id))!;
  assert.ok(redacted.signals.filter((signal) => signal.type === 'shared_entity').every((signal) => signal.value === '(forgotten)'));
  assert.equal((await index.store.listRelationships()).some((r) => r.id === pair.id), false, 'not served: one end is deleted');

  // Still searchable: the rest of the folder.
  assert.ok((await index.store.searchChunksLexical('pumps', 10)).length > 0);
  assert.deepEqual(await index.store.searchChunksLexical(SECRET, 10), []);
});

test('bytes shared with a live item, or with another workspace, stay when a document is forgotten', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'a.md': `# Shared\n\nThe ${SECRET} report.\n`, 'b.md': '# Other\n\nSomething else.\n' });
  const dataDir = path.join(root, 'data');
  const alice = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' } });
  await alice.index();
  await alice.close();
  const bob = await FolderIndex.open({ folder, dataDir, workspace: 'bob', embedding: { kind: 'none' } });
  t.after(() => bob.close());
  await bob.index();
  rmSync(path.join(folder, 'a.md'));
  await bob.index();
  const report = await bob.forget('all-deleted');
  assert.deepEqual(report.forgotten.map((item) => item.path), ['a.md']);
  assert.equal(report.blobs_removed, 0, "alice's item still refers to the bytes");
  const hash = (await bob.store.getItem(report.forgotten[0]!.item_id))!.contentHash!;
  assert.ok(existsSync(path.join(dataDir, 'blobs', hash.slice(0, 2), hash)));
});

test('with forgetDeleted, a deleted file is forgotten by the run that tombstones it', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), DOCUMENTS);
  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' }, settings: { forgetDeleted: true } });
  t.after(() => index.close());
  await index.index();
  rmSync(path.join(folder, 'audit.md'));
  await index.index();
  const forgotten = (await index.store.listItems({ includeDeleted: true })).find((item) => item.path === 'audit.md')!;
  assert.ok(forgotten.forgottenAt);
  assert.deepEqual(containing(dataDir, TRACE), []);
});

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

test('relata forget: refuses a file still in the folder, forgets every deleted one with --all-deleted', { skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first' }, (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), DOCUMENTS);
  const dataDir = path.join(root, 'data');
  const relata = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args, '--data', dataDir], { cwd: folder, encoding: 'utf8', env: { ...process.env, RELATA_WORKSPACE: 'cli', RELATA_EMBEDDING_MODEL: 'none' } });
  assert.equal(relata('index', folder).status, 0);
  const live = relata('forget', 'audit.md');
  assert.equal(live.status, 1);
  assert.match(live.stderr, /audit\.md is still in the folder; delete it first or exclude it/);
  rmSync(path.join(folder, 'audit.md'));
  assert.equal(relata('index', folder).status, 0);
  const forgot = relata('forget', '--all-deleted', '--json');
  assert.equal(forgot.status, 0, forgot.stderr);
  assert.deepEqual((JSON.parse(forgot.stdout) as { forgotten: { path: string }[] }).forgotten.map((item) => item.path), ['audit.md']);
  assert.deepEqual(containing(dataDir, TRACE), []);
});
