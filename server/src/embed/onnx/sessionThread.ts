// The calling thread's handle on the ONNX worker thread: batches of token ids in, promises of
// unit vectors out. The thread is referenced only while it has work, so an idle embedder never
// keeps the process alive; if the thread dies, every waiting and later call fails with the reason.

import type { Worker } from 'node:worker_threads';
// onnxruntime-node 1.22's addon can be loaded by any number of threads only if the main thread
// loaded it first: when a worker is first, every later load, in the main thread or another
// worker, fails with "Module did not self-register" (tried here with Node 20). So the calling
// thread loads it, without using it, before any ONNX thread starts.
import 'onnxruntime-node';
import { startWorkerThread } from '../workerThread.ts';
import { ModelFolderError } from './modelFolder.ts';
import type { EncodedPassage } from './passageTokenizer.ts';
import type { EmbedderRequest, Failure, SessionSpec, WorkerMessage } from './protocol.ts';

const WORKER_ENTRY = { source: new URL('./onnxWorker.ts', import.meta.url), bundled: 'onnxWorker.js' };
/** How long close() waits for the session to be released before ending the thread outright. */
const CLOSE_GRACE_MS = 5000;

interface Job {
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

export class SessionThread {
  /** Resolves once the session is open, with whether the model pools its own output. */
  readonly ready: Promise<boolean>;
  private readonly worker: Worker;
  private readonly jobs = new Map<number, Job>();
  private nextJob = 0;
  private stopped: Error | undefined;
  private readonly exited: Promise<void>;
  private hasExited = false;

  constructor(spec: SessionSpec) {
    this.worker = startWorkerThread(WORKER_ENTRY, { workerData: spec });
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        this.hasExited = true;
        resolve();
      }),
    );
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (message: WorkerMessage) => {
        if (message.kind === 'ready') {
          this.worker.unref();
          resolve(message.pooledByModel);
        } else if (message.kind === 'broken') {
          const error = rebuild(message.failure);
          reject(error);
          this.stop(error);
        } else {
          this.settle(message);
        }
      });
      const lost = (error: Error) => {
        reject(error);
        this.stop(error);
      };
      this.worker.on('error', (error) => lost(new Error(`The ONNX embedding thread failed: ${error.message}`)));
      this.worker.on('exit', (code) => lost(new Error(`The ONNX embedding thread ended (exit code ${code})`)));
    });
    // A caller that never awaits `ready` must not see an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  run(batch: EncodedPassage[]): Promise<Float32Array[]> {
    if (this.stopped) return Promise.reject(this.stopped);
    const job = this.nextJob++;
    const request: EmbedderRequest = { kind: 'embed', job, batch };
    return new Promise((resolve, reject) => {
      this.jobs.set(job, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.stop(new Error('The ONNX embedder is closed'));
    if (this.hasExited) return;
    const request: EmbedderRequest = { kind: 'close' };
    this.worker.postMessage(request);
    const grace = setTimeout(() => void this.worker.terminate(), CLOSE_GRACE_MS);
    await this.exited;
    clearTimeout(grace);
  }

  private settle(message: Extract<WorkerMessage, { job: number }>): void {
    const job = this.jobs.get(message.job);
    if (!job) return;
    this.jobs.delete(message.job);
    if (this.jobs.size === 0) this.worker.unref();
    if (message.kind === 'failed') return job.reject(rebuild(message.failure));
    job.resolve(split(message.buffer, message.count));
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const job of this.jobs.values()) job.reject(this.stopped);
    this.jobs.clear();
  }
}

function rebuild(failure: Failure): Error {
  return failure.folder ? new ModelFolderError(failure.folder.dir, failure.folder.problem) : new Error(failure.message);
}

/** Separate buffers, so that a caller storing one vector's bytes stores only that vector. */
function split(buffer: ArrayBuffer, count: number): Float32Array[] {
  const bytes = buffer.byteLength / count;
  return Array.from({ length: count }, (_, i) => new Float32Array(buffer.slice(i * bytes, (i + 1) * bytes)));
}
