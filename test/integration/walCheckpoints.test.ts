// WAL checkpoints in a thread of their own (store/sqlite/walCheckpoints.ts), with a real SQLite
// file and a real worker thread: the writer's connection stops checkpointing, the thread copies the
// log into the database meanwhile, and should the thread end the writer checkpoints again.

import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { Worker } from 'node:worker_threads';
import { checkpointInThread } from '../../server/src/store/sqlite/walCheckpoints.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `condition`, generously: the thread's pace depends on the machine's load, not the test's. */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !condition(); await sleep(50)) {
    if (Date.now() - started > 120_000) assert.fail(`not within two minutes: ${what}`);
  }
}

function writer(t: TestContext): { db: Database.Database; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'relata-wal-'));
  const file = path.join(dir, 'store.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE pages (body BLOB)');
  t.after(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, file };
}

const autocheckpoint = (db: Database.Database) => db.pragma('wal_autocheckpoint', { simple: true });
/** About 8 MB in one transaction: far past the 1,000 pages at which a connection would checkpoint itself. */
const writeMegabytes = (db: Database.Database) =>
  db.transaction(() => {
    const insert = db.prepare('INSERT INTO pages (body) VALUES (randomblob(65536))');
    for (let n = 0; n < 128; n += 1) insert.run();
  })();

test('the writer stops checkpointing and the thread copies its log into the database', async (t) => {
  const { db, file } = writer(t);
  const checkpoints = checkpointInThread(db, { file, busyMs: 5_000, intervalMs: 50 }, () => undefined);
  assert.equal(autocheckpoint(db), 0);
  writeMegabytes(db);
  await eventually(() => statSync(file).size > 8_000_000, 'the database file holds what the log held');
  await checkpoints.stop();
  assert.equal(autocheckpoint(db), 1_000, 'after the thread, the connection checkpoints itself again');
});

test('without the thread, the same writes stay in the log (what the thread is there to do)', (t) => {
  const { db, file } = writer(t);
  db.pragma('wal_autocheckpoint = 0');
  writeMegabytes(db);
  assert.ok(statSync(file).size < 1_000_000);
  assert.ok(statSync(`${file}-wal`).size > 8_000_000);
});

test('a thread that cannot open the store ends, is reported, and the writer checkpoints itself again', async (t) => {
  const { db, file } = writer(t);
  const log: string[] = [];
  checkpointInThread(db, { file: `${file}.missing`, busyMs: 5_000 }, (message) => log.push(message));
  await eventually(() => autocheckpoint(db) === 1_000, 'the writer checkpoints again');
  assert.match(log.join('\n'), /checkpoint thread failed/);
});

test('stopping after the thread has already ended returns at once, as does stopping twice', async (t) => {
  const { db, file } = writer(t);
  const checkpoints = checkpointInThread(db, { file: `${file}.missing`, busyMs: 5_000 }, () => undefined);
  await eventually(() => autocheckpoint(db) === 1_000, 'the thread has ended');
  // Before, stop() waited for an exit that had already happened, and the process's event loop ran dry.
  await checkpoints.stop();
  await checkpoints.stop();
  assert.equal(autocheckpoint(db), 1_000);
});

/** A thread reading the whole table again and again, as a discovery or search thread reads the store. */
function busyReader(t: TestContext, file: string): Worker {
  const reader = new Worker(
    `const Database = require('better-sqlite3');
     const { parentPort, workerData } = require('node:worker_threads');
     const db = new Database(workerData, { readonly: true });
     const scan = db.prepare('SELECT count(*) AS n, sum(length(body)) AS bytes FROM pages');
     let reading = true;
     parentPort.on('message', () => { reading = false; });
     (function again() { if (!reading) return db.close(); for (let n = 0; n < 20; n += 1) scan.get(); setImmediate(again); })();`,
    { eval: true, workerData: file },
  );
  t.after(() => reader.terminate());
  return reader;
}

const walBytes = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

test('with readers always at work, the log is emptied once it passes its limit rather than growing for ever', async (t) => {
  const { db, file } = writer(t);
  db.exec('INSERT INTO pages (body) VALUES (randomblob(65536))');
  const checkpoints = checkpointInThread(db, { file, busyMs: 5_000, intervalMs: 50, resetAfterPages: 256 }, () => undefined);
  t.after(() => checkpoints.stop());
  const readers = [busyReader(t, file), busyReader(t, file)];
  // ~16 MB written in small transactions while the two readers scan: 4,000 pages of log, 15 times the limit.
  for (let n = 0; n < 256; n += 1) {
    db.prepare('INSERT INTO pages (body) VALUES (randomblob(65536))').run();
    if (n % 16 === 15) await sleep(20);
  }
  // Readers keep reading; the log comes back under a few times its limit (256 pages, 1 MiB) while they do.
  await eventually(() => walBytes(file) < 4 * 256 * 4096, `the log emptied while read (now ${walBytes(file)} bytes)`);
  for (const reader of readers) reader.postMessage('stop');
});
