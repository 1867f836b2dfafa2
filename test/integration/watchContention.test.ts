// The watcher under contention: another process holds the store's write lock for longer than
// the store waits, while files are edited. No change may be lost: the batch is kept, retried with
// backoff, merged with what is seen meanwhile, and served once the lock is released. Real
// chokidar, a real store, and a real second process holding `BEGIN IMMEDIATE`.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { dataDirFor, FolderSession, serialQueue } from '../../server/src/lsp/folderSession.ts';
import { DEFAULT_SERVER_SETTINGS } from '../../server/src/lsp/server.ts';
import { DATABASE_FILE } from '../../server/src/store/sqlite/sqliteStore.ts';
import { watchFolder, type WatchRetry } from '../../server/src/workspace/watch.ts';
import { eventually } from '../support/eventually.ts';
import { holdWriteLock } from '../support/holdWriteLock.ts';
import { startWatchProcess } from '../support/watchProcess.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

/** The store's words for `word`: the paths whose passages match it. */
async function pathsMatching(index: FolderIndex, word: string): Promise<string[]> {
  const hits = await index.store.searchChunksLexical(word, 10);
  const items = await Promise.all(hits.map((hit) => index.store.getItem(hit.itemId)));
  return items.map((item) => item!.path).sort();
}

/** Another process holding the store's write lock until the test lets go (or ends). */
async function holdWriteLockFor(t: TestContext, database: string): Promise<{ release(): Promise<void> }> {
  const lock = await holdWriteLock(database);
  t.after(async () => {
    if (lock.holding()) await lock.release();
  });
  return {
    async release() {
      assert.equal(await lock.release(), 0, 'the lock holder let go and exited');
    },
  };
}

test('an edit made while another process holds the write lock is kept, retried, and served once the lock is released', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'notes.md': '# Notes\n\nThe quarry is full of granite.\n' });
  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' } });
  await index.index();
  const retries: WatchRetry[] = [];
  const errors: Error[] = [];
  const started = performance.now();
  const watch = watchFolder(index, {
    debounceMs: 100,
    onRetry: (retry) => {
      retries.push(retry);
      t.diagnostic(`${((performance.now() - started) / 1000).toFixed(1)} s: ${retry.message} [${retry.paths.join(', ')}]`);
    },
    onError: (error) => errors.push(error),
  });
  // The watch first, then the store it writes to, before the folder is removed.
  t.after(async () => {
    await watch.close();
    await index.close();
  });
  await new Promise((resolve) => setTimeout(resolve, 500)); // let chokidar finish its initial walk

  const lock = await holdWriteLockFor(t, path.join(dataDir, DATABASE_FILE));
  writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nThe quarry is full of marble.\n');
  await eventually(async () => retries.length > 0, 'the watcher reports the busy store and a retry', 60_000);
  assert.match(retries[0]!.message, /^store busy: .*; will retry in \d+(\.\d)? s$/s);
  assert.deepEqual(retries[0]!.paths, ['notes.md'], 'the batch that could not be queued is the one kept');

  // Seen while the batch waits for its retry: merged into it, not queued behind it or dropped.
  writeFiles(folder, { 'later.md': '# Later\n\nA note about basalt.\n' });
  await eventually(async () => retries.some((retry) => retry.paths.includes('later.md')), 'the later change joins the kept batch', 60_000);

  let settled = false;
  const settling = watch.settled().then(() => {
    settled = true;
  });
  // Nothing can be processed while the lock is held, so nothing may claim to be settled.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(settled, false, 'settled() waits while changes are kept for a retry');

  const released = performance.now();
  await lock.release();
  await settling;
  t.diagnostic(
    `${retries.length} retries (waits ${retries.map((retry) => retry.delayMs / 1000).join(', ')} s) while locked; ` +
      `settled ${((performance.now() - released) / 1000).toFixed(1)} s after the release`,
  );
  assert.deepEqual(await pathsMatching(index, 'marble'), ['notes.md'], 'the edit is searchable');
  assert.deepEqual(await pathsMatching(index, 'granite'), [], 'the old text is no longer served');
  assert.deepEqual(await pathsMatching(index, 'basalt'), ['later.md'], 'the change seen meanwhile is searchable');
  assert.deepEqual(errors, [], 'a busy store is a retry, not an error');
  for (let i = 1; i < retries.length; i += 1) {
    assert.ok(retries[i]!.delayMs >= retries[i - 1]!.delayMs, 'the wait between retries never shrinks');
  }
  assert.ok(retries.every((retry) => retry.delayMs <= 10_000), 'and never exceeds 10 s');
  await watch.close();
  assert.deepEqual(errors, [], 'nothing was left unindexed when the watch closed');
});

test('a lock taken in the middle of a pass costs nothing: the pass is retried and no job is left leased', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'notes.md': '# Notes\n\nThe quarry is full of granite.\n' });
  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' } });
  await index.index();
  // A second connection, from this very process, takes the lock once the pass has ingested the edit
  // and claimed the parse job (a turn of the event loop later): the parse, running in its thread,
  // can then store nothing, and the pass's next claim meets the lock too. The store's busy wait
  // blocks this thread, so the lock outlives the pass's attempt, and its failure, both.
  const other = new Database(path.join(dataDir, DATABASE_FILE));
  t.after(() => other.close());
  let armed = false;
  let locked = false;
  const retries: WatchRetry[] = [];
  const watch = watchFolder(index, {
    debounceMs: 100,
    onProgress: (progress) => {
      if (armed && !locked && progress.last?.type === 'job-finished' && progress.last.job.stage === 'ingest') {
        locked = true;
        setImmediate(() => other.exec('BEGIN IMMEDIATE'));
      }
    },
    onRetry: (retry) => retries.push(retry),
  });
  t.after(async () => {
    await watch.close();
    await index.close();
  });
  await new Promise((resolve) => setTimeout(resolve, 500)); // let chokidar finish its initial walk

  armed = true;
  writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nThe quarry is full of marble.\n');
  await eventually(async () => retries.length > 0, 'the pass fails on the lock and is kept for a retry', 90_000);
  assert.ok(locked, 'the lock was taken during the pass');
  assert.match(retries[0]!.message, /^store busy: /);
  other.exec('COMMIT');
  await watch.settled();

  assert.deepEqual(await pathsMatching(index, 'marble'), ['notes.md'], 'the edit is searchable');
  assert.deepEqual(await pathsMatching(index, 'granite'), [], 'the old text is no longer served');
  assert.equal(await index.store.pendingJobs(), 0, 'no job is left queued or leased to the pass that failed');
  assert.equal((await index.store.getItemByPath('notes.md'))?.status, 'indexed');
  await watch.close();
});

