// How long kept work waits before it is tried again, and what the person is told meanwhile.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeRetry, MAX_RETRY_MS, retryDelayMs } from '../../server/src/engine/storeRetry.ts';
import { isStoreBusy } from '../../server/src/store/transientFailure.ts';
import { StoreBusyError } from '../../server/src/store/storeBusy.ts';

test('the wait starts at half a second, doubles with each failure in a row, and stops at ten seconds', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 40].map(retryDelayMs), [500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  assert.equal(MAX_RETRY_MS, 10_000);
});

test('a busy store is recognised by its error, by SQLite\'s code, or by a cause that says so; other failures are not busy', () => {
  const sqliteBusy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  assert.equal(isStoreBusy(new StoreBusyError('/data/relata.sqlite', null, { cause: sqliteBusy })), true);
  assert.equal(isStoreBusy(sqliteBusy), true);
  assert.equal(isStoreBusy(new Error('ingest failed', { cause: Object.assign(new Error('locked'), { code: 'SQLITE_BUSY_SNAPSHOT' }) })), true);
  assert.equal(isStoreBusy(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })), false);
  assert.equal(isStoreBusy('database is locked'), false, 'a bare string is not an error from the store');
});

test('the message names the process and the store when they are known, and always the wait', () => {
  const busy = new StoreBusyError('/data/relata.sqlite', 'process 4242 (node relata index docs)', { cause: null });
  assert.equal(describeRetry(busy, 2000), 'store busy: process 4242 (node relata index docs) is writing to /data/relata.sqlite; will retry in 2 s');
  assert.equal(describeRetry(new StoreBusyError('/data/relata.sqlite', null, { cause: null }), 500), 'store busy: another process is writing to /data/relata.sqlite; will retry in 0.5 s');
  assert.equal(describeRetry(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), 10_000), 'store busy (database is locked); will retry in 10 s');
  assert.equal(describeRetry(new Error('database or disk is full'), 1000), 'database or disk is full; will retry in 1 s');
});
