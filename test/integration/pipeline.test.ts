// The pipeline end to end on real files, a real SQLite store and the real parsers.

import assert from 'node:assert/strict';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { FolderIndex, type Progress } from '../../server/src/engine/folderIndex.ts';
import { workspaceIndexNames } from '../../server/src/store/sqlite/workspaceIndexes.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';
import { markdownParser } from '../../server/src/parse/markdown.ts';

// Embedding has its own tests; these are about ingest, parse and chunk.
const NO_EMBEDDING = { kind: 'none' } as const;

const paragraph = (topic: string, n = 40) =>
  Array.from({ length: n }, (_, i) => `The ${topic} note number ${i} explains one detail.`).join(' ');

async function openIndex(t: TestContext, folder: string, options: Partial<Parameters<typeof FolderIndex.open>[0]> = {}) {
  const index = await FolderIndex.open({
    folder,
    dataDir: path.join(path.dirname(folder), 'data'),
    workspace: 'alice',
    embedding: NO_EMBEDDING,
    ...options,
  });
  t.after(() => index.close());
  return index;
}

function stagesRun(): { onProgress: (progress: Progress) => void; stages: string[] } {
  const stages: string[] = [];
  return { stages, onProgress: (progress) => progress.last && stages.push(progress.last.job.stage) };
}

function setup(t: TestContext, files: Record<string, string>) {
  const root = tempDir(t);
  return writeFiles(path.join(root, 'folder'), files);
}

test('a folder becomes indexed items with chunks that lexical search finds', async (t) => {
  const folder = setup(t, {
    'notes/crane.md': `# Gantry crane\n\n${paragraph('crane')}\n\n## Refurbishment\n\nThe refurbishment finished in May.\n`,
    'plain.txt': `Forklift inspection log.\n\n${paragraph('forklift', 5)}\n`,
    'data.json': JSON.stringify({ title: 'Asset register', assets: [{ name: 'crane', supplier: 'Example Ltd' }] }, null, 2),
  });
  const index = await openIndex(t, folder);
  const report = await index.index();
  assert.deepEqual(report.items, { indexed: 3, failed: 0, skipped: 0, duplicates: 0 });
  assert.deepEqual(report.files.map((file) => file.path), ['data.json', 'notes/crane.md', 'plain.txt']);
  assert.ok(report.files.every((file) => file.parser_version !== null));

  const crane = await index.store.getItemByPath('notes/crane.md');
  assert.equal(crane?.title, 'Gantry crane');
  const chunks = await index.store.listChunks(crane!.id);
  assert.ok(chunks.length >= 1);
  assert.equal(chunks[0]?.location.kind, 'lines');
  const hits = await index.store.searchChunksLexical('refurbishment', 5);
  assert.equal(hits[0]?.itemId, crane!.id);
  const itemHits = await index.store.searchItemsLexical('supplier', 5);
  assert.equal(itemHits[0]?.itemId, (await index.store.getItemByPath('data.json'))?.id);
});

test('re-indexing an unchanged folder does no parsing work and changes nothing', async (t) => {
  const folder = setup(t, { 'a.md': `# A\n\n${paragraph('a')}`, 'b.txt': paragraph('b') });
  const index = await openIndex(t, folder);
  await index.index();
  const before = await index.store.listItems();
  const chunksBefore = await Promise.all(before.map((item) => index.store.listChunks(item.id)));

  const run = stagesRun();
  await index.index({ onProgress: run.onProgress });
  // Each file is read again only when it was written within RACY_MS of its first reading
  // (workspace/checkedFiles.ts; checkedFiles.test.ts shows a run that reads none): at most the hash check runs.
  assert.ok(run.stages.length <= 2 && run.stages.every((stage) => stage === 'ingest'), `only the hash check ran: ${run.stages.join(', ')}`);
  assert.deepEqual(await index.store.listItems(), before);
  assert.deepEqual(await Promise.all(before.map((item) => index.store.listChunks(item.id))), chunksBefore);
});

test('editing a file makes a new version and replaces its chunks', async (t) => {
  const folder = setup(t, { 'a.md': `# Before\n\n${paragraph('old')}` });
  const index = await openIndex(t, folder);
  await index.index();
  const item = await index.store.getItemByPath('a.md');
  const oldChunks = await index.store.listChunks(item!.id);

  writeFileSync(path.join(folder, 'a.md'), `# After\n\n${paragraph('new')}`);
  await index.index();
  const edited = await index.store.getItemByPath('a.md');
  assert.equal(edited?.id, item!.id, 'same item, new version');
  assert.equal(edited?.version, 2);
  assert.equal((await index.store.listVersions(item!.id)).length, 2);
  const newChunks = await index.store.listChunks(item!.id);
  assert.ok(newChunks.every((chunk) => !oldChunks.some((old) => old.id === chunk.id)));
  assert.ok(newChunks.some((chunk) => chunk.text.includes('new note')));
  assert.deepEqual(await index.store.searchChunksLexical('old', 5), [], 'nothing stale is served');
});

