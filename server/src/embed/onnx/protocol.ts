// Messages between the ONNX embedder (calling thread) and its worker thread, in one place so
// both sides agree on them. Token ids go in, unit vectors come out: tokenising stays with the
// caller, which needs it synchronously for counting.

import type { TokenPooling } from './modelFolder.ts';
import type { EncodedPassage } from './passageTokenizer.ts';

/** What the worker opens, passed as its workerData. */
export interface SessionSpec {
  dir: string;
  modelFile: string;
  padId: number;
  threads: number;
  pooling: TokenPooling;
  /** The indexing pipeline's model: its thread (and onnxruntime's, started from it) runs at the pipeline's lower priority. */
  background?: boolean;
}

export type EmbedderRequest =
  | { kind: 'embed'; job: number; batch: EncodedPassage[] }
  /** Release the session and end the thread. */
  | { kind: 'close' };

/** A failure as the worker saw it; `folder` is set when it was a ModelFolderError, so the caller can rebuild one. */
export interface Failure {
  message: string;
  folder?: { dir: string; problem: string };
}

export type WorkerMessage =
  | { kind: 'ready'; pooledByModel: boolean }
  /** Vectors as one transferred buffer: count × dims floats, in batch order. */
  | { kind: 'vectors'; job: number; buffer: ArrayBuffer; count: number }
  | { kind: 'failed'; job: number; failure: Failure }
  /** The session did not open: nothing will be embedded. */
  | { kind: 'broken'; failure: Failure };
