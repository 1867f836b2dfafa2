// Windows with known vectors stored through the store's own calls, as the pipeline stores them,
// for the tests of vector look-ups (vectorIndex.test.ts, sharedGraph.test.ts).

import assert from 'node:assert/strict';
import type { ModelDescriptor } from '../../server/src/embed/types.ts';
import type { VectorHit, WorkspaceStore } from '../../server/src/store/contract.ts';
import { clusteredVectors } from './clusteredVectors.ts';

export const MODEL: ModelDescriptor = { id: 'model-a', dims: 32, version: '1', maxTokens: 128 };

/** Stores each document as one indexed item whose chunks hold one window vector each. */
export async function addDocument(store: WorkspaceStore, name: string, vectors: Float32Array[], model = MODEL): Promise<string> {
  const hash = Buffer.from(name).toString('hex').padEnd(64, '0').slice(0, 64);
  const { itemId } = await store.recordIngest({ path: `${name}.md`, contentHash: hash, size: 1 }, () => true);
  const document = { title: name, text: name, blocks: [], structure: { headings: [], tables: [] }, flags: [] };
  await store.recordParse(itemId, { contentHash: hash, parserVersion: 'test', document }, name);
  const location = { kind: 'lines', start: 1, end: 1 } as const;
  const chunks = vectors.map((_, ordinal) => ({
    id: `${store.workspace}-${name}-${ordinal}`, itemId, ordinal, text: 'x', headingPath: [], location, wordCount: 1,
  }));
  assert.equal(await store.replaceChunks(itemId, hash, chunks), true);
  await store.registerModel(model);
  const entries = chunks.map((chunk, index) => ({ chunkId: chunk.id, window: 0, start: 0, end: 1, vector: vectors[index]! }));
  assert.equal(await store.storeVectors(itemId, hash, model, entries), true);
  return itemId;
}

export async function addClustered(store: WorkspaceStore, count: number, dims: number, seed: number, model = MODEL) {
  const data = clusteredVectors({ count, dims, seed, windowsPerDocument: 10 });
  const byDocument = new Map<number, Float32Array[]>();
  data.vectors.forEach((vector, index) => {
    const document = data.documentOf[index]!;
    byDocument.set(document, [...(byDocument.get(document) ?? []), vector]);
  });
  const byChunk = new Map<string, Float32Array>();
  for (const [document, vectors] of byDocument) {
    const name = `${model.id}-s${seed}-doc-${document}`;
    await addDocument(store, name, vectors, model);
    vectors.forEach((vector, ordinal) => byChunk.set(`${store.workspace}-${name}-${ordinal}`, vector));
  }
  return { ...data, byChunk };
}

export const ids = (hits: VectorHit[]) => hits.map((hit) => hit.chunkId);

/** Same windows in the same order, with the same similarity to float32 precision. */
export function assertSameHits(actual: VectorHit[][], expected: VectorHit[][]): void {
  assert.deepEqual(actual.map(ids), expected.map(ids));
  actual.flat().forEach((hit, n) => assert.ok(Math.abs(hit.similarity - expected.flat()[n]!.similarity) < 1e-6));
}
