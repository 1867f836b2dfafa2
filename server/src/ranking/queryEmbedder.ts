// The embedder a search uses for its query: the model the folder is embedded with, loaded only
// when a query is actually embedded, or, for a one-shot command, from its first moment. Naming
// the default model otherwise loads nothing, so a search over a store without vectors (or a
// lexical-only one) never pays the second and hundreds of MB a model costs; one thread is enough
// for one query.

import type { MessagePort, Worker } from 'node:worker_threads';
import { createEmbedder, type EmbeddingChoice } from '../embed/choice.ts';
import type { Embedder, ModelDescriptor } from '../embed/types.ts';
import { closeUseLiteWorker } from '../embed/useLite/closeWorker.ts';
import { USE_LITE_DESCRIPTOR } from '../embed/useLite/descriptor.ts';
import { startUseLiteWorker } from '../embed/useLite/workerScript.ts';
import { adoptEarlyQueryModelThread } from './earlyQueryModel.ts';

export interface QueryEmbedderOptions {
  /**
   * Start loading the model now, so its load (in its own thread) overlaps whatever the caller
   * does before it embeds the query (`relata search` opening the store). A load the search
   * turns out not to need (no vectors in the store) is stopped by close(), not waited for.
   */
  loadNow?: boolean;
}

class DeferredEmbedder implements Embedder {
  private loading: Promise<Embedder> | null = null;
  private loaded = false;
  private readonly workers: Worker[] = [];

  constructor(
    readonly descriptor: ModelDescriptor,
    private readonly threads: number,
  ) {}

  load(): Promise<Embedder> {
    this.loading ??= import('../embed/useLite/index.ts')
      .then(({ createUseLiteEmbedder }) =>
        createUseLiteEmbedder({
          threads: this.threads,
          startWorker: () => {
            const worker = adoptEarlyQueryModelThread() ?? startUseLiteWorker();
            this.workers.push(worker);
            return worker;
          },
        }),
      )
      .then((embedder) => {
        this.loaded = true;
        return embedder;
      });
    return this.loading;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return (await this.load()).embed(texts);
  }

  countTokens(): number {
    throw new Error('a query embedder only embeds queries');
  }

  /** A port to the model's thread for a search thread (modelPort.ts), once the model has loaded. */
  async openPort(): Promise<MessagePort> {
    const embedder = await this.load();
    if (!embedder.openPort) throw new Error('this query model cannot be reached from another thread');
    return embedder.openPort();
  }

  async close(): Promise<void> {
    // A model still loading is not waited for here: nothing will use it. Its thread ends once the
    // load is done, never torn down mid-load (closeWorker.ts), and the process waits for that.
    if (!this.loaded) for (const worker of this.workers) void closeUseLiteWorker(worker);
    const embedder = await this.loading?.catch(() => null);
    await embedder?.close();
  }
}

export async function queryEmbedder(choice: EmbeddingChoice, options: QueryEmbedderOptions = {}): Promise<Embedder | null> {
  switch (choice.kind) {
    case 'none':
      return null;
    case 'use-lite': {
      const embedder = new DeferredEmbedder(USE_LITE_DESCRIPTOR, 1);
      // A load that fails is reported where the query is embedded (the vector path says why).
      if (options.loadNow) embedder.load().catch(() => {});
      return embedder;
    }
    case 'onnx':
      // An ONNX model's identity is read from its folder, which means opening it.
      return createEmbedder({ ...choice, threads: 1 });
  }
}
