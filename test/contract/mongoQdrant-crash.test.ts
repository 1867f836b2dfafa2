// A crash between two writes of the MongoDB + Qdrant store, which has no transaction spanning
// them, must be harmless: what the first write left is never served and the next run repairs it.
// Each test leaves the servers exactly as a process that died between the two writes would (by
// doing the second step's opposite with the official clients), then checks the store's answers.
//   - Vectors (vectorPoints.ts): points upserted, coverage not recorded; coverage moved to a new
//     model, the old model's points not deleted; an item's vectors dropped from MongoDB, not
//     from Qdrant.
//   - Relationships (relationships.ts): the relationship written, its history entry not appended;
//     appended, not cleared from the document.
//
// Runs only against real servers (RELATA_TEST_MONGODB_URI, RELATA_TEST_QDRANT_URL, and
// RELATA_TEST_QDRANT_API_KEY when needed); otherwise every test is skipped with that reason. Each
// run uses a database of its own (dropped at the end) and a folder key per test, whose points are
// deleted from the shared collections at the end.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test, type TestContext } from 'node:test';
import type { Db, MongoClient } from 'mongodb';
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { ModelDescriptor } from '../../server/src/embed/types.ts';
import type { RelationshipProposal, WorkspaceStore } from '../../server/src/store/contract.ts';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { databaseName } from '../../server/src/store/mongoQdrant/connection.ts';
import { openMongoQdrantStore } from '../../server/src/store/mongoQdrant/index.ts';
import { vectorCollectionName } from '../../server/src/store/mongoQdrant/pointIds.ts';
import { scopedPointFilter, matchValue } from '../../server/src/store/mongoQdrant/qdrantScope.ts';
import { eventOf, RELATIONSHIP_EVENTS_COLLECTION, RELATIONSHIPS_COLLECTION } from '../../server/src/store/mongoQdrant/relationships.ts';
import { vectorPoint } from '../../server/src/store/mongoQdrant/vectorPoints.ts';
import { MONGO_QDRANT_SKIP, withDatabaseSuffix } from './backends.ts';
import { CRANE_HANDBOOK, handbook, indexDocument, MODEL_A, MODEL_A_TWIN, unit, windowsOf, type IndexedDocument } from './documents.ts';
import { similarProposal } from '../support/proposals.ts';

const mongodbUri = process.env.RELATA_TEST_MONGODB_URI;
const qdrantUrl = process.env.RELATA_TEST_QDRANT_URL;
const qdrantApiKey = process.env.RELATA_TEST_QDRANT_API_KEY || undefined;
const skip: string | false = mongodbUri && qdrantUrl ? false : MONGO_QDRANT_SKIP;

const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const runUri = mongodbUri ? withDatabaseSuffix(mongodbUri, `crash_${run}`) : '';
const folders: string[] = [];
const WORKSPACE = 'alice';

/** The raw clients, opened once per run: what a crashed process left is made with them. */
let raw: Promise<{ mongo: MongoClient; db: Db; qdrant: QdrantClient }> | null = null;
function rawClients() {
  return (raw ??= (async () => {
    const { MongoClient } = await import('mongodb');
    const { QdrantClient } = await import('@qdrant/js-client-rest');
    const mongo = await new MongoClient(runUri).connect();
    return { mongo, db: mongo.db(databaseName(runUri)), qdrant: new QdrantClient({ url: qdrantUrl!, apiKey: qdrantApiKey, checkCompatibility: false }) };
  })());
}

after(async () => {
  if (!raw) return;
  const { mongo, db, qdrant } = await raw;
  await db.dropDatabase();
  await mongo.close();
  const { collections } = await qdrant.getCollections();
  for (const { name } of collections) {
    await qdrant.delete(name, { wait: true, filter: { must: [{ key: 'folder', match: { any: folders } }] } });
  }
});

