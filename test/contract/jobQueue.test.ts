// The leased job queue, on every backend: one owner per job at a time, leases that expire and are
// renewed only by their owner, generations that keep a change queued while its job runs, the
// attempt cap, lost leases counted apart from attempts, and two workers (two handles, then two processes) never given the same job.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { JobRecord } from '../../server/src/store/contract.ts';
import { forEachBackend } from './backends.ts';
import { CRANE_HANDBOOK, indexDocument, ingest } from './documents.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

forEachBackend((backend) => {
  backend.test('a job is claimed by one owner at a time', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('ingest', 'a.md');
    const first = await store.claim('host/1/a', 60_000);
    const second = await store.claim('host/2/b', 60_000);
    assert.equal(first?.subject, 'a.md');
    assert.equal(first?.attempts, 1);
    assert.equal(second, null);
  });

  backend.test('a job whose lease expired is claimable by anyone, and the lost lease costs no attempt', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'item-1');
    const first = await store.claim('host/1/a', 1);
    assert.equal(first?.lostLeases, 0);
    await sleep(10);
    const second = await store.claim('host/2/b', 60_000);
    assert.equal(second?.id, first?.id);
    assert.equal(second?.owner, 'host/2/b');
    assert.equal(second?.attempts, 1, 'the first holder never reached an outcome: its attempt passes to this claim');
    assert.equal(second?.lostLeases, 1);
    // The first owner lost the lease: its completion must not mark the job done.
    await store.complete(first!, 'host/1/a');
    assert.equal((await store.listJobs())[0]?.status, 'leased');
  });

  backend.test('whether a job is claimable is answered as a claim would find it, and leases nothing', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('ingest', 'a.md');
    assert.equal(await store.hasClaimableJob(['parse', 'chunk']), false, 'only an ingest job waits');
    assert.equal(await store.hasClaimableJob(['ingest']), true);
    await store.enqueue('parse', 'item-1');
    assert.equal(await store.hasClaimableJob(['parse', 'chunk']), true);
    assert.equal(await store.hasClaimableJob(['parse'], ['item-2']), false, 'not a job of these subjects');
    assert.equal(await store.hasClaimableJob(['parse'], ['item-1']), true);
    assert.equal((await store.listJobs()).filter((job) => job.status === 'leased').length, 0, 'asking leased nothing');

    // A lease long enough that a loaded machine still asks within it, short enough to wait out.
    const parse = await store.claim('host/1/a', 1_000, ['parse']);
    assert.equal(parse?.subject, 'item-1');
    assert.equal(await store.hasClaimableJob(['parse']), false, 'its only job is leased');
    await sleep(1_100);
    assert.equal(await store.hasClaimableJob(['parse']), true, 'a lease that ran out is claimable again');
  });

  backend.test('renewing a lease keeps the job away from other workers', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'item-1');
    const job = await store.claim('host/1/a', 30);
    assert.equal(await store.renew(job!.id, 'host/1/a', 60_000), true);
    await sleep(50);
    assert.equal(await store.claim('host/2/b', 60_000), null);
    assert.equal(await store.renew(job!.id, 'host/2/b', 60_000), false, 'only the owner can renew');
  });

  backend.test('a job that keeps failing stops at the attempt cap and fails its item with the reason', async (t) => {
    const { store } = await backend.open(t);
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

  backend.test('a change queued while a job runs is not lost: completion re-queues it', async (t) => {
    const { store } = await backend.open(t);
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

  backend.test('re-queuing a finished job arms it again with fresh attempts', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('ingest', 'a.md');
    const job = await store.claim('host/1/a', 60_000);
    await store.complete(job!, 'host/1/a');
    await store.enqueue('ingest', 'a.md');
    const jobs = await store.listJobs();
    assert.equal(jobs.length, 1, 'one job row per stage and subject');
    assert.equal(jobs[0]?.status, 'queued');
    assert.equal(jobs[0]?.attempts, 0);
  });

  backend.test('a lease lost to a dead holder costs no attempt, and re-queuing a waiting job starts neither count over', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'item-1');
    // An indexer claims the job and dies; its lease is handed back; the job is queued again meanwhile.
    await store.claim('host/111/dead', 60_000);
    assert.equal(await store.releaseLeases((owner) => owner.includes('/dead')), 1);
    const [released] = await store.listJobs();
    assert.equal(released?.attempts, 0, 'the death was not the file\'s failure');
    assert.equal(released?.lostLeases, 1);
    await store.enqueue('parse', 'item-1');
    const second = await store.claim('host/222/next', 60_000);
    assert.equal(second?.attempts, 1);
    assert.equal(second?.lostLeases, 1, 'still known to have lost a lease: it runs alone');
    // A failure of its own spends the attempt, and re-queuing it while it waits for a retry keeps both counts.
    await store.fail(second!, 'host/222/next', 'parse failed: disk hiccup', { permanent: false, maxAttempts: 3 });
    await store.enqueue('parse', 'item-1');
    const [waiting] = await store.listJobs();
    assert.equal(waiting?.attempts, 1);
    assert.equal(waiting?.lostLeases, 1);
    assert.equal(waiting?.lastError, 'parse failed: disk hiccup');
    assert.equal((await store.claim('host/222/next', 60_000))?.attempts, 2);
  });

  backend.test('a job that completes forgets its lost leases, and so does one re-armed after it finished', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'item-1');
    await store.claim('host/111/dead', 60_000);
    await store.releaseLeases((owner) => owner.includes('/dead'));
    const job = (await store.claim('host/222/next', 60_000))!;
    assert.equal(job.lostLeases, 1);
    await store.complete(job, 'host/222/next');
    assert.equal((await store.listJobs())[0]?.lostLeases, 0);
    await store.claim('host/333/dead', 60_000).then(() => store.enqueue('parse', 'item-1'));
    await store.releaseLeases((owner) => owner.includes('/dead'));
    const again = (await store.claim('host/444/next', 60_000))!;
    await store.fail(again, 'host/444/next', 'parse failed: gone', { permanent: true, maxAttempts: 3 });
    await store.enqueue('parse', 'item-1');
    const [rearmed] = await store.listJobs();
    assert.equal(rearmed?.status, 'queued');
    assert.deepEqual([rearmed?.attempts, rearmed?.lostLeases], [0, 0]);
  });

  backend.test('a living owner hands back every lease it holds, spending no attempt and counting no loss', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueueMany('ingest', ['a.md', 'b.md', 'c.md']);
    await store.claim('host/1/stopping', 60_000);
    await store.claim('host/1/stopping', 60_000);
    await store.claim('host/2/other', 60_000);
    assert.equal(await store.handBackLeases('host/1/stopping'), 2);
    const jobs = await store.listJobs();
    assert.deepEqual(
      jobs.map((job) => [job.subject, job.status, job.attempts, job.lostLeases]),
      [
        ['a.md', 'queued', 0, 0],
        ['b.md', 'queued', 0, 0],
        ['c.md', 'leased', 1, 0],
      ],
    );
  });

  backend.test('leases of dead owners are handed back at once', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueueMany('ingest', ['a.md', 'b.md']);
    await store.claim('host/111/dead', 60_000);
    await store.claim('host/222/alive', 60_000);
    const released = await store.releaseLeases((owner) => owner.includes('/dead'));
    assert.equal(released, 1);
    const next = await store.claim('host/333/new', 60_000);
    assert.equal(next?.subject, 'a.md');
  });

  backend.test('jobs of one workspace are invisible to another', async (t) => {
    const site = backend.site(t);
    const { store: alice } = await site.open({ workspace: 'alice' });
    const { store: bob } = await site.open({ workspace: 'bob' });
    await alice.enqueue('ingest', 'secret.md');
    assert.equal(await bob.claim('host/1/b', 60_000), null);
    assert.equal(await bob.pendingJobs(), 0);
    assert.equal(await alice.pendingJobs(), 1);
  });

  // ---------------------------------------------------------------------------------------------

  backend.test('the oldest claimable job is claimed first, across stages', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueueMany('ingest', ['a.md', 'b.md']);
    await store.enqueue('parse', 'item-1');
    await store.enqueue('ingest', 'c.md');
    const order: string[] = [];
    for (let job = await store.claim('w', 60_000); job; job = await store.claim('w', 60_000)) order.push(`${job.stage} ${job.subject}`);
    assert.deepEqual(order, ['ingest a.md', 'ingest b.md', 'parse item-1', 'ingest c.md']);
  });

  backend.test('an expired lease is reclaimed before a younger queued job', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'older');
    await store.claim('host/1/gone', 1);
    await store.enqueue('parse', 'younger');
    await sleep(10);
    assert.equal((await store.claim('host/2/next', 60_000))?.subject, 'older');
    assert.equal((await store.claim('host/2/next', 60_000))?.subject, 'younger');
  });

  backend.test('enqueueing an existing job bumps its generation; enqueueMany queues every subject once', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueueMany('ingest', ['a.md', 'b.md', 'c.md']);
    const [first] = await store.listJobs();
    await store.enqueue('ingest', 'a.md');
    await store.enqueueMany('ingest', ['a.md', 'b.md']);
    const jobs = await store.listJobs();
    assert.deepEqual(jobs.map((job) => job.subject), ['a.md', 'b.md', 'c.md'], 'listed in queue order, one per subject');
    assert.ok(jobs.every((job) => job.status === 'queued'));
    assert.equal(jobs[0]!.generation, first!.generation + 2);
    assert.equal(jobs[1]!.generation, first!.generation + 1);
    assert.equal(jobs[2]!.generation, first!.generation);
    assert.equal(await store.pendingJobs(), 3);
  });

  backend.test('a lease can be renewed only while held: not after completion, not by another owner', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'item-1');
    const job = (await store.claim('host/1/a', 60_000))!;
    await store.complete(job, 'host/1/a');
    assert.equal(await store.renew(job.id, 'host/1/a', 60_000), false);
    assert.equal((await store.listJobs())[0]?.status, 'done');
    await store.enqueue('parse', 'item-1');
    const again = (await store.claim('host/2/b', 60_000))!;
    assert.equal(await store.renew(again.id, 'host/1/a', 60_000), false, 'the earlier owner holds nothing now');
    assert.equal(await store.renew(again.id, 'host/2/b', 60_000), true);
  });

  backend.test('completion by someone other than the lease holder changes nothing', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'item-1');
    const job = (await store.claim('host/1/a', 60_000))!;
    await store.complete(job, 'host/2/b');
    const [row] = await store.listJobs();
    assert.equal(row?.status, 'leased');
    assert.equal(row?.owner, 'host/1/a');
    await store.complete(job, 'host/1/a');
    const [done] = await store.listJobs();
    assert.equal(done?.status, 'done');
    assert.equal(done?.owner, null);
    assert.equal(done?.leaseExpiresAt, null);
    assert.equal(await store.pendingJobs(), 0);
  });

  backend.test('a permanent failure gives up at once and fails the item, dropping its passages', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const jobs = await store.listJobs();
    assert.ok(jobs.some((job) => job.stage === 'embed' && job.subject === document.itemId));
    let job: JobRecord | null;
    while ((job = await store.claim('w', 60_000)) && job.stage !== 'embed') await store.complete(job, 'w');
    assert.equal(job?.attempts, 1);
    const failure = await store.fail(job!, 'w', 'embed failed: model file is damaged', { permanent: true, maxAttempts: 3 });
    assert.deepEqual(failure, { gaveUp: true, itemId: document.itemId });
    const item = await store.getItem(document.itemId);
    assert.equal(item?.status, 'failed');
    assert.equal(item?.reason, 'embed failed: model file is damaged');
    assert.deepEqual(await store.listChunks(document.itemId), []);
    assert.equal((await store.listJobs()).find((row) => row.id === job!.id)?.status, 'failed');
  });

  backend.test('a stage that only enriches gives up without failing its item (failsItem false)', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    let job: JobRecord | null;
    while ((job = await store.claim('w', 60_000)) && job.stage !== 'extract') await store.complete(job, 'w');
    const failure = await store.fail(job!, 'w', 'extract failed: out of memory', { permanent: true, maxAttempts: 3, failsItem: false });
    assert.deepEqual(failure, { gaveUp: true, itemId: document.itemId });
    const item = await store.getItem(document.itemId);
    assert.equal(item?.status, 'indexed');
    assert.equal((await store.listChunks(document.itemId)).length, document.chunks.length);
  });

  backend.test('a failure reported by someone other than the lease holder is ignored', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'item-1');
    const job = (await store.claim('host/1/a', 60_000))!;
    const failure = await store.fail(job, 'host/2/b', 'not mine', { permanent: true, maxAttempts: 1 });
    assert.deepEqual(failure, { gaveUp: false, itemId: null });
    const [row] = await store.listJobs();
    assert.equal(row?.status, 'leased');
    assert.equal(row?.lastError, null);
  });

  backend.test('a job re-queued while it ran is retried with fresh attempts, even after a permanent failure', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'item-1');
    const job = (await store.claim('w', 60_000))!;
    // The file changed while it was parsed: the failure was about bytes that are gone.
    await store.enqueue('parse', 'item-1');
    const failure = await store.fail(job, 'w', 'parse failed: truncated file', { permanent: true, maxAttempts: 1 });
    assert.equal(failure.gaveUp, false);
    const [row] = await store.listJobs();
    assert.equal(row?.status, 'queued');
    assert.equal(row?.attempts, 0);
    assert.equal(row?.lastError, 'parse failed: truncated file');
  });

  backend.test('a first ingest that gives up leaves a failed item at its path with the reason', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('ingest', 'locked.md');
    const job = (await store.claim('w', 60_000))!;
    const failure = await store.fail(job, 'w', 'ingest failed: EACCES: permission denied', { permanent: true, maxAttempts: 3 });
    assert.equal(failure.gaveUp, true);
    const item = await store.getItemByPath('locked.md');
    assert.equal(failure.itemId, item?.id);
    assert.equal(item?.status, 'failed');
    assert.equal(item?.reason, 'ingest failed: EACCES: permission denied');
  });

  backend.test('counts, leases and the job list describe the queue as it is', async (t) => {
    const { store } = await backend.open(t);
    await ingest(store, 'a.md', '# A\n\nalpha\n');
    await store.enqueueMany('ingest', ['b.md', 'c.md']);
    const parse = (await store.claim('host/1/w', 60_000))!;
    assert.equal(parse.stage, 'parse');
    const ingestB = (await store.claim('host/1/w', 30_000))!;
    await store.complete(ingestB, 'host/1/w');
    await store.enqueue('discover', 'item-9');

    assert.equal(await store.pendingJobs(), 3, 'queued and leased jobs are pending; done ones are not');
    const counts = (await store.jobCounts()).map(({ stage, status, count }) => `${stage} ${status} ${count}`).sort();
    assert.deepEqual(counts, ['discover queued 1', 'ingest done 1', 'ingest queued 1', 'parse leased 1']);
    const leases = await store.leases();
    assert.equal(leases.length, 1);
    assert.equal(leases[0]!.jobId, parse.id);
    assert.equal(leases[0]!.stage, 'parse');
    assert.equal(leases[0]!.subject, parse.subject);
    assert.equal(leases[0]!.owner, 'host/1/w');
    assert.ok(leases[0]!.expiresInMs > 50_000 && leases[0]!.expiresInMs <= 60_000, `expires in ${leases[0]!.expiresInMs} ms`);
    const jobs = await store.listJobs();
    assert.deepEqual(jobs.map((job) => `${job.stage} ${job.subject} ${job.status}`), [
      `parse ${parse.subject} leased`,
      'ingest b.md done',
      'ingest c.md queued',
      'discover item-9 queued',
    ]);
    const leased = jobs[0]!;
    assert.equal(leased.owner, 'host/1/w');
    assert.ok(leased.leaseExpiresAt! > Date.now() + 50_000);
    assert.equal(leased.attempts, 1);
  });

  // Claims by stage and handing a job back are in claimStages.test.ts and handBack.test.ts.
  backend.test('a job no longer held, reclaimed by another or finished, is not handed back', async (t) => {
    const { store } = await backend.open(t);
    await store.enqueue('parse', 'item-1');
    const lost = (await store.claim('host/1/a', 1))!;
    await sleep(10);
    const reclaimed = (await store.claim('host/2/b', 60_000))!;
    assert.equal(await store.handBack(lost, 'host/1/a'), false, 'its lease expired and was taken');
    assert.equal((await store.listJobs())[0]?.owner, 'host/2/b');
    await store.complete(reclaimed, 'host/2/b');
    assert.equal(await store.handBack(reclaimed, 'host/2/b'), false, 'a finished job stays done');
    const [done] = await store.listJobs();
    assert.equal(done?.status, 'done');
    assert.equal(done?.attempts, 1, 'the lost lease spent no attempt');
  });

  backend.test('a scan of 5,000 files is queued once each, and the calling thread answers others while it is', async (t) => {
    const { store } = await backend.site(t).open();
    const subjects = Array.from({ length: 5_000 }, (_, n) => `notes/${n}.md`);
    // A request arriving during the scan: it is answered before the queueing is done, not after.
    let answeredDuring = false;
    let queued = false;
    setImmediate(() => (answeredDuring = !queued));
    await store.enqueueMany('ingest', [...subjects, subjects[0]!]);
    queued = true;
    assert.ok(answeredDuring, 'the event loop turned while the subjects were queued');
    const jobs = await store.listJobs();
    assert.equal(jobs.length, subjects.length);
    assert.deepEqual(new Set(jobs.map((job) => job.subject)), new Set(subjects));
  });

  backend.test('two handles on one store claiming at once never get the same job', async (t) => {
    const site = backend.site(t);
    const { store: first } = await site.open();
    const { store: second } = await site.open();
    const subjects = Array.from({ length: 40 }, (_, n) => `file-${n}.md`);
    await first.enqueueMany('ingest', subjects);
    const drain = async (store: typeof first, owner: string) => {
      const claimed: number[] = [];
      for (let job = await store.claim(owner, 60_000); job; job = await store.claim(owner, 60_000)) {
        claimed.push(job.id);
        await store.complete(job, owner);
      }
      return claimed;
    };
    const [a, b] = await Promise.all([drain(first, 'host/1/a'), drain(second, 'host/2/b')]);
    assert.equal(new Set([...a, ...b]).size, a.length + b.length, 'no job claimed twice');
    assert.equal(a.length + b.length, subjects.length, 'every job claimed');
    assert.ok((await first.listJobs()).every((job) => job.status === 'done'));
  });

  backend.test('two worker processes draining one queue never run the same job', async (t) => {
    const site = backend.site(t);
    const { store } = await site.open();
    const subjects = Array.from({ length: 100 }, (_, n) => `file-${n}.md`);
    await store.enqueueMany('ingest', subjects);
    const workers = ['host/1/a', 'host/2/b'].map((owner) => startWorker(JSON.stringify(site.location()), 'alice', owner));
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const [a, b] = await Promise.all(workers.map((worker) => worker.claimed));
    assert.ok(a!.length > 0 && b!.length > 0, `both workers claimed jobs (${a!.length} and ${b!.length})`);
    assert.equal(new Set([...a!, ...b!]).size, a!.length + b!.length, 'no job claimed twice');
    assert.equal(a!.length + b!.length, subjects.length, 'every job claimed once');
    const jobs = await store.listJobs();
    assert.ok(jobs.every((job) => job.status === 'done' && job.attempts === 1), 'each job ran once');
  });
});

const WORKER = path.join(import.meta.dirname, 'claimingWorker.ts');

/** A worker process (claimingWorker.ts) that opens the store, waits for "go", then drains the queue. */
function startWorker(location: string, workspace: string, owner: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, workspace, owner], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, RELATA_TEST_WORKER_LOCATION: location },
  });
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const next = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      void exited.then((code) => reject(new Error(`worker ${owner} exited (${code}) early`)));
    });
  const ready = next();
  return {
    ready,
    go: () => child.stdin!.write('go\n'),
    claimed: ready.then(next).then((line) => JSON.parse(line) as number[]),
  };
}
