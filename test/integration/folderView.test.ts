// Discovery keeps what it reads of the whole folder (the link index, the similarity sample) per
// store while no item changed (discover/folderView.ts, issue 32), so one item's discovery does not
// read every item of the folder. What it keeps must never be stale: every change to an item that
// links resolve against (added, renamed, retitled, deleted) makes it read the folder again.

import assert from 'node:assert/strict';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { folderView } from '../../server/src/discover/folderView.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const resolveFromA = async (index: FolderIndex, target: string) => (await folderView(index.store)).links.resolve(target, 'a.md', 'wiki');

test('the folder view is kept while no item changes, and read again after an item is added, renamed, retitled or deleted', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t, 'relata-folder-view-');
  const folder = writeFiles(path.join(root, 'folder'), { 'a.md': '# A\n\nSee [[build]] and [[Deploy Guide]].\n', 'c.md': '# C\n\nUnrelated.\n' });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'view', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();

  const first = await folderView(index.store);
  const generation = await index.store.itemsGeneration();
  const c = await index.store.getItemByPath('c.md');
  await index.store.recordDiscovery(c!.id, c!.contentHash!, 'basis');
  assert.equal(await index.store.itemsGeneration(), generation, 'recording a discovery changes no item');
  assert.equal(await folderView(index.store), first, 'nothing changed: the same view, the folder not read again');
  assert.equal((await resolveFromA(index, 'build')).status, 'missing');

  writeFileSync(path.join(folder, 'build.md'), '# Steps\n\nHow to build.\n');
  await index.index();
  const added = await resolveFromA(index, 'build');
  assert.equal(added.status === 'resolved' && added.path, 'build.md', 'an added file is found');

  renameSync(path.join(folder, 'build.md'), path.join(folder, 'building.md'));
  await index.index();
  assert.equal((await resolveFromA(index, 'build')).status, 'missing', 'a renamed file is gone from its old name');
  const renamed = await resolveFromA(index, 'building');
  assert.equal(renamed.status === 'resolved' && renamed.path, 'building.md', 'and found under its new one');

  writeFileSync(path.join(folder, 'c.md'), '# Deploy Guide\n\nHow to deploy.\n');
  await index.index();
  const retitled = await resolveFromA(index, 'Deploy Guide');
  assert.equal(retitled.status === 'resolved' && retitled.path, 'c.md', 'a file that took a new title answers to it');

  rmSync(path.join(folder, 'building.md'));
  await index.index();
  assert.equal((await resolveFromA(index, 'building')).status, 'missing', 'a deleted file is gone');
});
