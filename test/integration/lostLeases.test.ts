// A killed indexer is not its files' fault. The indexers that "die" here are lease owners named
// after this host and a process that has exited (a real pid, really gone), so the next drain finds
// them dead exactly as it finds a SIGKILLed `relata index`; the jobs they held lose their leases.
// A file in hand at a few kills is never given up; a job whose indexer keeps dying while it runs
// alone is, with a reason that says so; and a job that lost a lease runs with nothing beside it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { FolderIndex, stageContext } from '../../server/src/engine/folderIndex.ts';
import { Worker, type WorkerEvent } from '../../server/src/pipeline/worker.ts';
import { openStoreWithBlobs } from '../../server/src/store/index.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const NO_EMBEDDING = { kind: 'none' } as const;

/** A lease owner whose process has exited: what a SIGKILLed indexer leaves in the queue. */
function deadOwner(): string {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return `${hostname()}/${pid}/dead`;
}

const note = (topic: string) => `# ${topic}\n\nThe ${topic} inspection found nothing to repair. The ${topic} report was filed.\n`;

async function openFolder(t: TestContext, count: number) {
  const root = tempDir(t);
  const files = Object.fromEntries(Array.from({ length: count }, (_, n) => [`note-${n}.md`, note(`topic${n}`)]));
  const folder = writeFiles(path.join(root, 'folder'), files);
  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: NO_EMBEDDING, settings: { parseLanes: 2 } });
  t.after(() => index.close());
  return { index, folder, dataDir };
}

/** `kills` indexers in turn claim the oldest job and die holding it; the next drain finds each dead. */
async function killWhileHolding(index: FolderIndex, kills: number): Promise<string> {
  let subject = '';
  for (let kill = 0; kill < kills; kill += 1) {
    const job = await index.store.claim(deadOwner(), 60_000);
    subject = job!.subject;
    assert.equal(await index.store.releaseLeases((owner) => owner.endsWith('/dead')), 1);
  }
  return subject;
}

test('a file in hand at three kills of its indexer is indexed, not given up', async (t) => {
  const { index } = await openFolder(t, 3);
  await index.store.enqueueMany('ingest', ['note-0.md', 'note-1.md', 'note-2.md']);
  assert.equal(await killWhileHolding(index, 3), 'note-0.md', 'the same file was in hand every time');
  const report = await index.index();
  assert.equal(report.items.indexed, 3);
  assert.equal(report.items.failed, 0, JSON.stringify(report.files));
});

test('a job whose indexer dies every time it runs alone is given up after the cap, saying why', async (t) => {
  const { index } = await openFolder(t, 2);
  await index.store.enqueueMany('ingest', ['note-0.md', 'note-1.md']);
  // The first death makes the job a suspect; the next three happen while it runs alone.
  await killWhileHolding(index, 4);
  const failures: string[] = [];
  const report = await index.index({ onJobFailed: (failure) => failures.push(`${failure.job.subject}: ${failure.error}`) });
  const failed = report.files.find((file) => file.path === 'note-0.md');
  assert.equal(failed?.status, 'failed');
  assert.match(failed?.reason ?? '', /^gave up: the indexer running ingest on this file alone stopped 3 times without finishing it/);
  assert.equal(failures.length, 1, failures.join('\n'));
  assert.equal(report.files.find((file) => file.path === 'note-1.md')?.status, 'indexed', 'the other file is not blamed');
});

test('a job that lost its lease runs with no other job beside it', async (t) => {
  const { index, folder, dataDir } = await openFolder(t, 6);
  await index.index();
  const items = (await index.store.listItems()).sort((a, b) => a.path.localeCompare(b.path));
  // Every item is parsed again; the holder of the first two parse jobs dies.
  await index.store.enqueueMany('parse', items.map((item) => item.id));
  const dead = deadOwner();
  const suspects = [(await index.store.claim(dead, 60_000))!.subject, (await index.store.claim(dead, 60_000))!.subject];
  await index.close();

  const { store, blobs } = openStoreWithBlobs({ location: { backend: 'sqlite', dataDir }, workspace: 'alice' });
  const context = stageContext(store, blobs, folder, { embedding: NO_EMBEDDING, settings: { parseLanes: 2 } });
  t.after(async () => {
    await context.threads.close();
    await store.close();
  });
  const inFlight = new Set<number>();
  const overlaps: string[] = [];
  let parsesStarted = 0;
  const worker = new Worker(context, {
    onEvent: (event: WorkerEvent) => {
      if (event.type === 'job-started') {
        if (event.job.stage === 'parse') parsesStarted += 1;
        const alone = suspects.includes(event.job.subject) && event.job.stage === 'parse';
        if (alone && inFlight.size > 0) overlaps.push(`suspect ${event.job.subject} started beside ${inFlight.size} job(s)`);
        for (const id of inFlight) if (alone || suspectRunning(id)) overlaps.push(`job ${event.job.id} started while suspect job ${id} ran`);
        inFlight.add(event.job.id);
      } else {
        inFlight.delete(event.job.id);
      }
    },
  });
  const suspectJobIds = new Set((await store.listJobs()).filter((job) => job.stage === 'parse' && suspects.includes(job.subject)).map((job) => job.id));
  const suspectRunning = (id: number) => suspectJobIds.has(id);
  assert.equal(await worker.reclaimDeadLeases(), 2);
  await worker.runUntilIdle();
  assert.equal(parsesStarted, 6, 'every parse ran');
  assert.deepEqual(overlaps, []);
  const parseJobs = (await store.listJobs()).filter((job) => job.stage === 'parse');
  assert.ok(parseJobs.every((job) => job.status === 'done' && job.lostLeases === 0 && job.attempts === 1), JSON.stringify(parseJobs));
});

test('a job that lost its lease is not kept waiting behind a stream of embed jobs, which are claimed first', async (t) => {
  const { index, folder, dataDir } = await openFolder(t, 8);
  await index.index();
  const items = (await index.store.listItems()).sort((a, b) => a.path.localeCompare(b.path));
  await index.close();

  const { store, blobs } = openStoreWithBlobs({ location: { backend: 'sqlite', dataDir }, workspace: 'alice' });
  const context = stageContext(store, blobs, folder, { embedding: { kind: 'use-lite', threads: 1 }, settings: { parseLanes: 2 } });
  t.after(async () => {
    await context.threads.close();
    await context.embedder.close();
    await store.close();
  });
  // Every item waits to be embedded; the holder of the first item's extraction dies.
  await store.enqueueMany('embed', items.map((item) => item.id));
  await store.enqueue('extract', items[0]!.id);
  const suspect = (await store.claim(deadOwner(), 60_000, ['extract']))!;
  const started: string[] = [];
  const worker = new Worker(context, {
    onEvent: (event: WorkerEvent) => {
      if (event.type === 'job-started') started.push(`${event.job.stage} ${event.job.id}`);
    },
  });
  assert.equal(await worker.reclaimDeadLeases(), 1);
  await worker.runUntilIdle();
  const suspectAt = started.indexOf(`extract ${suspect.id}`);
  const embeds = started.flatMap((entry, at) => (entry.startsWith('embed ') ? [at] : []));
  assert.equal(embeds.length, items.length, 'every item was embedded');
  assert.ok(suspectAt >= 0 && suspectAt < embeds[1]!, `the suspect ran once the first embed job was done, not after all of them: ${started.join(', ')}`);
});
