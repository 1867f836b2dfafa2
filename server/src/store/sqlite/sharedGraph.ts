// One vector graph per language server process, shared by its connections (issue 32). Every
// connection that looked vectors up kept its own HNSW graph of every window: the two search
// threads, each discovery lane and the main thread, each caught up as the folder was embedded;
// at 100,000 notes (~895,000 windows) ~1.9 GiB a graph (docs/PERFORMANCE.md, "One graph per
// process"). Here one thread holds the graph (sharedGraphThread.ts) and each connection asks it
// through a port of its own (sharedGraphClient.ts), each look-up exact or not while the graph
// catches up as its own store would have been.

import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../embed/workerThread.ts';
import type { SharedGraphData, ToSharedGraphThread } from './sharedGraphProtocol.ts';

/** How long a closing thread may take to save its graph and close its connection before it is ended. */
const CLOSE_GRACE_MS = 30_000;

export class SharedGraph {
  private worker: Worker | null = null;
  private closed = false;

  constructor(
    private readonly data: SharedGraphData,
    private readonly log: (message: string) => void = (message) => console.error(`relata: ${message}`),
  ) {}

  /**
   * A new connection's end of a channel to the graph's thread, which starts with the first (and
   * again after it stopped). Once this is closed the port comes back closed, and the connection
   * looks up on its own.
   */
  connect(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    if (this.closed) {
      port2.close();
      return port1;
    }
    this.running().postMessage({ type: 'connect', port: port2 } satisfies ToSharedGraphThread, [port2]);
    return port1;
  }

  /** Asks the thread to save its graph and end, after every connection that asks it has closed. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' } satisfies ToSharedGraphThread);
    const grace = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
    await exited;
    clearTimeout(grace);
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorkerThread({ source: new URL('./sharedGraphThread.ts', import.meta.url), bundled: 'sharedGraphThread.js' }, { workerData: this.data });
    // The connections that ask it keep the process alive while they wait; an idle graph does not.
    worker.unref();
    worker.on('error', (error) => this.log(`the shared vector graph's thread failed (${error.message}); its connections look vectors up on their own`));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
    });
    this.worker = worker;
    return worker;
  }
}
