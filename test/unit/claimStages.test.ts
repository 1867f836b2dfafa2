// The SQLite store finds a stage's oldest claimable job by index (jobs_by_stage, migration 10), so a
// worker's claim does not read the thousands of ingest jobs a large folder queues ahead of it.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openStore } from '../../server/src/store/index.ts';
import { DATABASE_FILE } from '../../server/src/store/sqlite/sqliteStore.ts';
import { tempDir } from '../support/tempFolder.ts';

test('a claim for one stage seeks its oldest queued job through the jobs_by_stage index', async (t) => {
  const dataDir = path.join(tempDir(t), 'data');
  const store = openStore({ dataDir, workspace: 'plan' });
  await store.enqueueMany('ingest', Array.from({ length: 5000 }, (_, n) => `file-${n}.md`));
  await store.enqueue('parse', 'item-1');
  assert.equal((await store.claim('worker', 60_000, ['parse', 'chunk']))?.subject, 'item-1');
  await store.close();

  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  t.after(() => db.close());
  // The two look-ups of SqliteStore.oldestClaimable: a queued job, and a lease that has expired.
  for (const condition of ["status = 'queued' AND stage = @stage", "status = 'leased' AND stage = @stage AND lease_expires_at < @clock"]) {
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN SELECT * FROM jobs WHERE workspace = @ws AND ${condition} ORDER BY id LIMIT 1`)
      .all(condition.includes('@clock') ? { ws: 'plan', stage: 'parse', clock: Date.now() } : { ws: 'plan', stage: 'parse' }) as { detail: string }[];
    const details = plan.map((row) => row.detail).join('; ');
    assert.match(details, /SEARCH jobs USING INDEX jobs_by_stage \(workspace=\? AND stage=\? AND status=\?\)/, details);
    assert.doesNotMatch(details, /TEMP B-TREE/, 'no sort: the index gives id order');
  }
});

test('a claim for a file’s subjects takes its job ahead of the queue, found by the (stage, subject) key, and counts only its jobs as pending', async (t) => {
  const dataDir = path.join(tempDir(t), 'data');
  const store = openStore({ dataDir, workspace: 'plan' });
  await store.enqueueMany('ingest', Array.from({ length: 5000 }, (_, n) => `file-${n}.md`));
  await store.enqueue('parse', 'item-9');
  assert.equal(await store.pendingJobs(['file-4999.md', 'item-9']), 2);
  const first = await store.claim('reindex', 60_000, undefined, ['file-4999.md', 'item-9']);
  assert.equal(first?.subject, 'file-4999.md', 'the oldest of the file’s jobs, though 4,999 others wait ahead of it');
  assert.equal((await store.claim('reindex', 60_000, undefined, ['file-4999.md', 'item-9']))?.subject, 'item-9');
  assert.equal(await store.claim('reindex', 60_000, undefined, ['file-4999.md', 'item-9']), null, 'leased jobs are not claimed again');
  assert.equal(await store.pendingJobs(['file-4999.md', 'item-9']), 2, 'leased jobs are still pending until done');
  assert.equal(await store.pendingJobs(), 5001);
  await store.close();

  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  t.after(() => db.close());
  const plan = db
    .prepare(
      `EXPLAIN QUERY PLAN SELECT * FROM jobs WHERE workspace = @ws
         AND stage IN (SELECT value FROM json_each(@stages)) AND subject IN (SELECT value FROM json_each(@subjects))
         AND (status = 'queued' OR (status = 'leased' AND lease_expires_at < @clock)) ORDER BY id LIMIT 1`,
    )
    .all({ ws: 'plan', stages: '["ingest","parse"]', subjects: '["file-1.md"]', clock: Date.now() }) as { detail: string }[];
  const details = plan.map((row) => row.detail).join('; ');
  assert.match(details, /SEARCH jobs USING INDEX sqlite_autoindex_jobs_1 \(workspace=\? AND stage=\? AND subject=\?\)/, details);
});