test('deleting a file tombstones its item: gone from items and from search, kept in history', async (t) => {
  const folder = setup(t, { 'keep.md': paragraph('keep'), 'gone.md': paragraph('vanishing') });
  const index = await openIndex(t, folder);
  await index.index();
  rmSync(path.join(folder, 'gone.md'));
  const report = await index.index();
  assert.deepEqual(report.files.map((file) => file.path), ['keep.md']);
  assert.deepEqual((await index.store.listItems()).map((item) => item.path), ['keep.md']);
  assert.deepEqual(await index.store.searchChunksLexical('vanishing', 5), []);
  assert.deepEqual(await index.store.searchItemsLexical('vanishing', 5), []);
  const history = await index.store.listItems({ includeDeleted: true });
  assert.equal(history.find((item) => item.path === 'gone.md')?.status, 'deleted');
});

test('a renamed file keeps its identity when its content is unchanged', async (t) => {
  const folder = setup(t, { 'draft.md': `# Plan\n\n${paragraph('plan')}` });
  const index = await openIndex(t, folder);
  await index.index();
  const before = await index.store.getItemByPath('draft.md');
  renameSync(path.join(folder, 'draft.md'), path.join(folder, 'final.md'));
  const run = stagesRun();
  await index.index({ onProgress: run.onProgress });
  const after = await index.store.getItemByPath('final.md');
  assert.equal(after?.id, before!.id);
  assert.equal(after?.version, 1);
  assert.equal(after?.status, 'indexed');
  assert.equal(await index.store.getItemByPath('draft.md'), null);
  assert.ok(!run.stages.includes('parse'), 'a rename needs no parsing');
  assert.equal((await index.store.listChunks(after!.id)).length > 0, true);
});

test('an exact duplicate is reported, not stored twice, and takes over when the original goes', async (t) => {
  const text = `# Same\n\n${paragraph('same')}`;
  const folder = setup(t, { 'a.md': text, 'copy/a.md': text });
  const index = await openIndex(t, folder);
  const report = await index.index();
  const copy = report.files.find((file) => file.path === 'copy/a.md');
  assert.equal(copy?.status, 'duplicate');
  assert.equal(copy?.duplicate_of, 'a.md');
  assert.match(copy?.reason ?? '', /byte-identical to a\.md/);
  assert.equal(report.items.duplicates, 1);
  const copyItem = await index.store.getItemByPath('copy/a.md');
  assert.deepEqual(await index.store.listChunks(copyItem!.id), []);

  rmSync(path.join(folder, 'a.md'));
  const after = await index.index();
  assert.deepEqual(after.files, [
    { path: 'copy/a.md', status: 'indexed', reason: null, duplicate_of: null, parser_version: markdownParser.version, flags: [] },
  ]);
});

test('a malformed file fails with a reason naming the problem and costs the others nothing', async (t) => {
  const folder = setup(t, { 'broken.json': '{"a": [1, 2', 'fine.md': paragraph('fine') });
  const index = await openIndex(t, folder);
  const report = await index.index();
  const broken = report.files.find((file) => file.path === 'broken.json');
  assert.equal(broken?.status, 'failed');
  assert.match(broken?.reason ?? '', /JSON/);
  assert.equal(report.files.find((file) => file.path === 'fine.md')?.status, 'indexed');
  assert.equal(await index.store.pendingJobs(), 0);
});

test('unsupported and oversized files are skipped with a reason', async (t) => {
  const folder = setup(t, { 'clip.mp4': 'not really a video', 'big.txt': 'x'.repeat(2048), 'small.txt': 'tiny note' });
  const index = await openIndex(t, folder, { settings: { maxFileBytes: 1024 } });
  const report = await index.index();
  const byPath = Object.fromEntries(report.files.map((file) => [file.path, file]));
  assert.equal(byPath['clip.mp4']?.status, 'skipped');
  assert.match(byPath['clip.mp4']?.reason ?? '', /unsupported file type \.mp4/);
  assert.equal(byPath['big.txt']?.status, 'skipped');
  assert.match(byPath['big.txt']?.reason ?? '', /size limit/);
  assert.equal(byPath['small.txt']?.status, 'indexed');
});

