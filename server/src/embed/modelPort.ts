// A model that runs in a thread of its own, reached from another thread through a MessagePort of
// its own. The language server's search threads embed their queries this way: relayed through the
// main thread instead, each query waited twice more for the main thread's event loop, which
// indexing holds for seconds at a time (issue 33). The thread that owns the model only hands
// the port over (Embedder.openPort); what crosses it afterwards never touches that thread.

import type { MessagePort } from 'node:worker_threads';
import type { Embedder, ModelDescriptor } from './types.ts';

/** Asker to model: embed these texts. */
export interface ModelPortRequest {
  kind: 'embed';
  job: number;
  texts: string[];
}

/** Model to asker. Vectors come as one transferred buffer: count × dims floats. */
export type ModelPortReply = { kind: 'vectors'; job: number; buffer: ArrayBuffer; count: number } | { kind: 'failed'; job: number; message: string };

/** The model's end of the port closed (its thread ended): ask its owner for another port. */
export class ModelPortClosedError extends Error {
  override readonly name = 'ModelPortClosedError';
}

/** Embeds through a port to the model's thread; fails every waiting and later call once the port closes. */
export function portEmbedder(port: MessagePort, descriptor: ModelDescriptor): Embedder & { readonly closed: boolean } {
  const waiting = new Map<number, { resolve(vectors: Float32Array[]): void; reject(error: Error): void }>();
  let nextJob = 0;
  let closed = false;
  const shut = () => {
    if (closed) return;
    closed = true;
    port.close();
    for (const job of waiting.values()) job.reject(new ModelPortClosedError('the query model’s thread closed its port'));
    waiting.clear();
  };
  port.on('message', (reply: ModelPortReply) => {
    const job = waiting.get(reply.job);
    if (!job) return;
    waiting.delete(reply.job);
    if (reply.kind === 'failed') return job.reject(new Error(reply.message));
    const bytes = descriptor.dims * Float32Array.BYTES_PER_ELEMENT;
    job.resolve(Array.from({ length: reply.count }, (_, i) => new Float32Array(reply.buffer.slice(i * bytes, (i + 1) * bytes))));
  });
  port.on('close', shut);
  // Referenced only while a job waits, so an idle port never keeps its thread alive.
  port.unref();
  return {
    descriptor,
    get closed() {
      return closed;
    },
    embed(texts) {
      if (closed) return Promise.reject(new ModelPortClosedError('the query model’s port is closed'));
      if (texts.length === 0) return Promise.resolve([]);
      const job = nextJob++;
      port.ref();
      return new Promise<Float32Array[]>((resolve, reject) => {
        waiting.set(job, { resolve, reject });
        port.postMessage({ kind: 'embed', job, texts: [...texts] } satisfies ModelPortRequest);
      }).finally(() => {
        if (waiting.size === 0 && !closed) port.unref();
      });
    },
    countTokens() {
      throw new Error('a model reached through a port only embeds queries');
    },
    close: async () => shut(),
  };
}
