// Documents of the MongoDB + Qdrant store's queue, relationships, aliases and vector points as the
// contract's records, and the pure decisions made on them. Where the SQLite store is the reference
// (ids, defaults, orders, what counts as unchanged), it is run beside them and must agree.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { SignalView } from '../../shared/types.ts';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import type { RelationshipProposal, StageCounts } from '../../server/src/store/contract.ts';
import { openStore } from '../../server/src/store/index.ts';
import { aliasFields, aliasId, orderedPair, toAliasView } from '../../server/src/store/mongoQdrant/aliases.ts';
import { DUPLICATE_KEY, duplicateKeyPositions, isDuplicateKey } from '../../server/src/store/mongoQdrant/duplicateKey.ts';
import { compareStageCounts, newJob, toJobRecord } from '../../server/src/store/mongoQdrant/jobQueue.ts';
import { pointIdIn } from '../../server/src/store/mongoQdrant/pointIds.ts';
import {
  compareEvents,
  compareExportedEvents,
  eventOf,
  relationshipFields,
  reviewLeavesUnchanged,
  toRelationshipEvent,
  toRelationshipRecord,
} from '../../server/src/store/mongoQdrant/relationships.ts';
import { denseVector, hitIsCurrent, hitOf, vectorPoint, windowsByChunk } from '../../server/src/store/mongoQdrant/vectorPoints.ts';
import { tempDir } from '../support/tempFolder.ts';
import { similarProposal } from '../support/proposals.ts';

const SCOPE = { workspace: 'alice', folder: 'f-1' };

function sqliteStore(t: TestContext, workspace = 'alice') {
  const store = openStore({ dataDir: path.join(tempDir(t), 'data'), workspace });
  t.after(() => store.close());
  return store;
}

// Jobs -------------------------------------------------------------------------------------------

test('a new job is what the SQLite queue inserts: queued, generation 1, no attempts, no owner', async (t) => {
  const sqlite = sqliteStore(t);
  await sqlite.enqueue('parse', 'item-1');
  const [reference] = await sqlite.listJobs();
  const mine = toJobRecord({ ...SCOPE, ...newJob(reference!.id, 'parse', 'item-1', new Date().toISOString()) });
  assert.deepEqual(mine, reference);
});

test('a job document maps to exactly the contract record (no scope, no times)', () => {
  const document = { ...SCOPE, ...newJob(7, 'embed', 'item-2', '2026-01-01T00:00:00.000Z'), status: 'leased' as const, owner: 'host/1/a', leaseExpiresAt: 99, attempts: 2 };
  assert.deepEqual(Object.keys(toJobRecord(document)).sort(), ['attempts', 'generation', 'id', 'lastError', 'leaseExpiresAt', 'lostLeases', 'owner', 'stage', 'status', 'subject']);
  assert.equal(toJobRecord(document).owner, 'host/1/a');
});

test('stage counts come in the order the SQLite store lists them', async (t) => {
  const sqlite = sqliteStore(t);
  await sqlite.enqueueMany('ingest', ['a.md', 'b.md']);
  await sqlite.enqueue('parse', 'item-1');
  await sqlite.enqueue('discover', 'item-1');
  const job = await sqlite.claim('host/1/a', 60_000);
  await sqlite.complete(job!, 'host/1/a');
  await sqlite.claim('host/1/a', 60_000);
  const reference = await sqlite.jobCounts();
  assert.ok(reference.length >= 3);
  const shuffled: StageCounts[] = [...reference].reverse();
  assert.deepEqual(shuffled.sort(compareStageCounts), reference);
});

// Relationships ----------------------------------------------------------------------------------

const signal = (type: SignalView['type'], value: string): SignalView => ({ type, value, strength: 0.8, weight: 0.3, detail: `${type} detail` });

const proposal = (from: string, to: string, score: number): RelationshipProposal =>
  similarProposal(from, to, score, [signal('shared_entity', 'Example Ltd'), signal('semantic_similarity', '0.81 cosine')]);

async function twoItems(t: TestContext) {
  const sqlite = sqliteStore(t);
  const a = await sqlite.recordIngest({ path: 'a.md', contentHash: 'a'.repeat(64), size: 1 }, () => true);
  const b = await sqlite.recordIngest({ path: 'b.md', contentHash: 'b'.repeat(64), size: 1 }, () => true);
  return { sqlite, a: a.itemId, b: b.itemId };
}

test('a relationship record survives the trip to a document and back unchanged', async (t) => {
  const { sqlite, a, b } = await twoItems(t);
  const { id } = await sqlite.upsertRelationship(proposal(a, b, 0.6), reviewAgainstDecision);
  const record = (await sqlite.getRelationship(id))!;
  const document = { ...SCOPE, ...relationshipFields(record), pairKey: `${a}|${b}`, revision: 3, pendingEvent: null };
  assert.deepEqual(toRelationshipRecord(document), record);
});

