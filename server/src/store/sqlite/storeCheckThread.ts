// The quick check run in a worker thread of its own, so the language server's main thread keeps
// answering while SQLite reads every page (linear in the file: 0.8 s for a 58 MB store on two
// loaded cores, seconds for a large one). The worker opens its own read-only connection; it
// receives the options and sends back the report, or the error's message.

import { parentPort, workerData } from 'node:worker_threads';
import { checkStore, type StoreCheckOptions } from './storeCheck.ts';

if (parentPort === null) throw new Error('storeCheckThread must run in a worker thread');
const port = parentPort;

checkStore(workerData as StoreCheckOptions).then(
  (report) => port.postMessage({ report }),
  (error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
