// Names USE-lite's worker entry for ../workerThread.ts, which decides how to start it: from
// dist/useLiteWorker.js beside the bundle (an esbuild entry of its own), or from this folder's
// useLiteWorker.ts with tsx registered in the thread when running from source.

import type { Worker, WorkerOptions } from 'node:worker_threads';
import { startWorkerThread } from '../workerThread.ts';

export function startUseLiteWorker(options: WorkerOptions = {}): Worker {
  return startWorkerThread({ source: new URL('./useLiteWorker.ts', import.meta.url), bundled: 'useLiteWorker.js' }, options);
}
