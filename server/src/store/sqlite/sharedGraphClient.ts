// A store's end of the process's shared vector graph (sharedGraph.ts): its vector look-ups are
// asked of the graph's thread through a port, and this keeps no graph of its own. When the thread
// stops (it crashed, or the folder is closing), look-ups waiting for it fail with
// SharedGraphStoppedError and the store answers them from a graph of its own from then on.

import type { MessagePort } from 'node:worker_threads';
import type { VectorHit } from '../contract.ts';
import type { GraphAnswer, GraphRequest } from './sharedGraphProtocol.ts';

export class SharedGraphStoppedError extends Error {
  constructor() {
    super("the shared vector graph's thread has stopped");
    this.name = 'SharedGraphStoppedError';
  }
}

type Asked = { type: 'search'; modelId: string; queries: Float32Array[]; k: number; exactWhileCatchingUp: boolean } | { type: 'ready'; modelId: string };

export class SharedGraphClient {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(answer: GraphAnswer): void; reject(error: Error): void }>();
  private stopped = false;

  constructor(private readonly port: MessagePort) {
    port.on('message', (answer: GraphAnswer) => this.receive(answer));
    port.on('close', () => this.stop());
    // Held only while a look-up waits: an idle store must not keep its thread (or process) alive.
    port.unref();
  }

  /** False once the thread stopped or this end was closed: the store then looks up on its own. */
  get connected(): boolean {
    return !this.stopped;
  }

  async search(modelId: string, queries: readonly Float32Array[], k: number, exactWhileCatchingUp: boolean): Promise<VectorHit[][]> {
    const answer = await this.ask({ type: 'search', modelId, queries: [...queries], k, exactWhileCatchingUp });
    if (answer.type !== 'hits') throw new Error(`the shared vector graph answered a search with '${answer.type}'`);
    return answer.hits;
  }

  async ready(modelId: string): Promise<boolean> {
    const answer = await this.ask({ type: 'ready', modelId });
    if (answer.type !== 'ready') throw new Error(`the shared vector graph answered a readiness check with '${answer.type}'`);
    return answer.ready;
  }

  close(): void {
    this.port.close();
    this.stop();
  }

  private ask(request: Asked): Promise<GraphAnswer> {
    if (this.stopped) return Promise.reject(new SharedGraphStoppedError());
    const id = this.nextId++;
    if (this.waiting.size === 0) this.port.ref();
    return new Promise<GraphAnswer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ ...request, id } satisfies GraphRequest);
    }).finally(() => {
      if (this.waiting.size === 0 && !this.stopped) this.port.unref();
    });
  }

  private receive(answer: GraphAnswer): void {
    const waiting = this.waiting.get(answer.id);
    if (!waiting) return;
    this.waiting.delete(answer.id);
    if (answer.type === 'failed') waiting.reject(new Error(answer.message));
    else waiting.resolve(answer);
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const waiting of this.waiting.values()) waiting.reject(new SharedGraphStoppedError());
    this.waiting.clear();
  }
}
