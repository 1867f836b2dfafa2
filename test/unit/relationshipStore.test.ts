// The relationship tables on a real SQLite store: one row per pair, decisions that delete
// nothing, rejection that discovery cannot undo, and the workspace boundary.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { contentHashSignal, decisionSignal, scoreSignals, SCORE_VERSION, similaritySignal } from '../../server/src/scoring/index.ts';
import { decisionBasis, reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import type { RelationshipProposal, WorkspaceStore } from '../../server/src/store/contract.ts';
import { openStore } from '../../server/src/store/index.ts';
import { tempDir } from '../support/tempFolder.ts';

async function storeWithItems(t: TestContext, dataDir: string, workspace: string, paths: string[]): Promise<{ store: WorkspaceStore; ids: string[] }> {
  const store = openStore({ dataDir, workspace });
  t.after(() => store.close());
  const ids: string[] = [];
  for (const [index, file] of paths.entries()) {
    const outcome = await store.recordIngest({ path: file, contentHash: `hash-${workspace}-${index}`, size: 10 }, () => true);
    ids.push(outcome.itemId);
  }
  return { store, ids };
}

const propose = (store: WorkspaceStore, evidence: RelationshipProposal) => store.upsertRelationship(evidence, reviewAgainstDecision);

function proposal(from: string, to: string, cosine: number): RelationshipProposal {
  const signals = [similaritySignal(cosine)];
  const { score } = scoreSignals(signals);
  return { fromItemId: from, toItemId: to, type: 'similar_to', score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'test' };
}

test('a pair has one relationship whichever end proposes it, and an unchanged proposal writes nothing', async (t) => {
  const { store, ids } = await storeWithItems(t, tempDir(t), 'alice', ['a.md', 'b.md']);
  const first = await propose(store, proposal(ids[0]!, ids[1]!, 0.9));
  assert.equal(first.outcome, 'created');
  assert.equal((await propose(store, proposal(ids[0]!, ids[1]!, 0.9))).outcome, 'unchanged');
  const second = await propose(store, proposal(ids[1]!, ids[0]!, 0.95));
  assert.equal(second.id, first.id);
  assert.equal(second.outcome, 'updated');
  assert.equal((await store.listRelationships()).length, 1);
  assert.deepEqual((await store.relationshipHistory(first.id)).map((event) => event.kind), ['proposed', 'updated']);
});

test('a rejected pair keeps its rejection and its evidence when discovery proposes it again', async (t) => {
  const { store, ids } = await storeWithItems(t, tempDir(t), 'alice', ['a.md', 'b.md']);
  const { id } = await propose(store, proposal(ids[0]!, ids[1]!, 0.9));
  const original = (await store.getRelationship(id))!;
  const signals = [...original.signals, decisionSignal('rejected', 'ana', 'unrelated')];
  await store.decideRelationship(id, () => ({ status: 'rejected', by: 'ana', note: 'unrelated', score: scoreSignals(signals).score, signals, basis: decisionBasis(original.type, original.signals) }));
  const again = await propose(store, { ...proposal(ids[0]!, ids[1]!, 0.99), signals: [contentHashSignal()], type: 'derived_from' });
  assert.equal(again.outcome, 'kept_rejected');
  const kept = (await store.getRelationship(id))!;
  assert.equal(kept.status, 'rejected');
  assert.equal(kept.score, 0);
  assert.equal(kept.type, 'similar_to');
  assert.equal(kept.proposedScore, original.proposedScore, 'the proposal as it was is kept');
  assert.equal(kept.note, 'unrelated');
  assert.equal(kept.decidedBy, 'ana');
  assert.deepEqual(kept.changedSinceDecision?.changes, ['type was similar_to, now derived_from', 'semantic similarity evidence is gone', 'new evidence: content hash match']);
});

test('relationships of a deleted item are no longer served, but their rows stay', async (t) => {
  const { store, ids } = await storeWithItems(t, tempDir(t), 'alice', ['a.md', 'b.md']);
  const { id } = await propose(store, proposal(ids[0]!, ids[1]!, 0.9));
  await store.tombstone('b.md');
  assert.equal((await store.listRelationships()).length, 0);
  assert.equal((await store.relationshipsTouching([ids[0]!])).length, 0);
  assert.ok(await store.getRelationship(id), 'still in the store');
});

test('relationships are private to their workspace', async (t) => {
  const dataDir = tempDir(t);
  const alice = await storeWithItems(t, dataDir, 'alice', ['a.md', 'b.md']);
  const bob = await storeWithItems(t, dataDir, 'bob', ['a.md', 'b.md']);
  const { id } = await propose(alice.store, proposal(alice.ids[0]!, alice.ids[1]!, 0.9));
  assert.equal((await bob.store.listRelationships()).length, 0);
  assert.equal(await bob.store.getRelationship(id), null);
  assert.equal(await bob.store.relationshipBetween(alice.ids[0]!, alice.ids[1]!), null);
  assert.deepEqual(await bob.store.relationshipsTouching(alice.ids), []);
  await assert.rejects(
    bob.store.decideRelationship(id, () => ({ status: 'confirmed', by: 'bob', note: null, score: 1, signals: [], basis: { type: 'similar_to', evidence: [] } })),
    /no relationship .* in this workspace/,
  );
  assert.equal((await alice.store.getRelationship(id))!.status, 'pending');
});

test('expansion look-ups filter by status and minimum score', async (t) => {
  const { store, ids } = await storeWithItems(t, tempDir(t), 'alice', ['a.md', 'b.md', 'c.md']);
  await propose(store, proposal(ids[0]!, ids[1]!, 0.99));
  await propose(store, proposal(ids[0]!, ids[2]!, 0.8));
  const strong = await store.relationshipsTouching([ids[0]!], { minScore: 0.25 });
  assert.deepEqual(strong.map((r) => r.toItemId), [ids[1]]);
  assert.equal((await store.relationshipsTouching([ids[0]!], { statuses: ['confirmed'] })).length, 0);
  assert.equal((await store.listRelationships({ minPendingScore: 0.25 })).length, 1);
  assert.equal((await store.listRelationships({ itemId: ids[2]! })).length, 1);
});

test('an item cannot be related to itself', async (t) => {
  const { store, ids } = await storeWithItems(t, tempDir(t), 'alice', ['a.md']);
  await assert.rejects(propose(store, proposal(ids[0]!, ids[0]!, 0.9)), /cannot be related to itself/);
});
