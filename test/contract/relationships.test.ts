// Relationships, on every backend: one per item pair whichever end proposes it, the pair's decision
// applied by the review rule inside the write (a rejection is never undone by discovery), decisions
// that delete nothing and leave a history, the list and look-up filters, and restoring a decision
// carried from a rebuilt store.

import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { decisionBasis, reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { decide } from '../../server/src/engine/relationships.ts';
import { contentHashSignal, decisionSignal, scoreSignals, SCORE_VERSION, sharedEntitySignal, similaritySignal } from '../../server/src/scoring/index.ts';
import type { RelationshipProposal, RelationshipRecord, ReviewRule, WorkspaceStore } from '../../server/src/store/contract.ts';
import { forEachBackend, type StoreSite } from './backends.ts';

async function storeWithItems(site: StoreSite, workspace: string, paths: string[]): Promise<{ store: WorkspaceStore; ids: string[] }> {
  const { store } = await site.open({ workspace });
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

/** Evidence that quotes the documents: a shared person and similar wording. */
function quotingProposal(from: string, to: string): RelationshipProposal {
  const signals = [sharedEntitySignal('Ms. Carla Mendes', 'person', 2), similaritySignal(0.9)];
  const { score } = scoreSignals(signals);
  return { fromItemId: from, toItemId: to, type: 'mentions', score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'discover@1' };
}

forEachBackend((backend) => {
  const items = (t: TestContext, paths: string[], workspace = 'alice') => storeWithItems(backend.site(t), workspace, paths);

  backend.test('a pair has one relationship whichever end proposes it, and an unchanged proposal writes nothing', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md']);
    const first = await propose(store, proposal(ids[0]!, ids[1]!, 0.9));
    assert.equal(first.outcome, 'created');
    assert.equal((await propose(store, proposal(ids[0]!, ids[1]!, 0.9))).outcome, 'unchanged');
    const second = await propose(store, proposal(ids[1]!, ids[0]!, 0.95));
    assert.equal(second.id, first.id);
    assert.equal(second.outcome, 'updated');
    assert.equal((await store.listRelationships()).length, 1);
    assert.deepEqual((await store.relationshipHistory(first.id)).map((event) => event.kind), ['proposed', 'updated']);
  });

  backend.test('a rejected pair keeps its rejection and its evidence when discovery proposes it again', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md']);
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
    assert.deepEqual(kept.changedSinceDecision?.changes, ['type was similar, now derived from', 'similar meaning evidence is gone', 'new evidence: identical content']);
  });

  backend.test('relationships of a deleted item are no longer served, but their rows stay', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md']);
    const { id } = await propose(store, proposal(ids[0]!, ids[1]!, 0.9));
    await store.tombstone('b.md');
    assert.equal((await store.listRelationships()).length, 0);
    assert.equal((await store.relationshipsTouching([ids[0]!])).length, 0);
    assert.ok(await store.getRelationship(id), 'still in the store');
  });

  backend.test('relationships are private to their workspace', async (t) => {
    const site = backend.site(t);
    const alice = await storeWithItems(site, 'alice', ['a.md', 'b.md']);
    const bob = await storeWithItems(site, 'bob', ['a.md', 'b.md']);
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

  backend.test('expansion look-ups filter by status and minimum score', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md', 'c.md']);
    await propose(store, proposal(ids[0]!, ids[1]!, 0.99));
    await propose(store, proposal(ids[0]!, ids[2]!, 0.8));
    const strong = await store.relationshipsTouching([ids[0]!], { minScore: 0.25 });
    assert.deepEqual(strong.map((r) => r.toItemId), [ids[1]]);
    assert.equal((await store.relationshipsTouching([ids[0]!], { statuses: ['confirmed'] })).length, 0);
    assert.equal((await store.listRelationships({ minPendingScore: 0.25 })).length, 1);
    assert.equal((await store.listRelationships({ itemId: ids[2]! })).length, 1);
  });

  backend.test('an item cannot be related to itself', async (t) => {
    const { store, ids } = await items(t, ['a.md']);
    await assert.rejects(propose(store, proposal(ids[0]!, ids[0]!, 0.9)), /cannot be related to itself/);
  });

  // ---------------------------------------------------------------------------------------------

  backend.test('a new proposal is stored pending, as proposed, with its first history event', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md']);
    const evidence = quotingProposal(ids[0]!, ids[1]!);
    const { id, outcome } = await propose(store, evidence);
    assert.equal(outcome, 'created');
    const record = (await store.getRelationship(id))!;
    assert.deepEqual(
      { ...record, createdAt: undefined, updatedAt: undefined },
      {
        ...evidence,
        id,
        status: 'pending',
        createdAt: undefined,
        updatedAt: undefined,
        decidedBy: null,
        decidedAt: null,
        note: null,
        decisionBasis: null,
        changedSinceDecision: null,
      },
    );
    assert.ok(!Number.isNaN(Date.parse(record.createdAt)) && record.createdAt === record.updatedAt);
    const [event, ...rest] = await store.relationshipHistory(id);
    assert.equal(rest.length, 0);
    assert.deepEqual({ ...event!, at: undefined }, { at: undefined, kind: 'proposed', actor: 'discover@1', type: 'mentions', score: evidence.score, scoreVersion: SCORE_VERSION, signals: evidence.signals, note: null });
    assert.equal(await store.getRelationship('rel_unknown'), null);
  });

  backend.test('the review rule sees the pair as it stands inside the write, and what it returns is stored', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md']);
    const seen: (RelationshipRecord | null)[] = [];
    const watching: ReviewRule = (evidence, current) => {
      seen.push(current);
      return reviewAgainstDecision(evidence, current);
    };
    const { id } = await store.upsertRelationship(proposal(ids[0]!, ids[1]!, 0.9), watching);
    await decide(store, id, { status: 'confirmed', by: 'ana', note: 'same site' });
    await store.upsertRelationship(proposal(ids[1]!, ids[0]!, 0.9), watching);
    assert.equal(seen[0], null, 'a new pair has no current record');
    assert.equal(seen[1]?.id, id);
    assert.equal(seen[1]?.status, 'confirmed', 'the decision made between the two proposals is the one the rule sees');
    // A rule that overrides what discovery proposed: the store writes the rule's result, not the evidence.
    const note = 'kept by the rule';
    const { outcome } = await store.upsertRelationship(proposal(ids[0]!, ids[1]!, 0.5), (evidence, current) => ({
      ...reviewAgainstDecision(evidence, current),
      note,
    }));
    assert.equal(outcome, 'updated');
    assert.equal((await store.getRelationship(id))!.note, note);
  });

  backend.test('a decision records who, when, why and on what basis, deletes nothing, and goes into the history', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md']);
    const evidence = quotingProposal(ids[0]!, ids[1]!);
    const { id } = await propose(store, evidence);
    const view = await decide(store, id, { status: 'confirmed', by: 'ana', note: 'same inspection' });
    assert.equal(view.status, 'confirmed');
    const decided = (await store.getRelationship(id))!;
    assert.equal(decided.status, 'confirmed');
    assert.equal(decided.decidedBy, 'ana');
    assert.equal(decided.note, 'same inspection');
    assert.ok(decided.decidedAt && !Number.isNaN(Date.parse(decided.decidedAt)));
    assert.deepEqual(decided.decisionBasis, decisionBasis('mentions', evidence.signals));
    assert.deepEqual(decided.signals.slice(0, evidence.signals.length), evidence.signals, 'the evidence stays beside the decision');
    assert.equal(decided.signals.at(-1)?.type, 'user_confirmation');
    assert.equal(decided.score, scoreSignals(decided.signals).score);
    assert.equal(decided.proposedScore, evidence.proposedScore);

    await decide(store, id, { status: 'rejected', by: 'ben', note: 'different crane' });
    const history = await store.relationshipHistory(id);
    assert.deepEqual(history.map((event) => [event.kind, event.actor, event.note]), [
      ['proposed', 'discover@1', null],
      ['confirmed', 'ana', 'same inspection'],
      ['rejected', 'ben', 'different crane'],
    ]);
    assert.equal((await store.getRelationship(id))!.status, 'rejected');
    assert.equal((await store.listRelationships({ status: 'rejected' })).length, 1);
  });

  backend.test('a decision is computed from the record as it stands inside the write', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md']);
    const { id } = await propose(store, proposal(ids[0]!, ids[1]!, 0.9));
    await propose(store, proposal(ids[0]!, ids[1]!, 0.97));
    let seen: RelationshipRecord | null = null;
    await store.decideRelationship(id, (current) => {
      seen = current;
      const signals = [...current.signals, decisionSignal('confirmed', 'ana', null)];
      return { status: 'confirmed', by: 'ana', note: null, score: scoreSignals(signals).score, signals, basis: decisionBasis(current.type, current.signals) };
    });
    assert.deepEqual((seen as RelationshipRecord | null)?.signals, proposal(ids[0]!, ids[1]!, 0.97).signals, 'the latest evidence');
  });

  backend.test('a confirmation holds while discovery proposes the same evidence, and returns to review when it changes', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md']);
    const evidence = quotingProposal(ids[0]!, ids[1]!);
    const { id } = await propose(store, evidence);
    await decide(store, id, { status: 'confirmed', by: 'ana', note: null });
    assert.equal((await propose(store, evidence)).outcome, 'unchanged');
    assert.equal((await store.getRelationship(id))!.status, 'confirmed');

    const { outcome } = await propose(store, { ...proposal(ids[0]!, ids[1]!, 0.9), type: 'mentions' });
    assert.equal(outcome, 'updated');
    const returned = (await store.getRelationship(id))!;
    assert.equal(returned.status, 'pending');
    assert.equal(returned.decidedBy, null);
    assert.deepEqual(returned.changedSinceDecision?.changes, ['shared name evidence is gone']);
    assert.equal(returned.changedSinceDecision?.decided_by, 'ana');
    const history = await store.relationshipHistory(id);
    assert.deepEqual(history.map((event) => event.kind), ['proposed', 'confirmed', 'returned_to_review']);
    assert.equal(history.at(-1)!.note, 'shared name evidence is gone');
  });

  backend.test('the relationship of a pair is found from either end, whatever its status', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md', 'c.md']);
    const { id } = await propose(store, proposal(ids[0]!, ids[1]!, 0.9));
    assert.equal((await store.relationshipBetween(ids[0]!, ids[1]!))?.id, id);
    assert.equal((await store.relationshipBetween(ids[1]!, ids[0]!))?.id, id);
    await decide(store, id, { status: 'rejected', by: 'ana' });
    assert.equal((await store.relationshipBetween(ids[1]!, ids[0]!))?.status, 'rejected');
    assert.equal(await store.relationshipBetween(ids[0]!, ids[2]!), null);
  });

  backend.test('listings are strongest first; decided relationships are listed whatever the pending threshold', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md', 'c.md', 'd.md']);
    const weak = await propose(store, proposal(ids[0]!, ids[1]!, 0.7));
    const strong = await propose(store, proposal(ids[0]!, ids[2]!, 0.99));
    const middle = await propose(store, proposal(ids[2]!, ids[3]!, 0.9));
    const rejectedWeak = await propose(store, proposal(ids[1]!, ids[3]!, 0.6));
    await decide(store, rejectedWeak.id, { status: 'rejected', by: 'ana' });
    const all = await store.listRelationships();
    assert.deepEqual(all.map((r) => r.id).slice(0, 3), [strong.id, middle.id, weak.id]);
    assert.equal(all.length, 4);
    for (let n = 1; n < all.length; n += 1) assert.ok(all[n - 1]!.score >= all[n]!.score, 'strongest first');
    const above = await store.listRelationships({ minPendingScore: (await store.getRelationship(middle.id))!.score });
    assert.deepEqual(new Set(above.map((r) => r.id)), new Set([strong.id, middle.id, rejectedWeak.id]));
    assert.deepEqual((await store.listRelationships({ status: 'pending' })).map((r) => r.id), [strong.id, middle.id, weak.id]);
    assert.deepEqual((await store.listRelationships({ itemId: ids[3]! })).map((r) => r.id).sort(), [middle.id, rejectedWeak.id].sort());
    assert.deepEqual((await store.listRelationships({ itemId: ids[3]!, status: 'rejected' })).map((r) => r.id), [rejectedWeak.id]);
  });

  backend.test('relationships touching several items: either end, each once, strongest first, by status', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md', 'c.md', 'd.md']);
    const ab = await propose(store, proposal(ids[0]!, ids[1]!, 0.8));
    const bc = await propose(store, proposal(ids[1]!, ids[2]!, 0.99));
    const cd = await propose(store, proposal(ids[2]!, ids[3]!, 0.9));
    const touching = await store.relationshipsTouching([ids[0]!, ids[1]!]);
    assert.deepEqual(touching.map((r) => r.id), [bc.id, ab.id]);
    assert.deepEqual((await store.relationshipsTouching([ids[3]!])).map((r) => r.id), [cd.id], 'found from its to end');
    await decide(store, ab.id, { status: 'confirmed', by: 'ana' });
    assert.deepEqual((await store.relationshipsTouching([ids[1]!], { statuses: ['confirmed'] })).map((r) => r.id), [ab.id]);
    assert.deepEqual((await store.relationshipsTouching([ids[1]!], { statuses: ['pending'] })).map((r) => r.id), [bc.id]);
    assert.deepEqual(await store.relationshipsTouching([]), []);
  });

  backend.test('a decision carried from a rebuilt store is recorded as it stood, with its history first', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md']);
    const evidence = quotingProposal(ids[0]!, ids[1]!);
    const signals = [...evidence.signals, decisionSignal('confirmed', 'ana', 'checked on site')];
    const carried: RelationshipRecord = {
      ...evidence,
      id: 'rel_from_the_old_store',
      status: 'confirmed',
      score: scoreSignals(signals).score,
      signals,
      createdAt: '2025-01-02T03:04:05.000Z',
      updatedAt: '2025-01-03T00:00:00.000Z',
      decidedBy: 'ana',
      decidedAt: '2025-01-03T00:00:00.000Z',
      note: 'checked on site',
      decisionBasis: decisionBasis(evidence.type, evidence.signals),
      changedSinceDecision: null,
    };
    const history = [
      { at: '2025-01-02T03:04:05.000Z', kind: 'proposed' as const, actor: 'discover@1', type: evidence.type, score: evidence.score, scoreVersion: SCORE_VERSION, signals: evidence.signals, note: null },
      { at: '2025-01-03T00:00:00.000Z', kind: 'confirmed' as const, actor: 'ana', type: evidence.type, score: carried.score, scoreVersion: SCORE_VERSION, signals, note: 'checked on site' },
    ];
    assert.equal(await store.restoreRelationship(carried, history, reviewAgainstDecision), 'recorded');
    const restored = (await store.relationshipBetween(ids[1]!, ids[0]!))!;
    assert.equal(restored.status, 'confirmed');
    assert.equal(restored.decidedBy, 'ana');
    assert.equal(restored.decidedAt, carried.decidedAt);
    assert.equal(restored.note, 'checked on site');
    assert.equal(restored.createdAt, carried.createdAt);
    assert.deepEqual(restored.signals, signals);
    assert.deepEqual(restored.decisionBasis, carried.decisionBasis);
    assert.deepEqual(await store.relationshipHistory(restored.id), history);
    // Discovery proposing the same evidence afterwards keeps the confirmation.
    assert.equal((await propose(store, evidence)).outcome, 'unchanged');
  });

  backend.test('a carried decision is reattached to the evidence discovery proposed here, and returns to review if it changed', async (t) => {
    const { store, ids } = await items(t, ['a.md', 'b.md', 'c.md']);
    const evidence = quotingProposal(ids[0]!, ids[1]!);
    const here = await propose(store, evidence);
    const carriedFrom = (found: RelationshipProposal): RelationshipRecord => {
      const signals = [...found.signals, decisionSignal('confirmed', 'ana', null)];
      return {
        ...found,
        id: 'rel_old',
        status: 'confirmed',
        score: scoreSignals(signals).score,
        signals,
        createdAt: '2025-01-02T00:00:00.000Z',
        updatedAt: '2025-01-03T00:00:00.000Z',
        decidedBy: 'ana',
        decidedAt: '2025-01-03T00:00:00.000Z',
        note: null,
        decisionBasis: decisionBasis(found.type, found.signals),
        changedSinceDecision: null,
      };
    };
    const confirmedEvent = { at: '2025-01-03T00:00:00.000Z', kind: 'confirmed' as const, actor: 'ana', type: evidence.type, score: 1, scoreVersion: SCORE_VERSION, signals: [], note: null };
    assert.equal(await store.restoreRelationship(carriedFrom(evidence), [confirmedEvent], reviewAgainstDecision), 'reattached');
    const reattached = (await store.getRelationship(here.id))!;
    assert.equal(reattached.status, 'confirmed', 'the same evidence: the confirmation holds');
    assert.equal(reattached.decidedBy, 'ana');
    const kinds = (await store.relationshipHistory(here.id)).map((event) => event.kind);
    assert.deepEqual(kinds[0], 'confirmed', 'the carried history reads first, by its own time');
    assert.ok(kinds.includes('proposed'));

    // The pair a-c was decided on a shared person that discovery here no longer finds.
    const found = await propose(store, { ...proposal(ids[0]!, ids[2]!, 0.9), type: 'mentions' });
    assert.equal(await store.restoreRelationship(carriedFrom(quotingProposal(ids[0]!, ids[2]!)), [], reviewAgainstDecision), 'reattached');
    const changed = (await store.getRelationship(found.id))!;
    assert.equal(changed.status, 'pending');
    assert.deepEqual(changed.changedSinceDecision?.changes, ['shared name evidence is gone']);
  });
});