test('JSON fields are stored as SQLite stores them: a field left undefined is absent, not null', () => {
  const withUndefined = { ...signal('shared_entity', 'X'), extra: undefined } as unknown as SignalView;
  const record = {
    ...proposal('a', 'b', 0.5),
    signals: [withUndefined],
    id: 'rel_1',
    status: 'pending' as const,
    createdAt: 't',
    updatedAt: 't',
    decidedBy: null,
    decidedAt: null,
    note: null,
    decisionBasis: null,
    changedSinceDecision: null,
  };
  assert.equal('extra' in relationshipFields(record).signals[0]!, false);
  assert.equal(relationshipFields(record).decisionBasis, null);
});

test('a rediscovery is "unchanged" exactly when the SQLite store says so', async (t) => {
  const { sqlite, a, b } = await twoItems(t);
  await sqlite.upsertRelationship(proposal(a, b, 0.6), reviewAgainstDecision);
  const stored = (await sqlite.relationshipBetween(a, b))!;

  const same = proposal(a, b, 0.6);
  assert.equal(reviewLeavesUnchanged(stored, reviewAgainstDecision(same, stored)), true);
  assert.equal((await sqlite.upsertRelationship(same, reviewAgainstDecision)).outcome, 'unchanged');

  const stronger = proposal(a, b, 0.7);
  assert.equal(reviewLeavesUnchanged(stored, reviewAgainstDecision(stronger, stored)), false);
  assert.equal((await sqlite.upsertRelationship(stronger, reviewAgainstDecision)).outcome, 'updated');

  const reordered = { ...proposal(a, b, 0.7), signals: [...proposal(a, b, 0.7).signals].reverse() };
  const now = (await sqlite.relationshipBetween(a, b))!;
  assert.equal(reviewLeavesUnchanged(now, reviewAgainstDecision(reordered, now)), false);
  assert.equal((await sqlite.upsertRelationship(reordered, reviewAgainstDecision)).outcome, 'updated');
});

test('a history entry written by the store is named by its relationship and revision, so appending it twice is one entry', () => {
  const state = proposal('a', 'b', 0.6);
  const first = eventOf('rel_1', 4, 'updated', 'discover@1', state, null, '2026-01-01T00:00:00.000Z');
  const again = eventOf('rel_1', 4, 'updated', 'discover@1', { ...state, score: 0.9 }, null, '2026-01-01T00:00:01.000Z');
  assert.equal(first.eventId, 'rel_1:4');
  assert.equal(again.eventId, first.eventId);
  assert.notEqual(eventOf('rel_1', 5, 'updated', 'discover@1', state, null, 't').eventId, first.eventId);
  assert.deepEqual(toRelationshipEvent(first), {
    at: '2026-01-01T00:00:00.000Z',
    kind: 'updated',
    actor: 'discover@1',
    type: 'similar_to',
    score: 0.6,
    scoreVersion: 'relationship-score-v1',
    signals: state.signals,
    note: null,
  });
});

test('history is oldest first, and entries of the same moment in the order they were written', () => {
  const state = proposal('a', 'b', 0.6);
  const at = '2026-01-01T00:00:00.000Z';
  const proposed = eventOf('rel_1', 1, 'proposed', 'discover@1', state, null, at);
  const confirmed = eventOf('rel_1', 2, 'confirmed', 'ana', state, null, at);
  const later = eventOf('rel_1', 3, 'updated', 'discover@1', state, null, '2026-01-02T00:00:00.000Z');
  const carried = { ...eventOf('rel_1', 0, 'proposed', 'discover@1', state, null, at), sequence: -1_000_000_000, eventId: 'rel_1:imported:0' };
  assert.deepEqual([later, confirmed, proposed, carried].sort(compareEvents).map((event) => event.eventId), ['rel_1:imported:0', 'rel_1:1', 'rel_1:2', 'rel_1:3']);
  const other = eventOf('rel_0', 9, 'proposed', 'discover@1', state, null, at);
  assert.deepEqual([confirmed, other, proposed].sort(compareExportedEvents).map((event) => event.eventId), ['rel_0:9', 'rel_1:1', 'rel_1:2']);
});

// Aliases ------------------------------------------------------------------------------------------

test('an alias gets the id the SQLite store gives the same pair in the same workspace', async (t) => {
  const sqlite = sqliteStore(t, 'team-a');
  await sqlite.proposeAliases([{ keyA: 'person:mendes', keyB: 'person:carla mendes', surfaceA: 'Mendes', surfaceB: 'Carla Mendes', reason: 'surname' }]);
  const [reference] = await sqlite.listAliases();
  const [a, b] = orderedPair({ key: 'person:mendes', surface: 'Mendes' }, { key: 'person:carla mendes', surface: 'Carla Mendes' });
  assert.equal(aliasId('team-a', a.key, b.key), reference!.id);
  assert.deepEqual(toAliasView({ ...SCOPE, ...aliasFields(reference!) }), reference);
});

