// What USE-lite is, for the threads that run it and the stores that record it, kept apart from
// the model code so that naming the model loads nothing.

import type { ModelDescriptor } from '../types.ts';

export const USE_LITE_DIMS = 512;
/** The graph reads the first 128 token ids of an input and ignores the rest (measured). */
export const USE_LITE_MAX_TOKENS = 128;

export const USE_LITE_DESCRIPTOR: ModelDescriptor = Object.freeze({
  id: 'use-lite@0.2.0',
  dims: USE_LITE_DIMS,
  // 1: whitespace collapsed as SentencePiece does, then the fast tokenizer (ids identical to the
  // package's), ids cut at 128, rows re-normalised.
  version: '1',
  maxTokens: USE_LITE_MAX_TOKENS,
});
