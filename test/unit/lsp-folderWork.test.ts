// What the language server reports about a folder's work in progress: the jobs of a real SQLite
// store counted as files by the kind of work a person would name, and a watcher batch logged with
// deletions called deletions.

import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { describeBatch, workByKind } from '../../server/src/lsp/folderSession.ts';
import { openStore } from '../../server/src/store/index.ts';
import { tempDir } from '../support/tempFolder.ts';

test('queued jobs are counted as files by kind of work: reading, extracting, embedding, relating', async (t) => {
  const store = openStore({ dataDir: tempDir(t), workspace: 'work' });
  t.after(() => store.close());
  await store.enqueueMany('ingest', ['a.md', 'b.md', 'c.md']);
  await store.enqueueMany('embed', ['item-1']);
  await store.enqueueMany('discover', ['item-2', 'item-3']);
  assert.deepEqual(workByKind(await store.jobCounts()), { reading: 3, extracting: 0, embedding: 1, relating: 2 });
});

test('a watcher batch is logged with the files that are gone as deleted, not changed', (t) => {
  const folder = tempDir(t);
  writeFileSync(path.join(folder, 'kept.md'), '# Kept\n');
  const present = (relative: string) => existsSync(path.join(folder, relative));
  assert.equal(describeBatch(['gone.md', 'kept.md'], present), 'changed kept.md; deleted gone.md');
  assert.equal(describeBatch(['gone.md'], present), 'deleted gone.md');
  assert.equal(describeBatch(['kept.md'], present), 'changed kept.md');
});
