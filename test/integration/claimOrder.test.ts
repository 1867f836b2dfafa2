// Each kind of job claims its own (pipeline/worker.ts): the stage-thread lanes do not wait for a
// long ingest queue to be claimed, a file already on its way is finished before another is
// started, and files are read no further ahead of embedding than READ_AHEAD. In a folder of
// 100,000 files the oldest-job-first order made the first file searchable only after nine minutes,
// once every file had been hashed and every file parsed (docs/PERFORMANCE.md).

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { stageContext } from '../../server/src/engine/folderIndex.ts';
import { Worker } from '../../server/src/pipeline/worker.ts';
import { openStoreWithBlobs } from '../../server/src/store/index.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const FILES = 16;

function notes(): Record<string, string> {
  const topics = ['crane', 'forklift', 'sprinkler', 'conveyor'];
  return Object.fromEntries(
    Array.from({ length: FILES }, (_, n) => {
      const topic = topics[n % topics.length]!;
      const body = Array.from({ length: 6 }, (_, s) => `The ${topic} in bay ${n} was inspected on day ${s + 1} and its report filed.`).join(' ');
      return [`note-${String(n).padStart(2, '0')}.md`, `# ${topic} ${n}\n\n${body}\n`];
    }),
  );
}

test('a worker moves each file on through its stages while others wait to be read', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), notes());
  const { store, blobs } = openStoreWithBlobs({ location: { backend: 'sqlite', dataDir: path.join(root, 'data') }, workspace: 'alice' });
  const context = stageContext(store, blobs, folder, { embedding: { kind: 'none' }, settings: { parseLanes: 2 } });
  t.after(async () => {
    await context.threads.close();
    await store.close();
  });

  const started: string[] = [];
  const worker = new Worker(context, {
    onEvent: (event) => {
      const { stage, subject } = event.job;
      if (event.type === 'job-started') started.push(`${stage} ${subject}`);
    },
  });
  await store.enqueueMany('ingest', Object.keys(notes()));
  await worker.runUntilIdle();

  const position = (stage: string, nth = 0) => started.map((entry, index) => (entry.startsWith(`${stage} `) ? index : -1)).filter((index) => index >= 0)[nth]!;
  assert.equal(started.filter((entry) => entry.startsWith('ingest ')).length, FILES, 'every file was read');
  assert.ok(position('parse') < position('ingest', 1), `the first file is parsed before the second is read: ${started.slice(0, 6).join(', ')}`);
  assert.ok(position('chunk') < position('parse', 2), `a parsed file is chunked before a third file is parsed: ${started.slice(0, 12).join(', ')}`);
  const items = await store.listItems();
  assert.equal(items.filter((item) => item.status === 'indexed').length, FILES);
  assert.equal(await store.pendingJobs(), 0);
});

test('a worker reads no further ahead of embedding than it is allowed, and reads every file', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), notes());
  const { store, blobs } = openStoreWithBlobs({ location: { backend: 'sqlite', dataDir: path.join(root, 'data') }, workspace: 'alice' });
  const context = stageContext(store, blobs, folder, { embedding: { kind: 'use-lite', threads: 1 }, settings: { parseLanes: 2 } });
  t.after(async () => {
    await context.threads.close();
    await context.embedder.close();
    await store.close();
  });
  await context.embedder.get(); // loaded before the run, so embedding is as slow as it is, no slower
  const readAhead = 2;
  let awaiting = 0;
  let mostAwaiting = 0;
  const worker = new Worker(context, {
    readAhead,
    onEvent: (event) => {
      if (event.type !== 'job-finished') return;
      if (event.job.stage === 'chunk') awaiting += 1;
      if (event.job.stage === 'embed') awaiting -= 1;
      mostAwaiting = Math.max(mostAwaiting, awaiting);
    },
  });
  await store.enqueueMany('ingest', Object.keys(notes()));
  await worker.runUntilIdle();

  // Past the allowance, at most what was on its way already: a file being read, one per stage lane.
  assert.ok(mostAwaiting <= readAhead + 3, `at most ${readAhead + 3} files chunked and waiting for their vectors at once, not ${mostAwaiting}`);
  assert.equal((await store.listItems()).filter((item) => item.status === 'indexed').length, FILES);
  assert.equal(await store.pendingJobs(), 0);
});