// (A data directory inside the folder is refused: test/integration/folder-boundary.test.ts.)
test('.gitignore and exclude patterns are never indexed', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    '.gitignore': 'build/\n*.log.md\n',
    'build/out.md': 'generated',
    'notes/debug.log.md': 'noise',
    'notes/sub/.gitignore': 'private.md\n',
    'notes/sub/private.md': 'secret',
    'notes/sub/public.md': 'public',
    'drafts/wip.md': 'draft',
    'node_modules/pkg/readme.md': 'dependency',
    'keep.md': 'keep',
  });
  const index = await FolderIndex.open({
    folder,
    dataDir: path.join(root, 'data'),
    workspace: 'alice',
    embedding: NO_EMBEDDING,
    settings: { exclude: ['drafts/'] },
  });
  t.after(() => index.close());
  const report = await index.index();
  assert.deepEqual(report.files.map((file) => file.path), ['.gitignore', 'keep.md', 'notes/sub/.gitignore', 'notes/sub/public.md']);
});

test('a stored file the rules now exclude leaves the index and search at the next full run, and a single-file re-index is refused', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    'keep.md': '# Keep\n\nThe heron nests by the weir.\n',
    'secret.md': '# Secret\n\nThe osprey code is kestrel.\n',
  });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: NO_EMBEDDING });
  t.after(() => index.close());
  await index.index();
  assert.equal((await index.store.searchChunksLexical('kestrel', 5)).length, 1);

  // The same index, as in the editor: the run reads the .gitignore written since the last one.
  writeFileSync(path.join(folder, '.gitignore'), 'secret.md\n');
  const report = await index.index();
  assert.deepEqual(report.files.map((file) => file.path), ['.gitignore', 'keep.md']);
  assert.equal(await index.store.getItemByPath('secret.md'), null, 'the excluded file is tombstoned, as a deleted one is');
  assert.deepEqual(await index.store.searchChunksLexical('kestrel', 5), []);

  await assert.rejects(index.reindexFile('secret.md'), { name: 'FileExcludedError', message: 'secret.md is not indexed: excluded by .gitignore ("secret.md")' });
  assert.equal(await index.store.getItemByPath('secret.md'), null);
});

test('two workspaces in one store never see each other', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'secret.md': paragraph('confidential') });
  const dataDir = path.join(root, 'data');
  const alice = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: NO_EMBEDDING });
  t.after(() => alice.close());
  await alice.index();
  const bob = await FolderIndex.open({ folder: path.join(root, 'folder'), dataDir, workspace: 'bob', embedding: NO_EMBEDDING });
  t.after(() => bob.close());
  assert.deepEqual(await bob.store.listItems(), []);
  assert.deepEqual(await bob.store.searchChunksLexical('confidential', 5), []);
  assert.deepEqual(await bob.store.searchItemsLexical('confidential', 5), []);
  assert.equal((await alice.store.searchChunksLexical('confidential', 5)).length, 1);
});

test('a data directory holding another folder\'s index is refused with a clear error', async (t) => {
  const root = tempDir(t);
  const first = writeFiles(path.join(root, 'first'), { 'a.md': 'a' });
  const second = writeFiles(path.join(root, 'second'), { 'b.md': 'b' });
  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder: first, dataDir, workspace: 'alice', embedding: NO_EMBEDDING });
  await index.close();
  await assert.rejects(FolderIndex.open({ folder: second, dataDir, workspace: 'alice' }), /holds the index of .*first/);
});

test('a store whose lexical index is missing rebuilds it from the stored chunks on open', async (t) => {
  const folder = setup(t, { 'a.md': `# Crane\n\n${paragraph('gantry')}` });
  const dataDir = path.join(path.dirname(folder), 'data');
  const first = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: NO_EMBEDDING });
  await first.index();
  await first.close();
  const db = new Database(path.join(dataDir, 'relata.sqlite'));
  const names = workspaceIndexNames('alice');
  db.exec(`DROP TABLE ${names.chunks}; DROP TABLE ${names.items};`);
  db.close();

  const reopened = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: NO_EMBEDDING });
  t.after(() => reopened.close());
  const item = await reopened.store.getItemByPath('a.md');
  assert.equal((await reopened.store.searchChunksLexical('gantry', 5))[0]?.itemId, item!.id);
  assert.equal((await reopened.store.searchItemsLexical('crane', 5))[0]?.itemId, item!.id);
});
