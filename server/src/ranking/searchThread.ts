// A search thread: answers searches and Related with its own read-only connection to the store (in WAL mode a
// reader never waits for the indexer's writes), so the language server's main thread, which runs
// the indexing pipeline and reads every request, only passes messages. The query is embedded by
// the main thread's query model, loaded once for all threads: the first query is asked of the
// main thread, which answers with a port to the model's own thread (embed/modelPort.ts), and
// later queries go straight there, never waiting for the main thread's event loop.

import { parentPort, workerData } from 'node:worker_threads';
import { RelatedItemError, relatedTo } from '../engine/related.ts';
import { ModelPortClosedError, portEmbedder } from '../embed/modelPort.ts';
import type { Embedder, ModelDescriptor } from '../embed/types.ts';
import { openStore, type WorkspaceStore } from '../store/index.ts';
import { searchWorkspace } from './search.ts';
import type { FromSearchThread, SearchThreadData, ToSearchThread } from './searchThreadProtocol.ts';

if (parentPort === null) throw new Error('searchThread must run in a worker thread');
const port = parentPort;
const data = workerData as SearchThreadData;
const send = (message: FromSearchThread) => port.postMessage(message);

let store: WorkspaceStore | null = null;
const running = new Map<number, AbortController>();
const embedding = new Map<number, { descriptor: ModelDescriptor; texts: string[]; resolve(vectors: Float32Array[]): void; reject(error: Error): void }>();
let nextEmbedId = 0;
/** The query models reached directly, by model id. */
const models = new Map<string, ReturnType<typeof portEmbedder>>();

/** Embeds through the model's port once there is one; else asks the main thread, which answers with the vectors or a port. */
function embedderFor(id: number, descriptor: ModelDescriptor): Embedder {
  return {
    descriptor,
    embed: async (texts) => {
      const direct = models.get(descriptor.id);
      if (direct && !direct.closed) {
        try {
          return await direct.embed(texts);
        } catch (error) {
          // The model's thread ended (its embedder lost it): the main thread has another, or says why not.
          if (!(error instanceof ModelPortClosedError)) throw error;
        }
      }
      models.delete(descriptor.id);
      return new Promise((resolve, reject) => {
        const embedId = nextEmbedId++;
        embedding.set(embedId, { descriptor, texts: [...texts], resolve, reject });
        send({ type: 'embed', id, embedId, texts: [...texts] });
      });
    },
    countTokens: () => {
      throw new Error('a search thread only embeds queries');
    },
    close: async () => undefined,
  };
}

/**
 * The thread's connection, opened by the first request; a failed open is tried again by the next
 * one. An answer need not be the same whenever it is asked, but it must come quickly: a graph that
 * is catching up answers (vectorIndex.ts). The vectors are looked up in the process's shared graph
 * (store/sqlite/sharedGraph.ts), which saves itself and is read off its thread; only when there is
 * none, or its thread stopped, does this thread keep a graph of its own, saved and read the same way
 * (a copy of every vector beside it as well, 2 KiB a window, ~1.7 GiB at 100,000 notes, would save
 * re-reading a search's few hundred candidates from sqlite-vec, ~20 µs each: it is not kept).
 */
function openedStore(): WorkspaceStore {
  store ??= openStore({
    location: data.location,
    workspace: data.workspace,
    access: 'read',
    exactWhileCatchingUp: false,
    holdVectors: false,
    saveGraphsWhenReading: true,
    loadGraphsInBackground: true,
    sharedGraph: data.sharedGraph,
  });
  return store;
}

async function search(message: Extract<ToSearchThread, { type: 'search' }>): Promise<void> {
  const controller = new AbortController();
  running.set(message.id, controller);
  try {
    const embedder = message.model && embedderFor(message.id, message.model);
    const response = await searchWorkspace(openedStore(), embedder, message.query, { ...message.options, signal: controller.signal });
    send({ type: 'answer', id: message.id, response });
  } catch (error) {
    send({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error), cancelled: controller.signal.aborted });
  } finally {
    running.delete(message.id);
  }
}

/** Related reads the item's own vectors and looks up their neighbours: this thread's graph, not one more on the main thread. */
async function related(message: Extract<ToSearchThread, { type: 'related' }>): Promise<void> {
  try {
    send({ type: 'related', id: message.id, view: await relatedTo(openedStore(), message.path, message.options) });
  } catch (error) {
    const notRelatable = error instanceof RelatedItemError;
    send({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error), cancelled: false, notRelatable });
  }
}

port.on('message', (message: ToSearchThread) => {
  switch (message.type) {
    case 'search':
      void search(message);
      return;
    case 'related':
      void related(message);
      return;
    case 'cancel':
      running.get(message.id)?.abort();
      return;
    case 'close':
      for (const controller of running.values()) controller.abort();
      for (const model of models.values()) void model.close();
      void (store?.close() ?? Promise.resolve()).finally(() => port.close());
      return;
    case 'embedded':
    case 'embed-failed':
    case 'model-port': {
      const waiting = embedding.get(message.embedId);
      embedding.delete(message.embedId);
      if (message.type === 'embedded') waiting?.resolve(message.vectors);
      else if (message.type === 'embed-failed') waiting?.reject(new Error(message.message));
      else if (!waiting) message.port.close();
      else {
        // Two searches that asked at once get a port each: the first one kept serves both.
        const kept = models.get(waiting.descriptor.id);
        const direct = kept && !kept.closed ? kept : portEmbedder(message.port, waiting.descriptor);
        if (direct !== kept) models.set(waiting.descriptor.id, direct);
        else message.port.close();
        direct.embed(waiting.texts).then(waiting.resolve, waiting.reject);
      }
    }
  }
});