/** A store on a folder of its own, closed when the test ends. */
function openFolder(t: TestContext): { store: WorkspaceStore; scope: { workspace: string; folder: string } } {
  const folder = `crash-${run}-${folders.length + 1}`;
  folders.push(folder);
  const { store } = openMongoQdrantStore({ location: { backend: 'mongodb-qdrant', mongodbUri: runUri, qdrantUrl: qdrantUrl!, qdrantApiKey, folder }, workspace: WORKSPACE });
  t.after(() => store.close());
  return { store, scope: { workspace: WORKSPACE, folder } };
}

const crashTest = (name: string, fn: (t: TestContext) => Promise<void>) => test(name, { skip, timeout: 120_000 }, fn);

/** The three sections of the handbook, one passage each, each along its own axis. */
const AXES = [unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(0, 0, 1, 0)];

async function embedded(store: WorkspaceStore, model: ModelDescriptor = MODEL_A): Promise<IndexedDocument> {
  const document = await indexDocument(store, 'crane.md', CRANE_HANDBOOK);
  assert.equal(document.chunks.length, 3, 'the handbook gives one passage per section');
  await store.registerModel(model);
  assert.equal(await store.storeVectors(document.itemId, document.contentHash, model, windowsOf(document, AXES)), true);
  return document;
}

/** How many points of this scope Qdrant holds for a chunk and model, ignored or not. */
async function pointsOf(scope: { workspace: string; folder: string }, model: ModelDescriptor, chunkId: string): Promise<number> {
  const { qdrant } = await rawClients();
  const filter = scopedPointFilter(scope, [matchValue('chunk_id', chunkId), matchValue('model_id', model.id)]);
  return (await qdrant.count(vectorCollectionName(model.dims), { filter, exact: true })).count;
}

/** Writes points as storeVectors' first step does, and nothing else: a process that died right after. */
async function upsertPointsOnly(scope: { workspace: string; folder: string }, model: ModelDescriptor, document: IndexedDocument, chunkIndex: number, vector: Float32Array) {
  const { qdrant } = await rawClients();
  const chunk = document.chunks[chunkIndex]!;
  const point = vectorPoint(scope, model, document.itemId, { chunkId: chunk.id, window: 0, start: 0, end: chunk.text.length, vector });
  await qdrant.upsert(vectorCollectionName(model.dims), { wait: true, points: [point] });
}

crashTest('points written without their coverage are never served, and embedding the chunk again overwrites them', async (t) => {
  const { store, scope } = openFolder(t);
  const document = await indexDocument(store, 'crane.md', CRANE_HANDBOOK);
  await store.registerModel(MODEL_A);
  const [first, second] = document.chunks;
  assert.equal(await store.storeVectors(document.itemId, document.contentHash, MODEL_A, windowsOf(document, AXES).slice(0, 1)), true);
  // The process embedding the second passage died after writing its point.
  await upsertPointsOnly(scope, MODEL_A, document, 1, AXES[1]!);

  assert.deepEqual((await store.searchVectors(MODEL_A.id, AXES[1]!, 5)).map((hit) => hit.chunkId), [first!.id]);
  assert.deepEqual((await store.chunksWithoutVectors(document.itemId, MODEL_A.id)).map((chunk) => chunk.id), [second!.id, document.chunks[2]!.id]);
  assert.deepEqual((await store.modelUsage()).map((usage) => [usage.id, usage.chunks, usage.vectors]), [[MODEL_A.id, 1, 1]]);

  assert.equal(await store.storeVectors(document.itemId, document.contentHash, MODEL_A, windowsOf(document, AXES).slice(1, 2)), true);
  assert.equal(await pointsOf(scope, MODEL_A, second!.id), 1, 'the second run overwrote the point instead of adding one');
  assert.equal((await store.searchVectors(MODEL_A.id, AXES[1]!, 1))[0]?.chunkId, second!.id);
});

