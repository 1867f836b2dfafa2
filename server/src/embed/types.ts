// The embedder contract: text in, unit vectors out, and a descriptor naming exactly which model
// made them. Every stored vector records the descriptor, so a model change is visible, never
// silent. Implementations: the offline default (Universal Sentence Encoder lite, in worker
// threads) and local ONNX sentence-transformers.

export interface ModelDescriptor {
  /** Stable identity of the model, e.g. "use-lite@0.2.0" or "onnx:all-MiniLM-L6-v2#<sha256 prefix>". */
  id: string;
  dims: number;
  /** Bumped when the same model is run differently (tokenizer, pooling), which changes vectors. */
  version: string;
  /** Tokens the model actually reads; text beyond it is ignored by the model. */
  maxTokens: number;
}

import type { MessagePort } from 'node:worker_threads';

export interface Embedder {
  readonly descriptor: ModelDescriptor;
  /** One L2-normalised vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Tokens the model would see for this text (before truncation), to fit passages to `maxTokens`. Synchronous and cheap: the embed stage calls it per sentence. */
  countTokens(text: string): number;
  /** Releases threads, sessions and memory. */
  close(): Promise<void>;
  /**
   * A port on which another thread embeds with this same model (modelPort.ts), its requests
   * never passing through this thread; absent when the model does not run in a thread of its own.
   */
  openPort?(): Promise<MessagePort>;
}
