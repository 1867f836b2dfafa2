// What a local sentence-transformer folder holds, read once and checked before any model is
// loaded, so a wrong path or a half-copied folder fails with the folder and the file named
// instead of with an error from deep inside the runtime or the tokenizer.

import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** BERT's own limit, used when the folder does not say. */
export const DEFAULT_MAX_LENGTH = 512;

/** Hugging Face writes a huge placeholder (1e30) as model_max_length when a tokenizer sets none. */
const NO_LIMIT_PLACEHOLDER = 1e6;

/** How per-token vectors become one: sentence-transformers' mean (the common case) or the [CLS] token's (BGE and others). */
export type TokenPooling = 'mean' | 'cls';

export type TokenizerSource =
  | { kind: 'tokenizer.json'; file: string; json: Record<string, unknown> }
  | { kind: 'vocab.txt'; file: string; vocab: string[] };

export interface ModelFolder {
  dir: string;
  /** The folder's own name, which names the model in its descriptor. */
  name: string;
  modelFile: string;
  tokenizer: TokenizerSource;
  /** tokenizer_config.json, or {} when absent. */
  tokenizerConfig: Record<string, unknown>;
  /** Tokens per input the model reads, [CLS] and [SEP] included. */
  maxLength: number;
  /** Used unless the graph outputs its own pooled sentence_embedding. */
  pooling: TokenPooling;
}

/** A model folder that cannot be used, with the folder and the reason; the message is meant for the user. */
export class ModelFolderError extends Error {
  constructor(
    readonly dir: string,
    readonly problem: string,
  ) {
    super(`ONNX model folder ${dir}: ${problem}`);
    this.name = 'ModelFolderError';
  }
}

export async function readModelFolder(modelDir: string): Promise<ModelFolder> {
  const dir = path.resolve(modelDir);
  if (!existsSync(dir)) throw new ModelFolderError(dir, 'the folder does not exist');
  // Exports from the Hugging Face hub keep the graph in onnx/; a hand-made folder has it at the top.
  const modelFile = [path.join(dir, 'model.onnx'), path.join(dir, 'onnx', 'model.onnx')].find((file) => existsSync(file));
  if (!modelFile) throw new ModelFolderError(dir, 'no model.onnx (looked for model.onnx and onnx/model.onnx)');

  const tokenizerConfig = (await readJson(dir, 'tokenizer_config.json')) ?? {};
  const config = (await readJson(dir, 'config.json')) ?? {};
  const sentenceBertConfig = (await readJson(dir, 'sentence_bert_config.json')) ?? {};
  return {
    dir,
    name: path.basename(dir),
    modelFile,
    tokenizer: await readTokenizerSource(dir),
    tokenizerConfig,
    maxLength: modelMaxLength(sentenceBertConfig, tokenizerConfig, config),
    pooling: tokenPooling(dir, await readJson(dir, POOLING_CONFIG)),
  };
}

/** sentence-transformers' pooling module settings, e.g. { "pooling_mode_cls_token": true, ... }. */
const POOLING_CONFIG = path.join('1_Pooling', 'config.json');

function tokenPooling(dir: string, config: Record<string, unknown> | undefined): TokenPooling {
  if (!config) return 'mean';
  const modes = Object.keys(config).filter((key) => key.startsWith('pooling_mode_') && config[key] === true);
  if (modes.length === 1 && modes[0] === 'pooling_mode_mean_tokens') return 'mean';
  if (modes.length === 1 && modes[0] === 'pooling_mode_cls_token') return 'cls';
  const asked = modes.length === 0 ? 'no pooling mode' : modes.join(' + ');
  throw new ModelFolderError(dir, `${POOLING_CONFIG} asks for ${asked}; Relata pools by mean or by the [CLS] token`);
}

/**
 * The input length the model is run with: sentence-transformers' own max_seq_length first (the
 * length the model was trained and is published with, e.g. 256 for all-MiniLM-L6-v2 although its
 * tokenizer allows 512), then the tokenizer's model_max_length, then 512; never more than the
 * model's position table.
 */
export function modelMaxLength(
  sentenceBertConfig: Record<string, unknown>,
  tokenizerConfig: Record<string, unknown>,
  config: Record<string, unknown>,
): number {
  const positive = (value: unknown): number | undefined =>
    typeof value === 'number' && Number.isInteger(value) && value > 0 && value < NO_LIMIT_PLACEHOLDER ? value : undefined;
  const wanted = positive(sentenceBertConfig.max_seq_length) ?? positive(tokenizerConfig.model_max_length) ?? DEFAULT_MAX_LENGTH;
  const positions = positive(config.max_position_embeddings);
  return positions === undefined ? wanted : Math.min(wanted, positions);
}

/** sha256 of the model file, streamed: real models are hundreds of megabytes. */
export async function modelFingerprint(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(file)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

async function readTokenizerSource(dir: string): Promise<TokenizerSource> {
  const jsonFile = path.join(dir, 'tokenizer.json');
  if (existsSync(jsonFile)) {
    const json = await readJson(dir, 'tokenizer.json');
    if (!json || typeof json.model !== 'object') throw new ModelFolderError(dir, 'tokenizer.json has no "model" section; is it a Hugging Face tokenizer file?');
    return { kind: 'tokenizer.json', file: jsonFile, json };
  }
  const vocabFile = path.join(dir, 'vocab.txt');
  if (existsSync(vocabFile)) {
    // Tokens are whole lines (a token may contain spaces in some vocabularies); ids are line numbers.
    const vocab = (await readFile(vocabFile, 'utf8')).split(/\r?\n/);
    if (vocab.at(-1) === '') vocab.pop();
    if (vocab.length === 0) throw new ModelFolderError(dir, 'vocab.txt is empty');
    return { kind: 'vocab.txt', file: vocabFile, vocab };
  }
  throw new ModelFolderError(dir, 'no tokenizer: neither tokenizer.json nor vocab.txt is there');
}

async function readJson(dir: string, name: string): Promise<Record<string, unknown> | undefined> {
  const file = path.join(dir, name);
  if (!existsSync(file)) return undefined;
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch (error) {
    throw new ModelFolderError(dir, `${name} is not valid JSON (${(error as Error).message})`);
  }
  throw new ModelFolderError(dir, `${name} does not hold a JSON object`);
}
