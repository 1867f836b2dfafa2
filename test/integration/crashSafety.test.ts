// Crash safety: SIGKILL the real `relata index` process at random moments while it indexes 300
// generated files, restart it, five times over; the store it finally holds must equal that of
// an uninterrupted run. Runs the built CLI (npm test builds it first).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { seededRandom, writeCorpus } from '../support/generateCorpus.ts';
import { runAndKill } from '../support/killMidRun.ts';
import { snapshotStore } from '../support/storeSnapshot.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const KILLS = 5;

function indexSync(folder: string, dataDir: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, [CLI, 'index', folder, '--data', dataDir, '--workspace', 'crash', '--embedding-model', 'none', '--json'], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return performance.now() - started;
}

/** Starts an indexer and SIGKILLs it after `delayMs`; resolves with whether it was still running. */
const indexAndKill = (folder: string, dataDir: string, delayMs: number): Promise<boolean> =>
  runAndKill([CLI, 'index', folder, '--data', dataDir, '--workspace', 'crash', '--embedding-model', 'none', '--json'], delayMs);

test('an indexer killed at random moments ends with the same store as an uninterrupted run', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
  timeout: 10 * 60_000,
}, async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'folder');
  writeCorpus(folder, 300, 42);

  const reference = path.join(root, 'reference');
  const fullRunMs = indexSync(folder, reference);

  const seed = Number(process.env.RELATA_CRASH_SEED ?? Date.now() % 100_000);
  const random = seededRandom(seed);
  const crashed = path.join(root, 'crashed');
  const killsMidRun: boolean[] = [];
  for (let attempt = 0; attempt < KILLS; attempt += 1) {
    // Early enough that every restart still has work in hand (it re-checks all 300 files).
    const delay = 100 + random() * 0.4 * fullRunMs;
    killsMidRun.push(await indexAndKill(folder, crashed, delay));
  }
  t.diagnostic(`seed ${seed}; full run ${Math.round(fullRunMs)} ms; killed mid-run ${killsMidRun.filter(Boolean).length}/${KILLS}`);
  assert.ok(killsMidRun.some(Boolean), 'at least one kill landed while the indexer was working');
  indexSync(folder, crashed);

  const expected = snapshotStore(reference, 'crash');
  const actual = snapshotStore(crashed, 'crash');
  assert.equal(expected.items.length, 300);
  assert.deepEqual(actual.items, expected.items, 'same items, statuses, hashes, versions');
  assert.deepEqual(actual.chunkIds, expected.chunkIds, 'same chunk ids');
  for (const snapshot of [expected, actual]) {
    assert.equal(snapshot.orphanChunks, 0, 'no orphan chunks');
    assert.equal(snapshot.duplicateLivePaths, 0, 'no duplicate items');
    assert.equal(snapshot.leasedJobs, 0, 'no job left leased');
    assert.equal(snapshot.unfinishedJobs, 0, 'queue drained');
    assert.equal(snapshot.chunkFtsRows, snapshot.chunkRows, 'lexical index matches the chunks');
  }
});
