// Claims limited to some stages, on every backend: `relata worker` asks for every stage but ingest
// (which must run where the files are) and `relata index --ingest-only` for ingest alone. Each gets
// the oldest claimable job of its stages, whatever other stages have waiting ahead of it. The
// worker's loop claims with its stages in order of preference (claimFirst).

import assert from 'node:assert/strict';
import { forEachBackend } from './backends.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const AFTER_INGEST = ['parse', 'chunk', 'embed', 'extract', 'discover'] as const;

forEachBackend((backend) => {
  backend.test('a claim for some stages takes their oldest job and never one of another stage', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueueMany('ingest', ['a.md', 'b.md', 'c.md']);
    await store.enqueue('extract', 'item-2');
    await store.enqueue('parse', 'item-1');
    const order: string[] = [];
    for (let job = await store.claim('worker', 60_000, AFTER_INGEST); job; job = await store.claim('worker', 60_000, AFTER_INGEST)) {
      order.push(`${job.stage} ${job.subject}`);
    }
    assert.deepEqual(order, ['extract item-2', 'parse item-1'], 'oldest first among the stages asked for, whatever order they are named in');
    const ingest = (await store.listJobs()).filter((job) => job.stage === 'ingest');
    assert.deepEqual(ingest.map((job) => [job.status, job.attempts]), [['queued', 0], ['queued', 0], ['queued', 0]], 'ingest jobs untouched');
    assert.equal((await store.claim('indexer', 60_000, ['ingest']))?.subject, 'a.md');
  });

  backend.test('claimFirst takes the first stage in the order given that has a job, however old the others are', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueueMany('ingest', ['a.md']);
    await store.enqueue('parse', 'item-1');
    await store.enqueue('embed', 'item-2');
    await store.enqueue('embed', 'item-3');
    const order: string[] = [];
    for (let job = await store.claimFirst('worker', 60_000, ['embed', 'parse', 'ingest']); job; job = await store.claimFirst('worker', 60_000, ['embed', 'parse', 'ingest'])) {
      order.push(`${job.stage} ${job.subject}`);
    }
    assert.deepEqual(order, ['embed item-2', 'embed item-3', 'parse item-1', 'ingest a.md'], 'the stages in the order asked, each stage oldest first');
    assert.ok((await store.listJobs()).every((job) => job.status === 'leased' && job.attempts === 1), 'each job leased once');
    assert.equal(await store.claimFirst('worker', 60_000, []), null);
    await store.enqueue('parse', 'item-4');
    await store.enqueue('parse', 'item-5');
    assert.equal((await store.claimFirst('worker', 60_000, ['chunk', 'parse'], ['item-5']))?.subject, 'item-5', 'only the subjects asked for');
  });

  backend.test('an expired lease is reclaimed only by a claim for its stage', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('ingest', 'a.md');
    await store.claim('host/1/gone', 1, ['ingest']);
    await sleep(10);
    assert.equal(await store.claim('worker', 60_000, AFTER_INGEST), null, 'a worker does not take over an ingest job');
    const reclaimed = await store.claim('indexer', 60_000, ['ingest']);
    assert.equal(reclaimed?.subject, 'a.md');
    // The lease ran out with its holder: the loss is counted, not an attempt of the file's.
    assert.equal(reclaimed?.attempts, 1);
    assert.equal(reclaimed?.lostLeases, 1);
  });

  backend.test('a claim for no stage at all finds nothing; one without stages takes any', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('discover', 'item-1');
    assert.equal(await store.claim('worker', 60_000, []), null);
    assert.equal((await store.claim('worker', 60_000))?.stage, 'discover');
  });
});
