// The embedder a search uses for its query: the model the folder is embedded with, loaded only
// when a query is actually embedded. Naming the default model loads nothing, so a search over a
// store without vectors (or a lexical-only one) never pays the second and hundreds of MB a model
// costs; one thread is enough for one query.

import { createEmbedder, type EmbeddingChoice } from '../embed/choice.ts';
import type { Embedder, ModelDescriptor } from '../embed/types.ts';
import { USE_LITE_DESCRIPTOR } from '../embed/useLite/descriptor.ts';

class DeferredEmbedder implements Embedder {
  private loading: Promise<Embedder> | null = null;

  constructor(
    readonly descriptor: ModelDescriptor,
    private readonly choice: EmbeddingChoice,
  ) {}

  private load(): Promise<Embedder> {
    this.loading ??= createEmbedder(this.choice).then((embedder) => embedder!);
    return this.loading;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return (await this.load()).embed(texts);
  }

  countTokens(): number {
    throw new Error('a query embedder only embeds queries');
  }

  async close(): Promise<void> {
    const embedder = await this.loading?.catch(() => null);
    await embedder?.close();
  }
}

export async function queryEmbedder(choice: EmbeddingChoice): Promise<Embedder | null> {
  switch (choice.kind) {
    case 'none':
      return null;
    case 'use-lite':
      return new DeferredEmbedder(USE_LITE_DESCRIPTOR, { kind: 'use-lite', threads: 1 });
    case 'onnx':
      // An ONNX model's identity is read from its folder, which means opening it.
      return createEmbedder({ ...choice, threads: 1 });
  }
}
