// The watcher keeps the index current: a real chokidar watch on a real folder.

import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { watchFolder } from '../../server/src/workspace/watch.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';
import { eventually } from '../support/eventually.ts';


test('additions, edits and deletions in a watched folder reach the store; ignored files do not', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { '.gitignore': 'scratch/\n', 'first.md': '# First\n\nalpha text\n' });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const watch = watchFolder(index, { debounceMs: 100 });
  t.after(() => watch.close());
  await new Promise((resolve) => setTimeout(resolve, 500)); // let chokidar finish its initial walk

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
