// A full disk is the disk's fault, not the documents'. The data directory is put on a small tmpfs
// (a real file system that really fills up: no injected errors) and a folder larger than it is
// indexed by the built CLI: the run must stop with one message naming the data directory and the
// space it needs, exit non-zero, mark no file failed, and leave no lease behind; once the tmpfs is
// made larger, the next run must index every file with no "gave up" anywhere. Mounting needs root
// on Linux (CI runs as root on Debian); elsewhere the test is skipped and says why.

import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { seededRandom, markdownDocument } from '../support/generateCorpus.ts';
import { REPO_ROOT, writeFiles } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const WORKSPACE = 'disk-full';
const MEGABYTE = 1024 * 1024;

/** Why a tmpfs cannot be mounted here, or null when it can (tried for real, then unmounted). */
function whyNoTmpfs(probe: string): string | null {
  if (process.platform !== 'linux') return `tmpfs needs Linux (this is ${process.platform})`;
  mkdirSync(probe, { recursive: true });
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { encoding: 'utf8' });
  if (mounted.status !== 0) return `cannot mount a tmpfs here (${(mounted.stderr || mounted.error?.message || 'mount failed').trim()}): run as root to test a real full disk`;
  spawnSync('umount', [probe]);
  return null;
}

function relata(args: string[]) {
  const environment: NodeJS.ProcessEnv = { ...process.env, RELATA_WORKSPACE: WORKSPACE };
  for (const name of ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT', 'RELATA_EMBEDDING_MODEL']) delete environment[name];
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: environment, timeout: 600_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Files of about `bytes` each, varied text, so each is stored, chunked and indexed for real. */
function writeBigFolder(folder: string, count: number, bytes: number): void {
  const random = seededRandom(149);
  const files: Record<string, string> = {};
  for (let n = 0; n < count; n += 1) {
    let text = '';
    for (let part = 0; text.length < bytes; part += 1) text += `${markdownDocument(random, n * 1000 + part)}\n\n`;
    files[`big-${n}.md`] = text;
  }
  writeFiles(folder, files);
}

function storeState(dataDir: string) {
  const db = new Database(path.join(dataDir, 'relata.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return {
      failed: db.prepare(`SELECT path, reason FROM items WHERE workspace = ? AND status = 'failed'`).all(WORKSPACE) as { path: string; reason: string }[],
      leased: (db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE workspace = ? AND status = 'leased'`).get(WORKSPACE) as { n: number }).n,
      failedJobs: db.prepare(`SELECT stage, subject, last_error FROM jobs WHERE workspace = ? AND status = 'failed'`).all(WORKSPACE),
      indexed: (db.prepare(`SELECT COUNT(*) AS n FROM items WHERE workspace = ? AND status = 'indexed' AND deleted_at IS NULL`).get(WORKSPACE) as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

test('a full disk stops the run with one message and blames no file; the next run after space is freed finishes', {
  timeout: 15 * 60_000,
}, (t) => {
  if (!existsSync(CLI)) return t.skip('dist/cli.js is missing: run `npm run build` first');
  const root = mkdtempSync(path.join(tmpdir(), 'relata-diskfull-'));
  const mountPoint = path.join(root, 'tmpfs');
  // Unmounted before the folder is removed (a mounted directory cannot be).
  t.after(() => {
    spawnSync('umount', [mountPoint]);
    rmSync(root, { recursive: true, force: true });
  });
  const why = whyNoTmpfs(path.join(root, 'probe'));
  if (why) {
    t.diagnostic(why);
    return t.skip(why);
  }
  mkdirSync(mountPoint);
  assert.equal(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mountPoint]).status, 0);
  const folder = path.join(root, 'folder');
  // 7 files of 0.75 MB: 5.25 MB of originals alone, on a 3 MB disk.
  writeBigFolder(folder, 7, 0.75 * MEGABYTE);
  const dataDir = path.join(mountPoint, 'data');

  const full = relata(['index', folder, '--data', dataDir, '--embedding-model', 'none']);
  assert.notEqual(full.code, 0, `a run that could not store the folder does not succeed:\n${full.stdout}\n${full.stderr}`);
  const messages = full.stderr.split('\n').filter((line) => /full/i.test(line));
  assert.equal(messages.length, 1, `one message about the full disk:\n${full.stderr}`);
  const [message] = messages as [string];
  assert.ok(message.includes(dataDir), `the message names the data directory: ${message}`);
  assert.match(message, /\d+(\.\d+)? MB/, `the message says how much space is needed: ${message}`);
  assert.doesNotMatch(`${full.stdout}\n${full.stderr}`, /gave up|failed {2,}/, 'no file is reported failed');

  const afterFull = storeState(dataDir);
  assert.deepEqual(afterFull.failed, [], 'no file is marked failed because of the disk');
  assert.deepEqual(afterFull.failedJobs, [], 'no job failed for good because of the disk');
  assert.equal(afterFull.leased, 0, 'no lease is left behind by the process that stopped');

  // Space is freed: the same tmpfs, made large enough.
  assert.equal(spawnSync('mount', ['-o', 'remount,size=200m', mountPoint]).status, 0);
  const freed = relata(['index', folder, '--data', dataDir, '--embedding-model', 'none', '--json']);
  assert.equal(freed.code, 0, freed.stderr);
  assert.doesNotMatch(`${freed.stdout}\n${freed.stderr}`, /gave up/);
  const report = JSON.parse(freed.stdout);
  assert.deepEqual(report.failed_jobs, []);
  assert.equal(report.items.indexed, 7, JSON.stringify(report.files.filter((file: { status: string }) => file.status !== 'indexed')));
  const afterFreed = storeState(dataDir);
  assert.deepEqual(afterFreed.failed, []);
  assert.equal(afterFreed.indexed, 7);
  assert.equal(afterFreed.leased, 0);
});
