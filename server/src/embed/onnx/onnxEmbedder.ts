// The embedder for a local ONNX sentence-transformer folder (model.onnx plus tokenizer.json or
// vocab.txt): for users who want a stronger or domain-specific model than the offline default
// and can copy one onto their machine. Tokenising stays in the calling thread, because the embed
// stage counts tokens per sentence synchronously; the model runs in a worker thread.
//
// Tokens, as `countTokens` and `maxTokens` count them, are the passage's own tokens: the model's
// special tokens ([CLS], [SEP]) are not counted, and `maxTokens` is the model's input length
// minus those. Counts then add up across sentences, which is how passages are fitted.

import os from 'node:os';
import type { Embedder, ModelDescriptor } from '../types.ts';
import { ModelFolderError, modelFingerprint, readModelFolder } from './modelFolder.ts';
import { passageTokenizer, type PassageTokenizer } from './passageTokenizer.ts';
import { SessionThread } from './sessionThread.ts';

/** How vectors are made from the model's output; part of the descriptor, so a change re-embeds. */
export const POOLING_VERSIONS = {
  mean: 'onnx-mean-pool@1',
  cls: 'onnx-cls-pool@1',
  /** For graphs that output their own pooled `sentence_embedding` (it is only normalised). */
  model: 'onnx-model-pooled@1',
} as const;

export interface OnnxEmbedderOptions {
  /** Passages per inference call (default 32). Passages of similar length are batched together. */
  batchSize?: number;
  /** Threads one inference uses (default: the available cores; onnxruntime scales nearly linearly). */
  threads?: number;
  /** The indexing pipeline's model: see UseLiteOptions.background. */
  background?: boolean;
}

const DEFAULT_BATCH_SIZE = 32;
const FINGERPRINT_LENGTH = 12;

export async function createOnnxEmbedder(modelDir: string, options: OnnxEmbedderOptions = {}): Promise<Embedder> {
  const threads = options.threads ?? os.availableParallelism();
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${threads}`);
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);

  const folder = await readModelFolder(modelDir);
  const tokenizer = passageTokenizer(folder.tokenizer, folder.tokenizerConfig);
  const maxTokens = folder.maxLength - tokenizer.specialTokens;
  if (maxTokens < 1) throw new ModelFolderError(folder.dir, `a maximum input of ${folder.maxLength} tokens leaves no room for text`);

  const fingerprint = modelFingerprint(folder.modelFile);
  const thread = new SessionThread({
    dir: folder.dir,
    modelFile: folder.modelFile,
    padId: tokenizer.padId,
    threads,
    pooling: folder.pooling,
    background: options.background ?? false,
  });
  try {
    const pooledByModel = await thread.ready;
    // One real inference now, so a graph with an unexpected output fails at load, not mid-index,
    // and the vector width comes from the model itself rather than from a config file that may lie.
    const [probe] = await thread.run([tokenizer.encode('', maxTokens)]);
    const descriptor: ModelDescriptor = {
      id: `onnx:${folder.name}#${(await fingerprint).slice(0, FINGERPRINT_LENGTH)}`,
      dims: probe!.length,
      version: POOLING_VERSIONS[pooledByModel ? 'model' : folder.pooling],
      maxTokens,
    };
    return new OnnxEmbedder(descriptor, tokenizer, thread, batchSize);
  } catch (error) {
    await thread.close();
    throw error;
  }
}

class OnnxEmbedder implements Embedder {
  constructor(
    readonly descriptor: ModelDescriptor,
    private readonly tokenizer: PassageTokenizer,
    private readonly thread: SessionThread,
    private readonly batchSize: number,
  ) {}

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const encoded = texts.map((text) => this.tokenizer.encode(text, this.descriptor.maxTokens));
    // Batch passages of similar length together: a batch is padded to its longest passage.
    const order = encoded.map((_, index) => index).sort((a, b) => encoded[a]!.ids.length - encoded[b]!.ids.length);
    const batches: number[][] = [];
    for (let start = 0; start < order.length; start += this.batchSize) batches.push(order.slice(start, start + this.batchSize));
    const results = await Promise.all(batches.map((indices) => this.thread.run(indices.map((index) => encoded[index]!))));
    const vectors = new Array<Float32Array>(texts.length);
    batches.forEach((indices, batch) => indices.forEach((index, position) => (vectors[index] = results[batch]![position]!)));
    return vectors;
  }

  countTokens(text: string): number {
    return this.tokenizer.tokens(text).length;
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
