// A job handed back because the store could not be reached (pipeline/worker.ts) returns to the
// queue with the attempt its claim took given back: the document was not at fault, so an outage
// must never bring it closer to "gave up after 3 attempts".

import assert from 'node:assert/strict';
import { forEachBackend } from './backends.ts';

forEachBackend((backend) => {
  backend.test('a handed-back job is queued again with its attempt given back', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('embed', 'item-1');
    const first = await store.claim('host/1/a', 60_000);
    assert.equal(first?.attempts, 1);
    assert.equal(await store.handBack(first!, 'host/1/a'), true);
    const [job] = await store.listJobs();
    assert.equal(job?.status, 'queued');
    assert.equal(job?.owner, null);
    assert.equal(job?.attempts, 0);
    // Claimed again, it is on its first attempt, not its second.
    assert.equal((await store.claim('host/2/b', 60_000))?.attempts, 1);
  });

  backend.test('only the lease holder can hand a job back', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'item-1');
    const job = await store.claim('host/1/a', 60_000);
    assert.equal(await store.handBack(job!, 'host/2/b'), false);
    const [stored] = await store.listJobs();
    assert.equal(stored?.status, 'leased');
    assert.equal(stored?.owner, 'host/1/a');
    assert.equal(stored?.attempts, 1);
  });
});