crashTest('the old model\'s points left after the coverage moved to a new model are never served, and the next embedding removes them', async (t) => {
  const { store, scope } = openFolder(t);
  const document = await embedded(store, MODEL_A);
  const [first] = document.chunks;
  // Model "a-twin" (same dimension, same collection) embeds the first passage...
  await store.registerModel(MODEL_A_TWIN);
  assert.equal(await store.storeVectors(document.itemId, document.contentHash, MODEL_A_TWIN, windowsOf(document, AXES).slice(0, 1)), true);
  assert.equal(await pointsOf(scope, MODEL_A, first!.id), 0, 'a completed write removes the old model\'s point');
  // ...and, in the run being replayed, died before its clean-up: the old model's point is still there.
  await upsertPointsOnly(scope, MODEL_A, document, 0, AXES[0]!);
  assert.equal(await pointsOf(scope, MODEL_A, first!.id), 1);

  const underA = await store.searchVectors(MODEL_A.id, AXES[0]!, 5);
  assert.equal(underA.some((hit) => hit.chunkId === first!.id), false, 'the old model no longer has this passage');
  assert.equal((await store.searchVectors(MODEL_A_TWIN.id, AXES[0]!, 5))[0]?.chunkId, first!.id);
  const usage = Object.fromEntries((await store.modelUsage()).map((model) => [model.id, model.chunks]));
  assert.deepEqual(usage, { [MODEL_A.id]: 2, [MODEL_A_TWIN.id]: 1 }, 'a chunk counts under one model only');
  assert.equal((await store.chunksWithoutVectors(document.itemId, MODEL_A.id)).some((chunk) => chunk.id === first!.id), true);
  const [best] = await store.bestSimilarities(MODEL_A.id, AXES[0]!, [document.itemId]);
  assert.notEqual(best?.chunkId, first!.id, 'the item\'s best window under the old model is one it still has');

  // Embedding the passage again (any model) clears what the crash left.
  assert.equal(await store.storeVectors(document.itemId, document.contentHash, MODEL_A_TWIN, windowsOf(document, AXES).slice(0, 1)), true);
  assert.equal(await pointsOf(scope, MODEL_A, first!.id), 0);
});

crashTest('points left after an item\'s vectors were dropped from MongoDB are never served', async (t) => {
  const { store, scope } = openFolder(t);
  const document = await embedded(store);
  // The file is gone: tombstoning drops its vectors. Then the points come back as if the drop had
  // died between deleting the coverage and deleting the points.
  await store.tombstone('crane.md');
  for (const [index, axis] of AXES.entries()) await upsertPointsOnly(scope, MODEL_A, document, index, axis);

  assert.deepEqual(await store.searchVectors(MODEL_A.id, AXES[0]!, 5), []);
  assert.equal(await store.hasVectors(MODEL_A.id), false);
  assert.deepEqual((await store.modelUsage()).map((usage) => [usage.id, usage.chunks]), [[MODEL_A.id, 0]]);
});

crashTest('vectors of passages re-chunked away are not served while their points remain, and a late write of them is refused', async (t) => {
  const { store, scope } = openFolder(t);
  const document = await embedded(store);
  // New bytes: new passages, the old ones' vectors dropped; then the old points come back as if
  // the drop had died between the coverage and the points.
  const changed = await indexDocument(store, 'crane.md', handbook('Crane handbook', [['Hoist', 'hoist rope']]));
  for (const [index, axis] of AXES.entries()) await upsertPointsOnly(scope, MODEL_A, document, index, axis);
  assert.deepEqual(await store.searchVectors(MODEL_A.id, AXES[0]!, 5), []);
  assert.deepEqual(await store.itemsNeedingVectors(MODEL_A.id), [changed.itemId]);
  // A worker that embedded the old bytes and finishes late: refused as stale, nothing served.
  assert.equal(await store.storeVectors(document.itemId, document.contentHash, MODEL_A, windowsOf(document, AXES)), false);
  assert.deepEqual(await store.searchVectors(MODEL_A.id, AXES[0]!, 5), []);
  assert.equal(await store.hasVectors(MODEL_A.id), false);
});

