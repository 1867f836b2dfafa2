// Vectors cached by text for the evaluations: a corpus is embedded once per model, whatever
// branch or store later indexes it again (embedding is the slow part: ~14 passages/s on 2 cores).
// The cache is a flat file of (sha1 of the text, vector) records beside the evaluation's data.

import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LazyEmbedder } from '../../server/src/embed/choice.ts';
import type { Embedder } from '../../server/src/embed/types.ts';

export class CachedEmbedder implements Embedder {
  private readonly vectors = new Map<string, Float32Array>();
  private readonly file: string;
  /** Texts embedded by the model in this run (the rest came from the cache). */
  embedded = 0;

  constructor(
    private readonly inner: Embedder,
    cacheDir: string,
  ) {
    const { id, version, dims } = inner.descriptor;
    mkdirSync(cacheDir, { recursive: true });
    this.file = path.join(cacheDir, `vectors-${id.replace(/[^\w.@-]+/g, '_')}-v${version}.bin`);
    if (!existsSync(this.file)) return;
    const bytes = readFileSync(this.file);
    const record = 20 + dims * 4;
    for (let at = 0; at + record <= bytes.length; at += record) {
      const copy = new Uint8Array(bytes.subarray(at + 20, at + record));
      this.vectors.set(bytes.subarray(at, at + 20).toString('hex'), new Float32Array(copy.buffer));
    }
  }

  get descriptor() {
    return this.inner.descriptor;
  }

  countTokens(text: string): number {
    return this.inner.countTokens(text);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const key = (text: string) => createHash('sha1').update(text).digest('hex');
    const missing = [...new Set(texts.filter((text) => !this.vectors.has(key(text))))];
    if (missing.length > 0) {
      const vectors = await this.inner.embed(missing);
      const records: Buffer[] = [];
      missing.forEach((text, i) => {
        const vector = vectors[i]!;
        this.vectors.set(key(text), vector);
        records.push(Buffer.from(key(text), 'hex'), Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
      });
      appendFileSync(this.file, Buffer.concat(records));
      this.embedded += missing.length;
    }
    return texts.map((text) => this.vectors.get(key(text))!);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The pipeline's own lazy holder, handed the caching embedder instead of loading a model. */
export class GivenEmbedder extends LazyEmbedder {
  constructor(private readonly given: Embedder) {
    super({ kind: 'use-lite' });
  }

  override get(): Promise<Embedder | null> {
    return Promise.resolve(this.given);
  }
}
