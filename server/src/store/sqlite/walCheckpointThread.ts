// WAL checkpoints in a worker thread of their own (walCheckpoints.ts starts it). It opens its own
// connection to the store's file and, every few seconds, copies what the write-ahead log holds into
// the database (a PASSIVE checkpoint: it never waits for a reader or a writer), without the
// writer's own connection doing it at the end of a transaction.
//
// Copying is not emptying: SQLite starts the log over only when a writer finds it wholly copied and
// no reader still reading from it, and while a folder is discovered and searched some reader
// always is (two discovery threads, two search threads). The log then only grew: 4.3 GB beside a
// 725 MB database in a cold index of 10,000 notes (docs/PERFORMANCE.md). Past RESET_AFTER_PAGES the
// thread asks for a TRUNCATE checkpoint, which waits for the readers of the log to finish (new ones
// read the database) and empties the file; it holds back writers while it waits, so it waits at
// most RESET_WAIT_MS and tries again at the next interval.
// Bundled by esbuild as dist/walCheckpointThread.js; see ../../embed/workerThread.ts.

import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface WalCheckpointThreadData {
  file: string;
  intervalMs: number;
  /** SQLite's busy timeout for this connection. */
  busyMs: number;
  /** Pages in the log past which it is emptied (default RESET_AFTER_PAGES). */
  resetAfterPages?: number;
}

/** 16,384 pages: 64 MiB of log at SQLite's 4 KiB pages. */
const RESET_AFTER_PAGES = 16_384;
/** Longest a TRUNCATE checkpoint waits for the log's readers, holding back writers meanwhile. */
const RESET_WAIT_MS = 200;

if (parentPort === null) throw new Error('walCheckpointThread must run in a worker thread');
const port = parentPort;
const { file, intervalMs, busyMs, resetAfterPages = RESET_AFTER_PAGES } = workerData as WalCheckpointThreadData;

const db = new Database(file, { timeout: busyMs, fileMustExist: true });
type CheckpointResult = { busy: number; log: number; checkpointed: number };
const checkpoint = () => {
  const [passive] = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[];
  if (!passive || passive.log < resetAfterPages) return;
  db.pragma(`busy_timeout = ${RESET_WAIT_MS}`);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)'); // busy = 1 when a reader stayed: the next interval tries again.
  } catch {
    // SQLITE_BUSY while a writer held on: the next interval tries again.
  } finally {
    db.pragma(`busy_timeout = ${busyMs}`);
  }
};
const timer = setInterval(checkpoint, intervalMs);

port.on('message', (message: { type: 'close' }) => {
  if (message.type !== 'close') return;
  clearInterval(timer);
  try {
    checkpoint();
  } finally {
    db.close();
    port.close();
  }
});