const proposal = (from: string, to: string, score: number): RelationshipProposal =>
  similarProposal(from, to, score, [{ type: 'semantic_similarity', value: `${score} cosine`, strength: score, weight: 0.5, detail: 'similar passages' }]);

async function relatedPair(store: WorkspaceStore) {
  const a = await indexDocument(store, 'a.md', handbook('A', [['One', 'hoist brake']]));
  const b = await indexDocument(store, 'b.md', handbook('B', [['Two', 'rail alignment']]));
  const { id } = await store.upsertRelationship(proposal(a.itemId, b.itemId, 0.6), reviewAgainstDecision);
  return { id, a: a.itemId, b: b.itemId };
}

/**
 * Leaves the relationship as a rediscovery that died after its one atomic update: the document at
 * the next revision with its history entry pending, the entry not in the history collection.
 */
async function updateWithoutAppending(scope: { workspace: string; folder: string }, id: string, score: number): Promise<void> {
  const { db } = await rawClients();
  const relationships = db.collection(RELATIONSHIPS_COLLECTION);
  const found = await relationships.findOne({ ...scope, id });
  assert.ok(found, `relationship ${id} is stored`);
  const state = proposal(found.fromItemId as string, found.toItemId as string, score);
  const revision = (found.revision as number) + 1;
  const pendingEvent = eventOf(id, revision, 'updated', 'discover@1', state, null, new Date().toISOString());
  await relationships.updateOne({ ...scope, id }, { $set: { score, proposedScore: score, signals: state.signals, revision, pendingEvent } });
}

crashTest('a relationship written without its history entry still shows the entry once, and the next write appends it', async (t) => {
  const { store, scope } = openFolder(t);
  const { id, a, b } = await relatedPair(store);
  await updateWithoutAppending(scope, id, 0.7);

  assert.deepEqual((await store.relationshipHistory(id)).map((event) => [event.kind, event.score]), [['proposed', 0.6], ['updated', 0.7]]);
  assert.equal((await store.getRelationship(id))?.score, 0.7);

  assert.equal((await store.upsertRelationship(proposal(a, b, 0.8), reviewAgainstDecision)).outcome, 'updated');
  assert.deepEqual((await store.relationshipHistory(id)).map((event) => [event.kind, event.score]), [['proposed', 0.6], ['updated', 0.7], ['updated', 0.8]]);
  const { db } = await rawClients();
  assert.equal(await db.collection(RELATIONSHIP_EVENTS_COLLECTION).countDocuments({ ...scope, relationshipId: id }), 3);
});

crashTest('a history entry appended but not cleared from its relationship is never recorded twice', async (t) => {
  const { store, scope } = openFolder(t);
  const { id } = await relatedPair(store);
  await updateWithoutAppending(scope, id, 0.7);
  // The entry reached the history collection; the process died before clearing it from the document.
  const { db } = await rawClients();
  const pending = (await db.collection(RELATIONSHIPS_COLLECTION).findOne({ ...scope, id }))!.pendingEvent;
  await db.collection(RELATIONSHIP_EVENTS_COLLECTION).insertOne({ ...scope, ...pending });

  assert.deepEqual((await store.relationshipHistory(id)).map((event) => event.kind), ['proposed', 'updated']);
  const decided = await store.decideRelationship(id, (current) => ({
    status: 'confirmed',
    by: 'ana',
    note: null,
    score: current.score,
    signals: current.signals,
    basis: { type: current.type, evidence: [] },
  }));
  assert.equal(decided.status, 'confirmed');
  assert.deepEqual((await store.relationshipHistory(id)).map((event) => event.kind), ['proposed', 'updated', 'confirmed']);
  assert.equal(await db.collection(RELATIONSHIP_EVENTS_COLLECTION).countDocuments({ ...scope, relationshipId: id }), 3);
  assert.equal((await db.collection(RELATIONSHIPS_COLLECTION).findOne({ ...scope, id }))!.pendingEvent, null);
});