test('the language server waits out a busy store, at its first run and in watch mode, shows why, and loses nothing', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'notes.md': '# Notes\n\nThe quarry is full of granite.\n' });
  const settings = { ...DEFAULT_SERVER_SETTINGS, dataLocation: path.join(root, 'data'), embeddingModel: 'none' };
  const logged: string[] = [];
  const session = new FolderSession('file:///folder', 'folder', folder, settings, {
    onChange: () => undefined,
    onProgress: () => undefined,
    onIndexed: () => undefined,
    log: (line) => logged.push(line),
  });
  t.after(() => session.close());

  // The store exists (another process made it), and that process is writing when the editor opens the folder.
  const first = await FolderIndex.open({ folder, dataDir: dataDirFor(folder, settings), embedding: { kind: 'none' } });
  const database = path.join(first.dataDir, DATABASE_FILE);
  await first.close();
  let lock = await holdWriteLockFor(t, database);
  const index = await session.start(serialQueue());
  if (!index) {
    await lock.release();
    t.skip(`the store could not be opened while another process writes (${session.reason}); opening it to read is another part of issue 14`);
    return;
  }
  assert.equal(index.dataDir, path.dirname(database));
  await eventually(async () => logged.some((line) => /store busy: .*; will retry in/s.test(line)), 'the first run reports the busy store', 60_000);
  assert.equal(session.state, 'indexing', 'a busy store is not a failed folder');
  assert.match((await session.status()).reason ?? '', /^store busy: /, 'the status says why indexing waits');
  await lock.release();
  await eventually(async () => session.state === 'watching', 'the first run finishes once the lock is released', 60_000);
  assert.deepEqual(await pathsMatching(index, 'granite'), ['notes.md']);
  assert.equal((await session.status()).reason, null);

  // The same in watch mode: an edit made while another process writes.
  await new Promise((resolve) => setTimeout(resolve, 500)); // let chokidar finish its initial walk
  lock = await holdWriteLockFor(t, database);
  const seen = logged.length;
  writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nThe quarry is full of marble.\n');
  await eventually(async () => logged.slice(seen).some((line) => /store busy: .*; will retry in .*\(1 change kept\)/s.test(line)), 'the watcher reports the busy store', 60_000);
  assert.match((await session.status()).reason ?? '', /^store busy: /);
  await lock.release();
  await eventually(async () => session.state === 'watching' && (await pathsMatching(index, 'marble')).length === 1, 'the edit is indexed after the release', 60_000);
  assert.deepEqual(await pathsMatching(index, 'granite'), [], 'the old text is no longer served');
  assert.equal((await session.status()).reason, null, 'the status no longer says it waits');
  await session.close();
});

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const needsBuild = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';

function cliSearch(data: string, word: string): string[] {
  const run = spawnSync(process.execPath, [CLI, 'search', word, '--data', data, '--embedding-model', 'none', '--json'], {
    encoding: 'utf8',
    env: { ...process.env, RELATA_WORKSPACE: 'watch-contention' },
  });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { results: { path: string }[] }).results.map((result) => result.path).sort();
}

test('relata index --watch says the store is busy, keeps the edit, and indexes it once the lock is released', { skip: needsBuild, timeout: 180_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'notes.md': '# Notes\n\nThe quarry is full of granite.\n' });
  const data = path.join(root, 'data');
  const watcher = await startWatchProcess(t, process.execPath, [CLI, 'index', folder, '--data', data, '--embedding-model', 'none', '--watch'], {
    ...process.env,
    RELATA_WORKSPACE: 'watch-contention',
  });
  await new Promise((resolve) => setTimeout(resolve, 1000)); // "watching" is printed before chokidar has listed the folder

  const lock = await holdWriteLockFor(t, path.join(data, DATABASE_FILE));
  writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nThe quarry is full of marble.\n');
  await eventually(
    async () => /store busy: process \d+ .* is writing to .*relata\.sqlite; will retry in [\d.]+ s \(1 change kept\)/s.test(watcher.stderr()),
    `the watcher says the store is busy and that it will retry (it said: ${watcher.stderr()})`,
    90_000,
  );
  assert.doesNotMatch(watcher.stderr(), /watch error/, 'a busy store is not reported as an error');
  assert.deepEqual(cliSearch(data, 'marble'), [], 'nothing is served before the lock is released');
  await lock.release();

  await eventually(async () => cliSearch(data, 'marble').includes('notes.md'), `the edit is searchable (the watcher said: ${watcher.stderr()})`, 90_000);
  assert.deepEqual(cliSearch(data, 'granite'), [], 'the old text is no longer served');
  assert.equal(await watcher.stop(), 0, 'the watcher stops cleanly');
  assert.doesNotMatch(watcher.stderr(), /not indexed before the watch stopped/);
});
