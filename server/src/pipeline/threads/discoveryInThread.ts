// The discover stage's thread (discoveryThread.ts), seen from the main thread: one item's
// discovery at a time, run with the thread's own connection to a SQLite store, so the main thread
// only waits for the answer and keeps reading requests meanwhile (issue 33). A thread that crashes
// fails the item it held (the worker retries the job) and is started again for the next one.

import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { DiscoverOptions, DiscoverOutcome } from '../../discover/discoverItem.ts';
import { startWorkerThread } from '../../embed/workerThread.ts';
import type { SharedGraph } from '../../store/sqlite/sharedGraph.ts';
import { uncrossed, type DiscoveryThreadData, type FromDiscoveryThread, type ToDiscoveryThread } from './discoveryProtocol.ts';

/** How long a closing thread may take to finish its item and close its connection before it is ended. */
const CLOSE_GRACE_MS = 10_000;

export class DiscoveryThread {
  private worker: Worker | null = null;
  private nextJob = 0;
  private readonly pending = new Map<number, { resolve(outcome: DiscoverOutcome): void; reject(error: Error): void }>();
  private closed = false;

  constructor(
    private readonly data: DiscoveryThreadData,
    /** The process's shared vector graph: each thread started gets a port to it. */
    private readonly sharedGraph: SharedGraph | null = null,
  ) {}

  /** Items sent to the thread and not yet answered. */
  get inHand(): number {
    return this.pending.size;
  }

  /** discoverItem(store, itemId, options) as the thread runs it on its own connection; a classifier cannot cross, so there is none. */
  discover(itemId: string, options: Omit<DiscoverOptions, 'classifier'>): Promise<DiscoverOutcome> {
    if (this.closed) return Promise.reject(new Error('the discovery thread has stopped: the folder is closing'));
    const worker = (this.worker ??= this.start());
    const job = this.nextJob++;
    // Referenced while it works, so a process at its end waits for the item rather than tearing the thread down.
    worker.ref();
    return new Promise<DiscoverOutcome>((resolve, reject) => {
      this.pending.set(job, { resolve, reject });
      worker.postMessage({ type: 'discover', job, itemId, options } satisfies ToDiscoveryThread);
    }).finally(() => {
      if (this.pending.size === 0) worker.unref();
    });
  }

  /** Asks the thread to finish its item, close its connection and end; ended by force if it has not within CLOSE_GRACE_MS. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = once(worker, 'exit').catch(() => undefined);
    worker.ref();
    worker.postMessage({ type: 'close' } satisfies ToDiscoveryThread);
    const overdue = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
    await exited;
    clearTimeout(overdue);
  }

  private start(): Worker {
    const sharedGraph = this.sharedGraph?.connect();
    const worker = startWorkerThread(
      { source: new URL('./discoveryThread.ts', import.meta.url), bundled: 'discoveryThread.js' },
      { workerData: { ...this.data, sharedGraph } satisfies DiscoveryThreadData, transferList: sharedGraph ? [sharedGraph] : [] },
    );
    worker.on('message', (message: FromDiscoveryThread) => {
      const waiting = this.pending.get(message.job);
      if (!waiting) return;
      this.pending.delete(message.job);
      if (message.type === 'done') waiting.resolve(message.outcome);
      else waiting.reject(uncrossed(message.error));
    });
    const lost = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) => lost(new Error(`the discovery thread crashed: ${error.message}`)));
    worker.on('exit', (code) => lost(new Error(`the discovery thread stopped (exit code ${code})`)));
    worker.unref();
    return worker;
  }
}
