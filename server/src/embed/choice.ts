// Which embedder a folder uses, as a user names it: the offline default, a local ONNX model
// folder, or none (lexical search only). One parser for the CLI flag, the environment variable
// and (later) the editor setting, and one factory, so they cannot drift apart.

import path from 'node:path';
import type { Embedder, ModelDescriptor } from './types.ts';

export type EmbeddingChoice =
  | { kind: 'none' }
  | { kind: 'use-lite'; threads?: number }
  | { kind: 'onnx'; modelDir: string; threads?: number };

export const DEFAULT_EMBEDDING: EmbeddingChoice = { kind: 'use-lite' };

/** "default", "none", or a path to a local ONNX sentence-transformer folder. */
export function parseEmbeddingChoice(value: string | undefined, threads?: number): EmbeddingChoice {
  const spec = value?.trim();
  if (!spec || spec === 'default' || spec === 'use-lite') return { kind: 'use-lite', threads };
  if (spec === 'none' || spec === 'off') return { kind: 'none' };
  return { kind: 'onnx', modelDir: path.resolve(spec), threads };
}

export function embeddingChoiceFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddingChoice {
  const threads = Number(env.RELATA_EMBEDDING_THREADS);
  return parseEmbeddingChoice(env.RELATA_EMBEDDING_MODEL, Number.isInteger(threads) && threads > 0 ? threads : undefined);
}

export interface EmbedderUse {
  /** An indexing pipeline's model: its threads run below those that answer a person (UseLiteOptions.background). */
  background?: boolean;
}

export async function createEmbedder(choice: EmbeddingChoice, use: EmbedderUse = {}): Promise<Embedder | null> {
  switch (choice.kind) {
    case 'none':
      return null;
    case 'use-lite': {
      const { createUseLiteEmbedder } = await import('./useLite/index.ts');
      return createUseLiteEmbedder({ threads: choice.threads, background: use.background });
    }
    case 'onnx': {
      const { createOnnxEmbedder } = await import('./onnx/index.ts');
      return createOnnxEmbedder(choice.modelDir, { threads: choice.threads, background: use.background });
    }
  }
}

/**
 * The indexing pipeline's embedder, loaded on first use and kept: a model costs a second and
 * hundreds of MB per thread, so folders with nothing to embed never pay for it. Its threads run at
 * the pipeline's lower priority (queries have their own model: ranking/queryEmbedder.ts).
 */
export class LazyEmbedder {
  private loading: Promise<Embedder | null> | null = null;
  private loaded: Embedder | null = null;

  constructor(readonly choice: EmbeddingChoice) {}

  /** The model once loaded, without loading it: what a status report can name at no cost. */
  get descriptor(): ModelDescriptor | null {
    return this.loaded?.descriptor ?? null;
  }

  get enabled(): boolean {
    return this.choice.kind !== 'none';
  }

  get(): Promise<Embedder | null> {
    this.loading ??= createEmbedder(this.choice, { background: true }).then((embedder) => (this.loaded = embedder));
    return this.loading;
  }

  async close(): Promise<void> {
    const embedder = await this.loading?.catch(() => null);
    await embedder?.close();
    this.loading = null;
    this.loaded = null;
  }
}
