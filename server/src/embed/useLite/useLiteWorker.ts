// Worker-thread entry point: one USE-lite model per thread, so embedding runs beside the caller's
// event loop instead of on it (TF.js on WASM computes on the thread that calls it, and
// onnxruntime's run, though asynchronous, still takes a core per thread). Bundled by
// esbuild as dist/useLiteWorker.js; see ../workerThread.ts for how the embedder finds it.

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { ModelPortReply } from '../modelPort.ts';
import type { EmbedRequest, UseLiteWorkerData, WorkerMessage, WorkerRequest } from './protocol.ts';
import { UseLiteModel } from './useLiteModel.ts';
import { lowerThisThreadsPriority } from '../../pipeline/threads/backgroundPriority.ts';

const port = parentPort;
if (port === null) throw new Error('useLiteWorker must run in a worker thread');

function send(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

const started = performance.now();
const data = (workerData ?? {}) as UseLiteWorkerData;
// Before the model loads: onnxruntime's threads, started by this one, inherit its priority.
if (data.background) lowerThisThreadsPriority();
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
// a queue here keeps memory to one batch. Requests from connected ports join the same queue.
let queue: Promise<void> = Promise.resolve();
/** Ports other threads embed through (../modelPort.ts), closed with the thread. */
const connected = new Set<MessagePort>();
port.on('message', (request: WorkerRequest) => {
  if (request.kind === 'connect') return connect(request.port);
  queue = queue.then(() => (request.kind === 'close' ? close() : handle(request, send)));
});

function connect(other: MessagePort): void {
  connected.add(other);
  other.on('close', () => connected.delete(other));
  other.on('message', (request: EmbedRequest) => {
    // A model that did not load answers each asker here, where no 'broken' reaches them.
    queue = queue.then(() => handle(request, (reply: ModelPortReply, transfer?: ArrayBuffer[]) => other.postMessage(reply, transfer ?? []), true));
  });
  // An idle port must not keep the thread alive: its close request ends it.
  other.unref();
}

/** After the work queued before it: the model released, then the port closed, so the thread ends by itself. */
async function close(): Promise<void> {
  try {
    await (await loading).dispose();
  } catch {
    // A model that never loaded holds nothing to release.
  }
  for (const other of connected) other.close();
  send({ kind: 'closed' });
  port!.close();
}

async function handle({ job, texts }: EmbedRequest, reply: (message: ModelPortReply, transfer?: ArrayBuffer[]) => void, answerBroken = false): Promise<void> {
  let model: UseLiteModel;
  try {
    model = await loading;
  } catch (error) {
    // To the calling thread 'broken' was sent, and its embedder rejects this job itself.
    if (answerBroken) reply({ kind: 'failed', job, message: `USE-lite model failed to load: ${describe(error)}` });
    return;
  }
  try {
    const vectors = await model.embed(texts);
    const buffer = vectors.buffer as ArrayBuffer;
    reply({ kind: 'vectors', job, buffer, count: texts.length }, [buffer]);
  } catch (error) {
    reply({ kind: 'failed', job, message: `USE-lite could not embed ${texts.length} texts: ${describe(error)}` });
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
}
