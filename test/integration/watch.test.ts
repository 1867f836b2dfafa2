// The watcher keeps the index current: a real watch (@parcel/watcher, and chokidar where it is the
// fallback: both are run on the first cases) on a real folder.

import assert from 'node:assert/strict';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { watchFolder } from '../../server/src/workspace/watch.ts';
import type { FolderWatcher } from '../../server/src/workspace/watchThreadProtocol.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';
import { eventually } from '../support/eventually.ts';

/** A folder of `files`, indexed, then watched by `watcher` until it is ready. */
async function watchedFolder(t: TestContext, files: Record<string, string>, watcher: FolderWatcher) {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), files);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const errors: string[] = [];
  const watch = watchFolder(index, { debounceMs: 100, watcher, onError: (error) => errors.push(error.message) });
  t.after(() => watch.close());
  await watch.ready();
  // The native watch is loaded once per process and serves every folder: no test falls back.
  assert.deepEqual(errors, [], `${watcher}: no error, no fallback`);
  return { root, folder, index, watch };
}

for (const watcher of ['native', 'chokidar'] as const) {
test(`${watcher}: additions, edits and deletions in a watched folder reach the store; ignored files do not`, async (t) => {
  const { folder, index, watch } = await watchedFolder(t, { '.gitignore': 'scratch/\n', 'first.md': '# First\n\nalpha text\n' }, watcher);

  writeFiles(folder, { 'second.md': '# Second\n\nbravo text\n', 'scratch/ignored.md': 'charlie' });
  await eventually(async () => (await index.store.getItemByPath('second.md'))?.status === 'indexed', 'second.md is indexed');

  writeFileSync(path.join(folder, 'first.md'), '# First\n\ndelta text\n');
  await eventually(async () => (await index.store.getItemByPath('first.md'))?.version === 2, 'first.md has a new version');
  await eventually(async () => (await index.store.searchChunksLexical('delta', 5)).length === 1, 'the edit is searchable');

  rmSync(path.join(folder, 'second.md'));
  await eventually(async () => (await index.store.getItemByPath('second.md')) === null, 'second.md is tombstoned');
  await watch.settled();

  assert.deepEqual((await index.store.listItems()).map((item) => item.path), ['.gitignore', 'first.md']);
  assert.deepEqual(await index.store.searchChunksLexical('alpha', 5), []);
  assert.deepEqual(await index.store.searchChunksLexical('charlie', 5), []);
});

test(`${watcher}: a tree moved into the folder, and a folder made with files at once, are indexed file by file`, async (t) => {
  const { root, folder, index, watch } = await watchedFolder(t, { 'first.md': '# First\n\nalpha text\n' }, watcher);

  // Written outside, then moved in whole: the watch sees one new directory.
  const outside = writeFiles(mkdtempSync(path.join(root, 'outside-')), { 'tree/a.md': '# A\n\nbravo text\n', 'tree/deeper/b.md': '# B\n\ncharlie text\n' });
  renameSync(path.join(outside, 'tree'), path.join(folder, 'tree'));
  writeFiles(folder, { 'made/at/once.md': '# Once\n\ndelta text\n' });
  for (const expected of ['tree/a.md', 'tree/deeper/b.md', 'made/at/once.md']) {
    await eventually(async () => (await index.store.getItemByPath(expected))?.status === 'indexed', `${expected} is indexed`);
  }
  await watch.settled();
  assert.deepEqual((await index.store.listItems()).map((item) => item.path).sort(), ['first.md', 'made/at/once.md', 'tree/a.md', 'tree/deeper/b.md']);
});
}

test('changes made after the run and before the watcher is ready reach the store: the rescan after ready finds them', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    'edited.md': '# Edited\n\nalpha text\n',
    'removed.md': '# Removed\n\nbravo text\n',
    'untouched.md': '# Untouched\n\ncharlie text\n',
  });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  const runStarted = Date.now();
  await index.index();
  // Made before chokidar is even started (it reports nothing it found at start): only the rescan can see them.
  writeFileSync(path.join(folder, 'edited.md'), '# Edited\n\ndelta text\n');
  writeFileSync(path.join(folder, 'added.md'), '# Added\n\necho text\n');
  rmSync(path.join(folder, 'removed.md'));
  const batches: string[][] = [];
  const watch = watchFolder(index, { debounceMs: 100, changedSince: runStarted, onBatch: (paths) => batches.push(paths) });
  t.after(() => watch.close());
  await watch.ready();
  await watch.settled();

  assert.deepEqual((await index.store.listItems()).map((item) => item.path), ['added.md', 'edited.md', 'untouched.md']);
  assert.equal((await index.store.searchChunksLexical('delta', 5)).length, 1, 'the edit is searchable');
  assert.equal((await index.store.searchChunksLexical('echo', 5)).length, 1, 'the addition is searchable');
  assert.deepEqual(await index.store.searchChunksLexical('bravo', 5), [], 'the removal is tombstoned');
  assert.ok(batches.flat().includes('edited.md') && batches.flat().includes('removed.md'));
});

test('chokidar, the fallback, settles in a thread of its own: this thread holds none of its file watches, and a change still arrives', async (t) => {
  const root = tempDir(t);
  const files = Object.fromEntries(Array.from({ length: 300 }, (_, n) => [`group-${n % 6}/note-${n}.md`, `# Note ${n}\n\nsierra text ${n}\n`]));
  const folder = writeFiles(path.join(root, 'folder'), files);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const watches = () => process.getActiveResourcesInfo().filter((resource) => resource === 'FSEventWrap').length;
  const before = watches();
  const watch = watchFolder(index, { debounceMs: 100, watcher: 'chokidar' });
  t.after(() => watch.close());
  await watch.ready();
  // chokidar opens a watch per file and directory (306 here): on this thread they would be its handles.
  assert.equal(watches() - before, 0, 'no file watch on the thread that answers requests');

  writeFileSync(path.join(folder, 'group-3/note-3.md'), '# Note 3\n\ntango text\n');
  await eventually(async () => (await index.store.searchChunksLexical('tango', 5)).length === 1, 'the edit is searchable');
});
