// WAL checkpoints in a worker thread of their own (walCheckpoints.ts starts it). It opens its own
// connection to the store's file and, every few seconds, copies what the write-ahead log holds into
// the database (a PASSIVE checkpoint: it never waits for a reader or a writer), so the log stays
// small without the writer's own connection doing it at the end of a transaction.
// Bundled by esbuild as dist/walCheckpointThread.js; see ../../embed/workerThread.ts.

import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface WalCheckpointThreadData {
  file: string;
  intervalMs: number;
  /** SQLite's busy timeout for this connection. */
  busyMs: number;
}

if (parentPort === null) throw new Error('walCheckpointThread must run in a worker thread');
const port = parentPort;
const { file, intervalMs, busyMs } = workerData as WalCheckpointThreadData;

const db = new Database(file, { timeout: busyMs, fileMustExist: true });
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)');
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
