// Worker-thread entry point: one USE-lite model per thread, so embedding runs beside the caller's
// event loop instead of on it (TF.js on WASM computes on the thread that calls it, and
// onnxruntime's run, though asynchronous, still takes a core per thread). Bundled by
// esbuild as dist/useLiteWorker.js; see ../workerThread.ts for how the embedder finds it.

import { parentPort, workerData } from 'node:worker_threads';
import type { EmbedRequest, UseLiteWorkerData, WorkerMessage, WorkerRequest } from './protocol.ts';
import { UseLiteModel } from './useLiteModel.ts';

const port = parentPort;
if (port === null) throw new Error('useLiteWorker must run in a worker thread');

function send(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

const started = performance.now();
const data = (workerData ?? {}) as UseLiteWorkerData;
const loading = UseLiteModel.load(undefined, {
  engine: data.engine ?? 'onnx',
  fastKernels: data.fastKernels ?? true,
  onnx: { threads: data.onnxThreads ?? 1 },
});

loading.then(
  (model) => {
    const loadMs = Math.round(performance.now() - started);
    send({ kind: 'ready', loadMs, engine: model.engineName, ...(model.fallback === undefined ? {} : { fallback: model.fallback }) });
  },
  (error: unknown) => send({ kind: 'broken', message: `USE-lite model failed to load: ${describe(error)}` }),
);

// Requests are handled one at a time in arrival order: the model is single-threaded anyway, and
// a queue here keeps memory to one batch.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: WorkerRequest) => {
  queue = queue.then(() => (request.kind === 'close' ? close() : handle(request)));
});

/** After the work queued before it: the model released, then the port closed, so the thread ends by itself. */
async function close(): Promise<void> {
  try {
    await (await loading).dispose();
  } catch {
    // A model that never loaded holds nothing to release.
  }
  send({ kind: 'closed' });
  port!.close();
}

async function handle({ job, texts }: EmbedRequest): Promise<void> {
  let model: UseLiteModel;
  try {
    model = await loading;
  } catch {
    return; // 'broken' was sent; the embedder rejects this job itself
  }
  try {
    const vectors = await model.embed(texts);
    const buffer = vectors.buffer as ArrayBuffer;
    send({ kind: 'vectors', job, buffer, count: texts.length }, [buffer]);
  } catch (error) {
    send({ kind: 'failed', job, message: `USE-lite could not embed ${texts.length} texts: ${describe(error)}` });
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
}
