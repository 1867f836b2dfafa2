// Worker-thread entry point: the ONNX session lives here because onnxruntime-node runs a model
// synchronously on the thread that calls `session.run` (measured: a 2 s batch stalls that
// thread's event loop for 2 s), and the caller's event loop must keep answering the editor.
// Bundled by esbuild as dist/onnxWorker.js; see ../workerThread.ts for how it is found.

import { parentPort, workerData } from 'node:worker_threads';
import { ModelFolderError } from './modelFolder.ts';
import { ModelSession } from './modelSession.ts';
import type { EmbedderRequest, Failure, SessionSpec, WorkerMessage } from './protocol.ts';
import { lowerThisThreadsPriority } from '../../pipeline/threads/backgroundPriority.ts';

const port = parentPort;
if (port === null) throw new Error('onnxWorker must run in a worker thread');

function send(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

const spec = workerData as SessionSpec;
// Before the session opens: onnxruntime's pool threads, started by this one, inherit its priority.
if (spec.background) lowerThisThreadsPriority();
const opening = ModelSession.open(spec.dir, spec.modelFile, spec.padId, { threads: spec.threads, pooling: spec.pooling });
opening.then(
  (session) => send({ kind: 'ready', pooledByModel: session.pooledByModel }),
  (error: unknown) => send({ kind: 'broken', failure: describe(error) }),
);

// One request at a time, in arrival order: the session already uses the threads it was given.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: EmbedderRequest) => {
  queue = queue.then(() => handle(request));
});

async function handle(request: EmbedderRequest): Promise<void> {
  let session: ModelSession;
  try {
    session = await opening;
  } catch {
    if (request.kind === 'close') port!.close();
    return; // 'broken' was sent; the embedder fails the job itself
  }
  if (request.kind === 'close') {
    await session.release();
    port!.close();
    return;
  }
  try {
    const vectors = await session.vectors(request.batch);
    const flat = new Float32Array(vectors.reduce((total, vector) => total + vector.length, 0));
    let offset = 0;
    for (const vector of vectors) {
      flat.set(vector, offset);
      offset += vector.length;
    }
    send({ kind: 'vectors', job: request.job, buffer: flat.buffer, count: vectors.length }, [flat.buffer]);
  } catch (error) {
    send({ kind: 'failed', job: request.job, failure: describe(error) });
  }
}

function describe(error: unknown): Failure {
  if (error instanceof ModelFolderError) return { message: error.message, folder: { dir: error.dir, problem: error.problem } };
  return { message: error instanceof Error ? error.message : String(error) };
}
