// WAL checkpoints in a thread of their own (store/sqlite/walCheckpoints.ts), with a real SQLite
// file and a real worker thread: the writer's connection stops checkpointing, the thread copies the
// log into the database meanwhile, and should the thread end the writer checkpoints again.

import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
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
