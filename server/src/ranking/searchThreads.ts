// The language server's searches and Related, answered by a small pool of search threads (searchThread.ts),
// each with its own read-only connection to the store. On the main thread a search competed with
// the indexing pipeline and with every other search for one event loop: 200 concurrent searches
// during a run waited 17 s at the median (issue 33). Here they wait in a SearchQueue (identical
// waiting searches share one run; cancelled ones never run) for one of SEARCH_THREADS threads.
// A thread's first query embedding is answered with a port to the query model's thread, so its
// later ones never wait for this thread's event loop, which indexing keeps busy.

import type { MessagePort, Worker } from 'node:worker_threads';
import type { RelatedView, SearchResponse } from '../../../shared/types.ts';
import type { Embedder } from '../embed/types.ts';
import { RelatedItemError } from '../engine/related.ts';
import { startWorkerThread } from '../embed/workerThread.ts';
import type { SharedGraph } from '../store/sqlite/sharedGraph.ts';
import { SearchQueue } from './searchQueue.ts';
import type { FromSearchThread, SearchThreadData, ThreadRelatedOptions, ThreadSearchOptions, ToSearchThread } from './searchThreadProtocol.ts';

type ThreadAnswer = SearchResponse | RelatedView;
/** A request to a thread, given the id it is known by there. */
type ThreadRequest = (id: number) => Extract<ToSearchThread, { type: 'search' | 'related' }>;

/** Threads per folder: one per core of the two-core machine the goals are measured on (docs/PERFORMANCE.md). */
export const SEARCH_THREADS = 2;

/** How long a closing thread may take to close its connection before it is ended. */
const CLOSE_GRACE_MS = 2_000;

/** What the main thread did when a search thread asked for a query's embedding. */
export interface EmbeddingsAsked {
  /** Embedded here and the vectors sent back: the model cannot be reached from another thread. */
  relayed: number;
  /** Answered with a port to the model's thread, which the search thread embeds through from then on. */
  portsHandedOver: number;
}

/** One search thread: a search (or Related) at a time, with the embedder its query is embedded by. */
class SearchThread {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(answer: ThreadAnswer): void; reject(error: Error): void; embedder: Embedder | null }>();
  /** Why the thread can no longer answer, once it stopped. */
  stopped: Error | null = null;
  constructor(
    data: SearchThreadData,
    private readonly embeddings: EmbeddingsAsked,
    sharedGraph: SharedGraph | null,
  ) {
    const graphPort = sharedGraph?.connect();
    this.worker = startWorkerThread(
      { source: new URL('./searchThread.ts', import.meta.url), bundled: 'searchThread.js' },
      { workerData: { ...data, sharedGraph: graphPort } satisfies SearchThreadData, transferList: graphPort ? [graphPort] : [] },
    );
    this.worker.on('message', (message: FromSearchThread) => this.receive(message));
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', (code) => this.stop(new Error(`the search thread stopped (exit code ${code})`)));
  }

  ask(request: ThreadRequest, embedder: Embedder | null, signal: AbortSignal): Promise<ThreadAnswer> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    const cancel = () => this.post({ type: 'cancel', id });
    signal.addEventListener('abort', cancel, { once: true });
    return new Promise<ThreadAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, embedder });
      this.post(request(id));
    }).finally(() => signal.removeEventListener('abort', cancel));
  }

  /** Asks the thread to close its connection and end; ended by force if it has not within CLOSE_GRACE_MS. */
  async close(): Promise<void> {
    if (this.stopped) return;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.post({ type: 'close' });
    const grace = setTimeout(() => void this.worker.terminate(), CLOSE_GRACE_MS);
    await exited;
    clearTimeout(grace);
  }

  private post(message: ToSearchThread, transfer: MessagePort[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  private receive(message: FromSearchThread): void {
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    if (message.type === 'embed') {
      void this.embed(waiting.embedder, message.embedId, message.texts);
      return;
    }
    this.pending.delete(message.id);
    if (message.type === 'answer') waiting.resolve(message.response);
    else if (message.type === 'related') waiting.resolve(message.view);
    else waiting.reject(message.notRelatable ? new RelatedItemError(message.message) : new Error(message.message));
  }

  private async embed(embedder: Embedder | null, embedId: number, texts: string[]): Promise<void> {
    try {
      if (!embedder) throw new Error('this search has no query model');
      if (embedder.openPort) {
        const port = await embedder.openPort();
        this.embeddings.portsHandedOver += 1;
        this.post({ type: 'model-port', embedId, port }, [port]);
        return;
      }
      this.embeddings.relayed += 1;
      this.post({ type: 'embedded', embedId, vectors: await embedder.embed(texts) });
    } catch (error) {
      this.post({ type: 'embed-failed', embedId, message: (error as Error).message });
    }
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.stopped);
    this.pending.clear();
  }
}

export class SearchThreads {
  private readonly queue = new SearchQueue<ThreadAnswer>(SEARCH_THREADS);
  private readonly idle: SearchThread[] = [];
  private readonly started = new Set<SearchThread>();
  private closed = false;
  /** How the threads' query embeddings reached the model, for tests and benchmarks. */
  readonly embeddings: EmbeddingsAsked = { relayed: 0, portsHandedOver: 0 };

  /** `sharedGraph`: the process's vector graph, which every thread looks vectors up in (none: each thread keeps its own). */
  constructor(
    private readonly data: SearchThreadData,
    private readonly sharedGraph: SharedGraph | null = null,
  ) {}

  /** The search's answer from a thread; rejected with the signal's reason once the asker cancels. */
  search(query: string, options: ThreadSearchOptions, embedder: Embedder | null, signal?: AbortSignal): Promise<SearchResponse> {
    const key = JSON.stringify(['search', query, options, embedder?.descriptor.id ?? null]);
    const request: ThreadRequest = (id) => ({ type: 'search', id, query, options, model: embedder?.descriptor ?? null });
    // A search key only ever runs a search request, so its answer is a SearchResponse.
    return this.queue.run(key, (cancelled) => this.inThread(request, embedder, cancelled), signal) as Promise<SearchResponse>;
  }

  /**
   * Related for the item at a folder-relative path, from a thread; rejected with a RelatedItemError
   * when the path is no indexed item. On the main thread its vector look-ups kept a graph of every
   * window there too, caught up as the folder was embedded (12% of that thread at 100,000 notes).
   */
  related(relative: string, options: ThreadRelatedOptions, signal?: AbortSignal): Promise<RelatedView> {
    const key = JSON.stringify(['related', relative, options]);
    const request: ThreadRequest = (id) => ({ type: 'related', id, path: relative, options });
    return this.queue.run(key, (cancelled) => this.inThread(request, null, cancelled), signal) as Promise<RelatedView>;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.started].map((thread) => thread.close()));
  }

  private async inThread(request: ThreadRequest, embedder: Embedder | null, signal: AbortSignal): Promise<ThreadAnswer> {
    if (this.closed) throw new Error('the folder is closing');
    // The queue runs at most SEARCH_THREADS searches, so at most that many threads start; one that stopped is replaced.
    let thread = this.idle.pop();
    while (thread?.stopped) thread = this.idle.pop();
    if (!thread) {
      thread = new SearchThread(this.data, this.embeddings, this.sharedGraph);
      this.started.add(thread);
    }
    try {
      return await thread.ask(request, embedder, signal);
    } finally {
      if (thread.stopped) this.started.delete(thread);
      else this.idle.push(thread);
    }
  }
}
