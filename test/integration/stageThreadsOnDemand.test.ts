// Stage threads cost about a second of CPU to start, two of them. A worker starts them when a job
// of theirs (parse, chunk, extract) waits, before claiming it, and not for a run that has nothing
// for them: an unchanged folder's files are read and found unchanged without any thread.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex, stageContext } from '../../server/src/engine/folderIndex.ts';
import { Worker } from '../../server/src/pipeline/worker.ts';
import { openStoreWithBlobs } from '../../server/src/store/index.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const NO_EMBEDDING = { kind: 'none' } as const;

test('a run with nothing to parse starts no stage thread; one with a changed file starts them before its parse', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    'crane.md': '# Crane\n\nThe crane inspection found a worn cable.\n',
    'forklift.md': '# Forklift\n\nThe forklift passed its inspection.\n',
  });
  const dataDir = path.join(root, 'data');
  const first = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: NO_EMBEDDING, settings: { parseLanes: 2 } });
  assert.equal((await first.index()).items.indexed, 2);
  await first.close();

  const { store, blobs } = openStoreWithBlobs({ location: { backend: 'sqlite', dataDir }, workspace: 'alice' });
  const context = stageContext(store, blobs, folder, { embedding: NO_EMBEDDING, settings: { parseLanes: 2 } });
  t.after(async () => {
    await context.threads.close();
    await store.close();
  });
  const stagesRun: string[] = [];
  const worker = new Worker(context, {
    onEvent: (event) => {
      if (event.type === 'job-started') stagesRun.push(`${event.job.stage}:${context.threads.running}`);
    },
  });

  await store.enqueueMany('ingest', ['crane.md', 'forklift.md']);
  await worker.runUntilIdle();
  assert.deepEqual(stagesRun, ['ingest:0', 'ingest:0'], 'both files read and found unchanged');
  assert.equal(context.threads.running, 0, 'no stage thread was started');

  writeFileSync(path.join(folder, 'crane.md'), '# Crane\n\nThe crane cable was replaced on 3 March.\n');
  stagesRun.length = 0;
  await store.enqueue('ingest', 'crane.md');
  await worker.runUntilIdle();
  assert.equal(stagesRun[0], 'ingest:0');
  const parse = stagesRun.find((entry) => entry.startsWith('parse:'));
  assert.equal(parse, 'parse:2', `the threads were started before the parse was claimed: ${stagesRun.join(', ')}`);
  assert.equal((await store.getItemByPath('crane.md'))?.status, 'indexed');
});
