// The leased job queue, exercised on a real SQLite store.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { openStore } from '../../server/src/store/index.ts';
import { tempDir } from '../support/tempFolder.ts';

function freshStore(t: import('node:test').TestContext, workspace = 'alice') {
  const store = openStore({ dataDir: path.join(tempDir(t), 'data'), workspace });
  t.after(() => store.close());
  return store;
}

test('a job is claimed by one owner at a time', async (t) => {
  const store = freshStore(t);
  await store.enqueue('ingest', 'a.md');
  const first = await store.claim('host/1/a', 60_000);
  const second = await store.claim('host/2/b', 60_000);
  assert.equal(first?.subject, 'a.md');
  assert.equal(first?.attempts, 1);
  assert.equal(second, null);
});

test('a job whose lease expired is claimable by anyone', async (t) => {
  const store = freshStore(t);
  await store.enqueue('parse', 'item-1');
  const first = await store.claim('host/1/a', 1);
  await new Promise((resolve) => setTimeout(resolve, 10));
  const second = await store.claim('host/2/b', 60_000);
  assert.equal(second?.id, first?.id);
  assert.equal(second?.owner, 'host/2/b');
  assert.equal(second?.attempts, 2);
  // The first owner lost the lease: its completion must not mark the job done.
  await store.complete(first!, 'host/1/a');
  assert.equal((await store.listJobs())[0]?.status, 'leased');
});

test('renewing a lease keeps the job away from other workers', async (t) => {
  const store = freshStore(t);
  await store.enqueue('parse', 'item-1');
  const job = await store.claim('host/1/a', 30);
  assert.equal(await store.renew(job!.id, 'host/1/a', 60_000), true);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(await store.claim('host/2/b', 60_000), null);
  assert.equal(await store.renew(job!.id, 'host/2/b', 60_000), false, 'only the owner can renew');
});

test('a job that keeps failing stops at the attempt cap and fails its item with the reason', async (t) => {
  const store = freshStore(t);
  await store.recordIngest({ path: 'a.md', contentHash: 'a'.repeat(64), size: 3 }, () => true);
  const item = await store.getItemByPath('a.md');
  // recordIngest queued the parse job for the item.
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const job = await store.claim('host/1/a', 60_000);
    assert.equal(job?.stage, 'parse');
    const outcome = await store.fail(job!, 'host/1/a', `parse failed: disk hiccup ${attempt}`, {
      permanent: false,
      maxAttempts: 3,
    });
    assert.equal(outcome.gaveUp, attempt === 3);
  }
  assert.equal(await store.claim('host/1/a', 60_000), null);
  const failed = await store.getItem(item!.id);
  assert.equal(failed?.status, 'failed');
  assert.equal(failed?.reason, 'parse failed: disk hiccup 3');
  assert.equal((await store.listJobs())[0]?.lastError, 'parse failed: disk hiccup 3');
});

test('a change queued while a job runs is not lost: completion re-queues it', async (t) => {
  const store = freshStore(t);
  await store.enqueue('ingest', 'a.md');
  const job = await store.claim('host/1/a', 60_000);
  await store.enqueue('ingest', 'a.md');
  await store.complete(job!, 'host/1/a');
  const again = await store.claim('host/1/a', 60_000);
  assert.equal(again?.id, job!.id);
  await store.complete(again!, 'host/1/a');
  assert.equal(await store.claim('host/1/a', 60_000), null);
  assert.equal(await store.pendingJobs(), 0);
});

test('re-queuing a finished job arms it again with fresh attempts', async (t) => {
  const store = freshStore(t);
  await store.enqueue('ingest', 'a.md');
  const job = await store.claim('host/1/a', 60_000);
  await store.complete(job!, 'host/1/a');
  await store.enqueue('ingest', 'a.md');
  const jobs = await store.listJobs();
  assert.equal(jobs.length, 1, 'one job row per stage and subject');
  assert.equal(jobs[0]?.status, 'queued');
  assert.equal(jobs[0]?.attempts, 0);
});

test('every claim counts as an attempt, and re-queuing a waiting job does not start its attempts over', async (t) => {
  const store = freshStore(t);
  await store.enqueue('parse', 'item-1');
  // An indexer claims the job and dies; its lease is handed back; the job is queued again meanwhile.
  await store.claim('host/111/dead', 60_000);
  await store.releaseLeases((owner) => owner.includes('/dead'));
  await store.enqueue('parse', 'item-1');
  const second = await store.claim('host/222/next', 60_000);
  assert.equal(second?.attempts, 2);
  // The same while it waits for a retry after a failure.
  await store.fail(second!, 'host/222/next', 'parse failed: disk hiccup', { permanent: false, maxAttempts: 3 });
  await store.enqueue('parse', 'item-1');
  const [waiting] = await store.listJobs();
  assert.equal(waiting?.attempts, 2);
  assert.equal(waiting?.lastError, 'parse failed: disk hiccup');
  assert.equal((await store.claim('host/222/next', 60_000))?.attempts, 3);
});

test('leases of dead owners are handed back at once', async (t) => {
  const store = freshStore(t);
  await store.enqueueMany('ingest', ['a.md', 'b.md']);
  await store.claim('host/111/dead', 60_000);
  await store.claim('host/222/alive', 60_000);
  const released = await store.releaseLeases((owner) => owner.includes('/dead'));
  assert.equal(released, 1);
  const next = await store.claim('host/333/new', 60_000);
  assert.equal(next?.subject, 'a.md');
});

test('jobs of one workspace are invisible to another', async (t) => {
  const dataDir = path.join(tempDir(t), 'data');
  const alice = openStore({ dataDir, workspace: 'alice' });
  const bob = openStore({ dataDir, workspace: 'bob' });
  t.after(async () => {
    await alice.close();
    await bob.close();
  });
  await alice.enqueue('ingest', 'secret.md');
  assert.equal(await bob.claim('host/1/b', 60_000), null);
  assert.equal(await bob.pendingJobs(), 0);
  assert.equal(await alice.pendingJobs(), 1);
});
