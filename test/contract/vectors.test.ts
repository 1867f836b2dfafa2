// Vectors, on every backend: scoped to the workspace and to one model, replaced per chunk (a chunk
// never holds two models' vectors), refused for bytes that are no longer current, removed with
// their chunks, searched by cosine similarity best first, and counted per model.

import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { ModelDescriptor } from '../../server/src/embed/types.ts';
import type { VectorHit, WorkspaceStore } from '../../server/src/store/contract.ts';
import { forEachBackend, type BackendUnderTest, type StoreSite } from './backends.ts';
import { CRANE_HANDBOOK, cosine, embedDocument, handbook, indexDocument, MODEL_A, MODEL_A_TWIN, MODEL_B, unit } from './documents.ts';

const HASH = 'c'.repeat(64);

/** A store holding one indexed item with two chunks, as the pipeline would leave it. */
async function storeWithItem(backend: BackendUnderTest, t: TestContext, site: StoreSite = backend.site(t), workspace = 'alice') {
  const { store } = await site.open({ workspace });
  const outcome = await store.recordIngest({ path: 'a.md', contentHash: HASH, size: 10 }, () => true);
  const document = { title: 'A', text: 'one\n\ntwo', blocks: [], structure: { headings: [], tables: [] }, flags: [] };
  await store.recordParse(outcome.itemId, { contentHash: HASH, parserVersion: 'markdown@1', document }, 'A');
  const location = { kind: 'lines', start: 1, end: 1 } as const;
  await store.replaceChunks(outcome.itemId, HASH, [
    { id: `${workspace}-chunk-0`, itemId: outcome.itemId, ordinal: 0, text: 'one', headingPath: [], location, wordCount: 1 },
    { id: `${workspace}-chunk-1`, itemId: outcome.itemId, ordinal: 1, text: 'two', headingPath: [], location, wordCount: 1 },
  ]);
  return { store, itemId: outcome.itemId, site };
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

const ids = (hits: VectorHit[]) => hits.map((hit) => hit.chunkId);

function assertBestFirst(hits: VectorHit[]): void {
  for (let n = 1; n < hits.length; n += 1) assert.ok(hits[n - 1]!.similarity >= hits[n]!.similarity, 'best first');
}

forEachBackend((backend) => {
  backend.test('nearest windows come back with cosine similarity, best first', async (t) => {
    const { store, itemId } = await storeWithItem(backend, t);
    assert.equal(await embedAll(store, itemId, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0)]), true);
    const hits = await store.searchVectors(MODEL_A.id, unit(1, 0.2, 0, 0), 5);
    assert.deepEqual(hits.map((hit) => hit.chunkId), ['alice-chunk-0', 'alice-chunk-1']);
    assert.ok(Math.abs(hits[0]!.similarity - 1 / Math.hypot(1, 0.2)) < 1e-5);
    assert.deepEqual(await store.chunksWithoutVectors(itemId, MODEL_A.id), []);
    assert.deepEqual(await store.itemsNeedingVectors(MODEL_A.id), []);
  });

  backend.test('a chunk never holds vectors from two models: a new model replaces, search uses one model', async (t) => {
    const { store, itemId } = await storeWithItem(backend, t);
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

  backend.test('vectors for bytes that are no longer current are refused', async (t) => {
    const { store, itemId } = await storeWithItem(backend, t);
    await store.registerModel(MODEL_A);
    const stored = await store.storeVectors(itemId, 'd'.repeat(64), MODEL_A, [
      { chunkId: 'alice-chunk-0', window: 0, start: 0, end: 3, vector: unit(1, 0, 0, 0) },
    ]);
    assert.equal(stored, false);
    assert.deepEqual(await store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5), []);
  });

  backend.test('a vector of the wrong dimension is an error naming the model', async (t) => {
    const { store, itemId } = await storeWithItem(backend, t);
    await store.registerModel(MODEL_A);
    await assert.rejects(
      store.storeVectors(itemId, HASH, MODEL_A, [{ chunkId: 'alice-chunk-0', window: 0, start: 0, end: 3, vector: unit(1, 0, 0) }]),
      /3 dimensions, model model-a has 4/,
    );
  });

  backend.test('re-chunking or deleting an item removes its vectors', async (t) => {
    const { store, itemId } = await storeWithItem(backend, t);
    await embedAll(store, itemId, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0)]);
    await store.tombstone('a.md');
    assert.deepEqual(await store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5), []);
    assert.equal((await store.modelUsage())[0]?.vectors, 0);
  });

  backend.test('vector search never crosses workspaces', async (t) => {
    const alice = await storeWithItem(backend, t, undefined, 'alice');
    const bob = await storeWithItem(backend, t, alice.site, 'bob');
    await embedAll(alice.store, alice.itemId, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0)]);
    await bob.store.registerModel(MODEL_A);
    assert.deepEqual(await bob.store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5), []);
    assert.equal((await alice.store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5)).length, 2);
  });

  // ---------------------------------------------------------------------------------------------

  backend.test('a registered model is listed with no vectors until some are stored; registering again changes nothing', async (t) => {
    const { store } = await backend.open(t);
    assert.deepEqual(await store.modelUsage(), []);
    await store.registerModel(MODEL_A);
    await store.registerModel(MODEL_A);
    assert.deepEqual(await store.modelUsage(), [{ ...MODEL_A, vectors: 0, chunks: 0 }]);
    assert.equal(await store.hasVectors(MODEL_A.id), false);
    assert.deepEqual(await store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5), []);
  });

  backend.test('a search for a model with no vectors here finds nothing', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await embedDocument(store, document, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(0, 0, 1, 0)]);
    assert.deepEqual(await store.searchVectors('never-registered', unit(1, 0, 0, 0), 5), []);
    assert.deepEqual(await store.searchVectorsMany('never-registered', [unit(1, 0, 0, 0)], 5), [[]]);
    assert.equal(await store.hasVectors('never-registered'), false);
  });

  backend.test('a chunk\'s windows are stored together and each is found with its window number and true similarity', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const [hoist, rails, cabin] = document.chunks;
    const vectors = { hoist0: unit(1, 0, 0, 0), hoist1: unit(1, 1, 0, 0), rails0: unit(0, 0, 1, 0), cabin0: unit(0, 0, 0, 1) };
    await store.registerModel(MODEL_A);
    const middle = Math.floor(hoist!.text.length / 2);
    assert.equal(
      await store.storeVectors(document.itemId, document.contentHash, MODEL_A, [
        { chunkId: hoist!.id, window: 0, start: 0, end: middle, vector: vectors.hoist0 },
        { chunkId: hoist!.id, window: 1, start: middle, end: hoist!.text.length, vector: vectors.hoist1 },
        { chunkId: rails!.id, window: 0, start: 0, end: rails!.text.length, vector: vectors.rails0 },
        { chunkId: cabin!.id, window: 0, start: 0, end: cabin!.text.length, vector: vectors.cabin0 },
      ]),
      true,
    );
    assert.deepEqual(await store.modelUsage(), [{ ...MODEL_A, vectors: 4, chunks: 3 }]);
    const query = unit(0.2, 1, 0.1, 0);
    const hits = await store.searchVectors(MODEL_A.id, query, 10);
    assert.deepEqual(hits.map((hit) => `${hit.chunkId === hoist!.id ? 'hoist' : hit.chunkId === rails!.id ? 'rails' : 'cabin'}/${hit.window}`), [
      'hoist/1',
      'hoist/0',
      'rails/0',
      'cabin/0',
    ]);
    assertBestFirst(hits);
    assert.ok(hits.every((hit) => hit.itemId === document.itemId));
    const expected = [vectors.hoist1, vectors.hoist0, vectors.rails0, vectors.cabin0].map((vector) => cosine(query, vector));
    hits.forEach((hit, n) => assert.ok(Math.abs(hit.similarity - expected[n]!) < 1e-5, `similarity of hit ${n}: ${hit.similarity}, expected ${expected[n]}`));
    assert.equal((await store.searchVectors(MODEL_A.id, query, 2)).length, 2, 'k bounds the hits');
  });

  backend.test('storing vectors again replaces a chunk\'s earlier windows instead of adding to them', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await embedDocument(store, document, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(0, 0, 1, 0)]);
    await embedDocument(store, document, MODEL_A, [unit(0, 0, 0, 1), unit(0, 1, 0, 0), unit(0, 0, 1, 0)]);
    assert.deepEqual(await store.modelUsage(), [{ ...MODEL_A, vectors: 3, chunks: 3 }]);
    const [best] = await store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 1);
    assert.ok(Math.abs(best!.similarity) < 1e-5, 'the first vector of the hoist passage is gone');
  });

  backend.test('vectors naming a chunk the item no longer has are refused', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await store.registerModel(MODEL_A);
    const stale = [{ chunkId: 'a-chunk-of-something-else', window: 0, start: 0, end: 3, vector: unit(1, 0, 0, 0) }];
    assert.equal(await store.storeVectors(document.itemId, document.contentHash, MODEL_A, stale), false);
    assert.equal(await store.hasVectors(MODEL_A.id), false);
  });

  backend.test('items needing vectors: indexed live items with a chunk this model has not embedded', async (t) => {
    const { store } = await backend.open(t);
    const handbookDocument = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const other = await indexDocument(store, 'other.md', handbook('Rigging notes', [['Slings', 'sling inspection'], ['Shackles', 'shackle pin']]));
    await store.recordIngest({ path: 'pending.md', contentHash: 'e'.repeat(64), size: 5 }, () => true);
    assert.deepEqual(new Set(await store.itemsNeedingVectors(MODEL_A.id)), new Set([handbookDocument.itemId, other.itemId]));

    await store.registerModel(MODEL_A);
    const [firstChunk] = handbookDocument.chunks;
    await store.storeVectors(handbookDocument.itemId, handbookDocument.contentHash, MODEL_A, [
      { chunkId: firstChunk!.id, window: 0, start: 0, end: 10, vector: unit(1, 0, 0, 0) },
    ]);
    assert.deepEqual(
      (await store.chunksWithoutVectors(handbookDocument.itemId, MODEL_A.id)).map((chunk) => chunk.id),
      handbookDocument.chunks.slice(1).map((chunk) => chunk.id),
      'the chunks still lacking a vector, in document order',
    );
    assert.deepEqual(new Set(await store.itemsNeedingVectors(MODEL_A.id)), new Set([handbookDocument.itemId, other.itemId]), 'partly embedded still needs vectors');
    await embedDocument(store, handbookDocument, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(0, 0, 1, 0)]);
    assert.deepEqual(await store.itemsNeedingVectors(MODEL_A.id), [other.itemId]);
    await store.tombstone('other.md');
    assert.deepEqual(await store.itemsNeedingVectors(MODEL_A.id), [], 'a deleted item needs nothing');
  });

  backend.test('a batch of queries is answered in query order, each as a single search would', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await embedDocument(store, document, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(0, 0, 1, 0)]);
    const queries = [unit(0, 0, 1, 0.1), unit(1, 0.5, 0, 0), unit(0, 1, 0, 0)];
    const batch = await store.searchVectorsMany(MODEL_A.id, queries, 2);
    const single = await Promise.all(queries.map((query) => store.searchVectors(MODEL_A.id, query, 2)));
    assert.deepEqual(batch, single);
    assert.deepEqual(batch.map((hits) => hits[0]!.chunkId), [document.chunks[2]!.id, document.chunks[0]!.id, document.chunks[1]!.id]);
    assert.deepEqual(await store.searchVectorsMany(MODEL_A.id, [], 2), []);
  });

  backend.test('a search uses one model\'s vectors only, even when another model has the same dimensions', async (t) => {
    const { store } = await backend.open(t);
    const a = await indexDocument(store, 'a.md', handbook('Alpha', [['One', 'alpha pump']]));
    const b = await indexDocument(store, 'b.md', handbook('Beta', [['One', 'beta valve']]));
    await embedDocument(store, a, MODEL_A, [unit(1, 0, 0, 0)]);
    await embedDocument(store, b, MODEL_A_TWIN, [unit(1, 0, 0, 0)]);
    assert.deepEqual(ids(await store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5)), [a.chunks[0]!.id]);
    assert.deepEqual(ids(await store.searchVectors(MODEL_A_TWIN.id, unit(1, 0, 0, 0), 5)), [b.chunks[0]!.id]);
    assert.deepEqual((await store.bestSimilarities(MODEL_A.id, unit(1, 0, 0, 0), [a.itemId, b.itemId])).map((hit) => hit.itemId), [a.itemId]);
  });

  backend.test('best similarities: each listed item\'s best window among this model\'s vectors', async (t) => {
    const { store } = await backend.open(t);
    const first = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const second = await indexDocument(store, 'rigging.md', handbook('Rigging notes', [['Slings', 'sling inspection'], ['Shackles', 'shackle pin']]));
    const unembedded = await indexDocument(store, 'plain.md', handbook('Plain', [['Only', 'plain section']]));
    await embedDocument(store, first, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(0, 0, 1, 0)]);
    await embedDocument(store, second, MODEL_A, [unit(0, 0, 0, 1), unit(1, 0, 0, 1)]);
    const query = unit(1, 0, 0, 0.2);
    const best = new Map((await store.bestSimilarities(MODEL_A.id, query, [first.itemId, second.itemId, unembedded.itemId])).map((hit) => [hit.itemId, hit]));
    assert.deepEqual([...best.keys()].sort(), [first.itemId, second.itemId].sort(), 'an item without vectors has no best window');
    assert.equal(best.get(first.itemId)!.chunkId, first.chunks[0]!.id);
    assert.equal(best.get(second.itemId)!.chunkId, second.chunks[1]!.id);
    assert.equal(best.get(second.itemId)!.window, 0);
    assert.ok(Math.abs(best.get(first.itemId)!.similarity - cosine(query, unit(1, 0, 0, 0))) < 1e-5);
    assert.ok(Math.abs(best.get(second.itemId)!.similarity - cosine(query, unit(1, 0, 0, 1))) < 1e-5);
    assert.deepEqual(await store.bestSimilarities(MODEL_A.id, query, []), []);
    assert.deepEqual(await store.bestSimilarities(MODEL_B.id, unit(1, 0, 0), [first.itemId]), [], 'another model\'s vectors are not compared');
  });

  backend.test('hasVectors says whether any passage has a vector from this model', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await store.registerModel(MODEL_B);
    assert.equal(await store.hasVectors(MODEL_A.id), false);
    await embedDocument(store, document, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(0, 0, 1, 0)]);
    assert.equal(await store.hasVectors(MODEL_A.id), true);
    assert.equal(await store.hasVectors(MODEL_B.id), false);
  });

  backend.test('a new version of an item drops its vectors with its passages', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await embedDocument(store, document, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(0, 0, 1, 0)]);
    const changed = await indexDocument(store, 'handbook.md', handbook('Crane handbook', [['Hoist', 'hoist motor']]));
    assert.equal(changed.itemId, document.itemId);
    assert.deepEqual(await store.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 5), []);
    assert.deepEqual(await store.modelUsage(), [{ ...MODEL_A, vectors: 0, chunks: 0 }]);
    assert.deepEqual(await store.itemsNeedingVectors(MODEL_A.id), [document.itemId]);
    assert.equal(await store.storeVectors(document.itemId, document.contentHash, MODEL_A, [
      { chunkId: changed.chunks[0]!.id, window: 0, start: 0, end: 3, vector: unit(1, 0, 0, 0) },
    ]), false, 'vectors computed for the old bytes are refused');
  });
});
