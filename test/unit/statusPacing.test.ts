// A busy server's status reports are spaced by what the last one cost to count, so on a large
// store (counts over 100,000 files, hundreds of thousands of jobs and vectors) they stay a small
// share of the thread that answers the editor; a small folder still hears every 400 ms.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STATUS_INTERVAL_MS, statusDelayMs } from '../../server/src/lsp/statusPacing.ts';

test('status reports come every 400 ms while they are cheap, and at most a twentieth of the time once they are not', () => {
  assert.equal(statusDelayMs(0), STATUS_INTERVAL_MS);
  assert.equal(statusDelayMs(5), STATUS_INTERVAL_MS, 'a 5 ms count is a small share at 400 ms');
  assert.equal(statusDelayMs(20), STATUS_INTERVAL_MS);
  assert.equal(statusDelayMs(30), 600, '30 ms of counting (100,000 files): one report in 600 ms');
  assert.equal(statusDelayMs(150), 3_000);
  for (const cost of [1, 10, 25, 60, 200, 1_000]) {
    assert.ok(cost / (cost + statusDelayMs(cost)) <= 1 / 20, `a ${cost} ms report takes at most a twentieth of the thread`);
  }
});
