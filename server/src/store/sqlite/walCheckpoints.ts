// Who copies the write-ahead log into the database. By default SQLite does it on the writing
// connection, at the end of the transaction that takes the log past 1,000 pages: then that one
// commit copies and syncs megabytes. In the language server the writer is the main thread, which
// also reads every request, and those commits were 36% of its waits of 250 ms or more while a
// folder of 2,000 files was indexed (docs/PERFORMANCE.md). There the writer's connection stops
// checkpointing and a thread of its own does it every few seconds; should that thread end, the
// writer checkpoints again as before, so the log never grows without bound.

import type Database from 'better-sqlite3';
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../embed/workerThread.ts';
import type { WalCheckpointThreadData } from './walCheckpointThread.ts';

/** SQLite's default: a checkpoint when a commit leaves more than this many pages in the log. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
const INTERVAL_MS = 2_000;
const CLOSE_GRACE_MS = 5_000;

export interface WalCheckpoints {
  /** Ends the thread after a last checkpoint; the writer's connection checkpoints itself again. */
  stop(): Promise<void>;
}

export function checkpointInThread(
  db: Database.Database,
  data: Omit<WalCheckpointThreadData, 'intervalMs'> & { intervalMs?: number },
  log: (message: string) => void,
): WalCheckpoints {
  const worker: Worker = startWorkerThread(
    { source: new URL('./walCheckpointThread.ts', import.meta.url), bundled: 'walCheckpointThread.js' },
    { workerData: { intervalMs: INTERVAL_MS, ...data } satisfies WalCheckpointThreadData },
  );
  // The thread never keeps a process alive; the store's close() ends it.
  worker.unref();
  // Listened for from the start: a thread that ended early must not leave stop() waiting for ever.
  const exited = once(worker, 'exit').then(
    () => undefined,
    () => undefined,
  );
  db.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  let ended = false;
  const checkpointHere = () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  };
  worker.on('error', (error) => {
    if (!stopping) log(`the store's checkpoint thread failed (${error.message}); the store checkpoints on its own connection again`);
  });
  worker.on('exit', () => {
    ended = true;
    if (!stopping) checkpointHere();
  });
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      if (!ended) {
        worker.ref();
        worker.postMessage({ type: 'close' });
        const overdue = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
        await exited;
        clearTimeout(overdue);
      }
      checkpointHere();
    },
  };
}
