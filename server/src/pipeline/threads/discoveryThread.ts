// Discovery-thread entry point: an item's discovery (discover/discoverItem.ts) runs here, with the
// thread's own connection to the store, so the language server's main thread, which reads every
// request, is not held by it. Discovery is synchronous store work for the most part (a SQLite
// store answers without yielding): on the main thread one item held the event loop for up to
// seconds on a loaded machine, and requests waited behind it (issue 33).
// Bundled by esbuild as dist/discoveryThread.js; see ../../embed/workerThread.ts for how it is found.

import { parentPort, workerData } from 'node:worker_threads';
import { discoverItem } from '../../discover/discoverItem.ts';
import { openStore, type WorkspaceStore } from '../../store/index.ts';
import { lowerThisThreadsPriority } from './backgroundPriority.ts';
import { crossed, type DiscoveryThreadData, type FromDiscoveryThread, type ToDiscoveryThread } from './discoveryProtocol.ts';

if (parentPort === null) throw new Error('discoveryThread must run in a worker thread');
const port = parentPort;
const data = workerData as DiscoveryThreadData;
const send = (message: FromDiscoveryThread) => port.postMessage(message);
lowerThisThreadsPriority();

let store: WorkspaceStore | null = null;
// One item at a time, in order: the stage runs one discovery at a time anyway.
let queue: Promise<void> = Promise.resolve();

async function discover(message: Extract<ToDiscoveryThread, { type: 'discover' }>): Promise<void> {
  try {
    // Opened on the first item and kept: discovery remembers per store what it read for the run (folderSimilarity.ts).
    // Discovery re-scores a few hundred candidates an item from the database (a few milliseconds of
    // the item's hundreds), rather than keeping every vector twice in each lane's memory.
    // Its look-ups go to the process's shared graph where there is one, exact while that catches up.
    store ??= openStore({ location: data.location, workspace: data.workspace, holdVectors: false, sharedGraph: data.sharedGraph });
    send({ type: 'done', job: message.job, outcome: await discoverItem(store, message.itemId, message.options) });
  } catch (error) {
    send({ type: 'failed', job: message.job, error: crossed(error) });
  }
}

port.on('message', (message: ToDiscoveryThread) => {
  if (message.type === 'discover') queue = queue.then(() => discover(message));
  else queue = queue.then(async () => {
    await store?.close().catch(() => undefined);
    port.close();
  });
});
