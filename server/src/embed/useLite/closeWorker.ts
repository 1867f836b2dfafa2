// Ending a USE-lite thread without taking the process with it. onnxruntime runs a session's
// creation and each run on its own threads and calls back into the worker's JavaScript when done;
// a worker terminated in between leaves that callback a torn-down thread, and the runtime aborts
// the whole process ("terminate called after throwing an instance of 'Napi::Error'"), the language
// server and every folder in it included. So a thread is asked to finish what it holds, release
// its model and end by itself; only one that does not within the grace period is terminated.

import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { CloseRequest } from './protocol.ts';

/** Longer than the largest batch takes to embed on a busy machine. */
const CLOSE_GRACE_MS = 15_000;

export async function closeUseLiteWorker(worker: Worker, graceMs = CLOSE_GRACE_MS): Promise<void> {
  // -1 once the thread has ended: there is nothing to ask.
  if (worker.threadId === -1) return;
  const exited = once(worker, 'exit').catch(() => undefined);
  // Referenced while it finishes, so a process at its end waits for the thread rather than tearing it down.
  worker.ref();
  const request: CloseRequest = { kind: 'close' };
  worker.postMessage(request);
  const overdue = setTimeout(() => void worker.terminate(), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(overdue);
  }
}
