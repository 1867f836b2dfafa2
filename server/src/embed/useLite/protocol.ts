// Messages between the embedder (calling thread) and its USE-lite worker threads, in one place
// so both sides agree on them.

import type { MessagePort } from 'node:worker_threads';
import type { ModelPortRequest } from '../modelPort.ts';
import type { EngineName } from './graphEngine.ts';

/** Calling thread to worker: embed these texts. The same request comes through a connected port (../modelPort.ts). */
export type EmbedRequest = ModelPortRequest;

/** Calling thread to worker: answer embed requests that come through this port too, from another thread (../modelPort.ts). */
export interface ConnectRequest {
  kind: 'connect';
  port: MessagePort;
}

/**
 * Calling thread to worker: finish the work in hand, release the model, and end. A thread must
 * not be terminated while onnxruntime is running or creating a session in it: the runtime's
 * callback then meets a torn-down thread and aborts the whole process (closeWorker.ts).
 */
export interface CloseRequest {
  kind: 'close';
}

export type WorkerRequest = EmbedRequest | ConnectRequest | CloseRequest;

/** Worker to calling thread. Vectors come as one transferred buffer: count × dims floats. */
export type WorkerMessage =
  /** `fallback`: why onnxruntime, when asked for, is not the engine. */
  | { kind: 'ready'; loadMs: number; engine: EngineName; fallback?: string }
  | { kind: 'vectors'; job: number; buffer: ArrayBuffer; count: number }
  | { kind: 'failed'; job: number; message: string }
  /** The worker cannot go on (model did not load): every job it holds or will get fails. */
  | { kind: 'broken'; message: string }
  /** The answer to a close request: nothing is running, the model is released. */
  | { kind: 'closed' };

/** What a worker thread is started with (`workerData`); absent means the defaults. */
export interface UseLiteWorkerData {
  /** The engine to try first (default onnx; TF.js is the fallback), for comparing the two. */
  engine?: EngineName;
  /** false: TF.js's own kernels, for comparing against the path before kernels.ts. */
  fastKernels?: boolean;
  /** onnxruntime's intra-op threads per worker (default 1: the embedder's threads are the parallelism). */
  onnxThreads?: number;
  /** The indexing pipeline's model: its thread runs below the threads that answer a person (backgroundPriority.ts). */
  background?: boolean;
}