test('an alias pair is stored in sorted key order whichever way round it comes', () => {
  const view = {
    id: 'alias_1',
    a: { key: 'person:mendes', surface: 'Mendes' },
    b: { key: 'person:carla mendes', surface: 'Carla Mendes' },
    reason: 'surname',
    status: 'confirmed' as const,
    created_at: 't0',
    decided_by: 'ana',
    decided_at: 't1',
    note: 'same person',
  };
  const fields = aliasFields(view);
  assert.deepEqual([fields.keyA, fields.surfaceA, fields.keyB, fields.surfaceB], ['person:carla mendes', 'Carla Mendes', 'person:mendes', 'Mendes']);
  assert.deepEqual(toAliasView({ ...SCOPE, ...fields }), { ...view, a: view.b, b: view.a });
});

// Vector points -------------------------------------------------------------------------------------

test('a vector point carries its scope, model, item, chunk and window, under the derived id', () => {
  const entry = { chunkId: 'c-1', window: 1, start: 10, end: 40, vector: new Float32Array([0.6, 0.8]) };
  const point = vectorPoint(SCOPE, { id: 'model-a' }, 'item-1', entry);
  assert.equal(point.id, pointIdIn(SCOPE, 'model-a', 'c-1', 1));
  assert.deepEqual(point.payload, { workspace: 'alice', folder: 'f-1', model_id: 'model-a', item_id: 'item-1', chunk_id: 'c-1', window: 1, start: 10, end: 40 });
  assert.deepEqual(point.vector, [Math.fround(0.6), Math.fround(0.8)]);
});

test('a hit maps back to its chunk, item and window; a point without them is not a hit', () => {
  assert.deepEqual(hitOf({ score: 0.93, payload: { chunk_id: 'c-1', item_id: 'item-1', window: 0 } }), { chunkId: 'c-1', itemId: 'item-1', window: 0, similarity: 0.93 });
  assert.equal(hitOf({ score: 0.93, payload: { chunk_id: 'c-1', window: 0 } }), null);
  assert.equal(hitOf({ score: 0.93, payload: null }), null);
});

test('a hit is served only when its chunk is live and the coverage names its model and window', () => {
  const hit = { chunkId: 'c-1', itemId: 'item-1', window: 1, similarity: 0.9 };
  const coverage = new Map([['c-1', { modelId: 'model-b', windows: [{ window: 0, start: 0, end: 5 }, { window: 1, start: 5, end: 9 }] }]]);
  const live = new Set(['c-1']);
  assert.equal(hitIsCurrent(hit, 'model-b', { coverage, liveChunks: live }), true);
  // The old model's point after a crash before its clean-up: the coverage names the new model.
  assert.equal(hitIsCurrent(hit, 'model-a', { coverage, liveChunks: live }), false);
  // A point written before a crash that kept its coverage from being recorded.
  assert.equal(hitIsCurrent({ ...hit, chunkId: 'c-2' }, 'model-b', { coverage, liveChunks: new Set(['c-1', 'c-2']) }), false);
  // A window the chunk no longer has under this model (it had more windows under another).
  assert.equal(hitIsCurrent({ ...hit, window: 2 }, 'model-b', { coverage, liveChunks: live }), false);
  // A chunk re-chunked away or an item tombstoned, whose coverage has not been dropped yet.
  assert.equal(hitIsCurrent(hit, 'model-b', { coverage, liveChunks: new Set() }), false);
});

test('a storeVectors call\'s windows are grouped per chunk in window order', () => {
  const vector = new Float32Array([1, 0]);
  const grouped = windowsByChunk([
    { chunkId: 'c-2', window: 1, start: 5, end: 9, vector },
    { chunkId: 'c-1', window: 0, start: 0, end: 4, vector },
    { chunkId: 'c-2', window: 0, start: 0, end: 5, vector },
  ]);
  assert.deepEqual([...grouped.keys()], ['c-2', 'c-1']);
  assert.deepEqual(grouped.get('c-2')!.map((window) => window.window), [0, 1]);
});

test('only an unnamed dense vector is read back as a vector', () => {
  assert.deepEqual(denseVector([0.5, 0.25]), new Float32Array([0.5, 0.25]));
  assert.equal(denseVector({ text: [1, 2] }), null);
  assert.equal(denseVector(undefined), null);
});

// Duplicate keys -------------------------------------------------------------------------------------

test('a unique-index violation is told apart from other write errors, and a bulk write names its positions', () => {
  assert.equal(isDuplicateKey({ code: DUPLICATE_KEY }), true);
  assert.equal(isDuplicateKey({ code: 121 }), false);
  assert.deepEqual(duplicateKeyPositions({ writeErrors: [{ code: DUPLICATE_KEY, index: 3 }, { code: DUPLICATE_KEY, index: 7 }] }), [3, 7]);
  assert.deepEqual(duplicateKeyPositions({ writeErrors: { code: DUPLICATE_KEY, index: 0 } }), [0]);
  assert.equal(duplicateKeyPositions({ writeErrors: [{ code: DUPLICATE_KEY, index: 3 }, { code: 121, index: 4 }] }), null);
  assert.equal(duplicateKeyPositions(new Error('network')), null);
});
