// Runs checkStore (storeCheck.ts) in a worker thread (storeCheckThread.ts) and resolves with its
// report: for callers that must stay responsive while the store is read end to end.

import { startWorkerThread } from '../../embed/workerThread.ts';
import type { StoreCheckOptions, StoreCheckReport } from './storeCheck.ts';

type Reply = { report: StoreCheckReport } | { error: string };

export function checkStoreInThread(options: StoreCheckOptions): Promise<StoreCheckReport> {
  const worker = startWorkerThread(
    { source: new URL('./storeCheckThread.ts', import.meta.url), bundled: 'storeCheckThread.js' },
    { workerData: options },
  );
  return new Promise<StoreCheckReport>((resolve, reject) => {
    worker.once('message', (reply: Reply) => {
      if ('report' in reply) resolve(reply.report);
      else reject(new Error(reply.error));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the store check thread stopped (exit code ${code}) before it reported`)));
  });
}
