// Vectors in the embedded store (sqlite-vec): scoped to the workspace and to one model, replaced
// per chunk, removed with their chunks, and counted per model.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { ModelDescriptor } from '../../server/src/embed/types.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openStore } from '../../server/src/store/index.ts';
import { tempDir } from '../support/tempFolder.ts';

const MODEL_A: ModelDescriptor = { id: 'model-a', dims: 4, version: '1', maxTokens: 128 };
const MODEL_B: ModelDescriptor = { id: 'model-b', dims: 3, version: '1', maxTokens: 64 };
const HASH = 'c'.repeat(64);

const unit = (...values: number[]) => {
  const norm = Math.hypot(...values);
  return new Float32Array(values.map((value) => value / norm));
};

/** A store holding one indexed item with two chunks, as the pipeline would leave it. */
async function storeWithItem(t: TestContext, dataDir = path.join(tempDir(t), 'data'), workspace = 'alice') {
  const store = openStore({ dataDir, workspace });
  t.after(() => store.close());
  const outcome = await store.recordIngest({ path: 'a.md', contentHash: HASH, size: 10 }, () => true);
  const document = { title: 'A', text: 'one\n\ntwo', blocks: [], structure: { headings: [], tables: [] }, flags: [] };
  await store.recordParse(outcome.itemId, { contentHash: HASH, parserVersion: 'markdown@1', document }, 'A');
  const location = { kind: 'lines', start: 1, end: 1 } as const;
  await store.replaceChunks(outcome.itemId, HASH, [
    { id: `${workspace}-chunk-0`, itemId: outcome.itemId, ordinal: 0, text: 'one', headingPath: [], location, wordCount: 1 },
    { id: `${workspace}-chunk-1`, itemId: outcome.itemId, ordinal: 1, text: 'two', headingPath: [], location, wordCount: 1 },
  ]);
  return { store, itemId: outcome.itemId, dataDir };
}

async function embedAll(store: WorkspaceStore, itemId: string, model: ModelDescriptor, vectors: Float32Array[]) {
  await store.registerModel(model);
  const chunks = await store.chunksWithoutVectors(itemId, model.id);
  return store.storeVectors(
    itemId,
    HASH,
    model,
    chunks.map((chunk, index) => ({ chunkId: chunk.id, window: 0, start: 0, end: chunk.text.length, vector: vectors[index]! })),
  );
}

test('nearest windows come back with cosine similarity, best first', async (t) => {
  const { store, itemId } = await storeWithItem(t);
  assert.equal(await embedAll(store, itemId, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0)]), true);
  const hits = await store.searchVectors(MODEL_A.id, unit(1, 0.2, 0, 0), 5);
  assert.deepEqual(hits.map((hit) => hit.chunkId), ['alice-chunk-0', 'alice-chunk-1']);
  assert.ok(Math.abs(hits[0]!.similarity - 1 / Math.hypot(1, 0.2)) < 1e-5);
  assert.deepEqual(await store.chunksWithoutVectors(itemId, MODEL_A.id), []);
  assert.deepEqual(await store.itemsNeedingVectors(MODEL_A.id), []);
});

test('a chunk never holds vectors from two models: a new model replaces, search uses one model', async (t) => {
  const { store, itemId } = await storeWithItem(t);
  await embedAll(store, itemId, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0)]);
  assert.deepEqual(await store.itemsNeedingVectors(MODEL_B.id), [itemId], 'a model change re-queues the item');
  await store.registerModel(MODEL_B);
  const [first] = await store.chunksWithoutVectors(itemId, MODEL_B.id);
  await store.storeVectors(itemId, HASH, MODEL_B, [{ chunkId: first!.id, window: 0, start: 0, end: 3, vector: unit(1, 0, 0) }]);
  const usage = Object.fromEntries((await store.modelUsage()).map((model) => [model.id, model.chunks]));
  assert.deepEqual(usage, { 'model-a': 1, 'model-b': 1 }, 'old vectors remain until replaced, per chunk');
  assert.deepEqual((await store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5)).map((hit) => hit.chunkId), ['alice-chunk-1']);
  assert.deepEqual((await store.searchVectors(MODEL_B.id, unit(1, 0, 0), 5)).map((hit) => hit.chunkId), ['alice-chunk-0']);
});

test('vectors for bytes that are no longer current are refused', async (t) => {
  const { store, itemId } = await storeWithItem(t);
  await store.registerModel(MODEL_A);
  const stored = await store.storeVectors(itemId, 'd'.repeat(64), MODEL_A, [
    { chunkId: 'alice-chunk-0', window: 0, start: 0, end: 3, vector: unit(1, 0, 0, 0) },
  ]);
  assert.equal(stored, false);
  assert.deepEqual(await store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5), []);
});

test('a vector of the wrong dimension is an error naming the model', async (t) => {
  const { store, itemId } = await storeWithItem(t);
  await store.registerModel(MODEL_A);
  await assert.rejects(
    store.storeVectors(itemId, HASH, MODEL_A, [{ chunkId: 'alice-chunk-0', window: 0, start: 0, end: 3, vector: unit(1, 0, 0) }]),
    /3 dimensions, model model-a has 4/,
  );
});

test('re-chunking or deleting an item removes its vectors', async (t) => {
  const { store, itemId } = await storeWithItem(t);
  await embedAll(store, itemId, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0)]);
  await store.tombstone('a.md');
  assert.deepEqual(await store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5), []);
  assert.equal((await store.modelUsage())[0]?.vectors, 0);
});

test('vector search never crosses workspaces', async (t) => {
  const alice = await storeWithItem(t, undefined, 'alice');
  const bob = await storeWithItem(t, alice.dataDir, 'bob');
  await embedAll(alice.store, alice.itemId, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0)]);
  await bob.store.registerModel(MODEL_A);
  assert.deepEqual(await bob.store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5), []);
  assert.equal((await alice.store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5)).length, 2);
});
