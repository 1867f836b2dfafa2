// Run as its own process by holdWriteLock.ts: opens a store's database the way any SQLite client
// would, takes the write lock with BEGIN IMMEDIATE, prints what it holds as one JSON line, and lets
// go only when its stdin closes. Modes:
//   lock          the lock alone;
//   pending-wal   a change committed to the log but not checkpointed, then, inside the held
//                 transaction, enough uncommitted rows to spill pages into the log;
//   crash         commits `title` to the item at `path` without checkpointing and dies by SIGKILL,
//                 leaving the -wal and -shm files behind as a crashed writer does.

import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';

const [file, mode = 'lock', itemPath, title] = process.argv.slice(2);
if (!file) throw new Error('usage: writeLockProcess.ts <database> [lock|pending-wal|crash] [path title]');
const db = new Database(file, { timeout: 0 });
db.pragma('wal_autocheckpoint = 0');
/** The log exists once the database was first read; a store closed cleanly has none until then. */
const walBytes = () => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

if (mode === 'crash') {
  db.prepare('UPDATE items SET title = ? WHERE path = ?').run(title, itemPath);
  process.kill(process.pid, 'SIGKILL');
}
if (mode === 'pending-wal') {
  db.prepare("INSERT INTO meta (workspace, key, value) VALUES ('lock-holder', 'committed', 'in the log')").run();
  // A tiny page cache makes SQLite write the transaction's pages to the log before it commits.
  db.pragma('cache_size = 4');
}
const committedWalBytes = walBytes();
db.exec('BEGIN IMMEDIATE');
if (mode === 'pending-wal') {
  const insert = db.prepare("INSERT INTO meta (workspace, key, value) VALUES ('lock-holder', ?, ?)");
  for (let row = 0; row < 2_000; row += 1) insert.run(`pending-${row}`, 'x'.repeat(1_000));
}
process.stdout.write(`${JSON.stringify({ pid: process.pid, committedWalBytes, heldWalBytes: walBytes() })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  db.exec('ROLLBACK');
  db.close();
});
