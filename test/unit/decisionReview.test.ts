// The rule that decides whether a person's decision still holds, on signals as discovery builds
// them: a confirmation is bound to the type and the decisive evidence it was made on.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RelationshipType, SignalView } from '../../shared/types.ts';
import { basisChanges, decisionBasis, reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { claimSignal, decisionSignal, modelSignal, scoreSignals, SCORE_VERSION, sharedEntitySignal, similaritySignal } from '../../server/src/scoring/index.ts';
import type { RelationshipProposal, RelationshipRecord } from '../../server/src/store/contract.ts';

const contradiction = claimSignal('contradicts', 'cost', 'The sources give different figures for cost: 42000 and 51500. Relata does not decide which is correct.');
const agreement = claimSignal('supports', 'cost', 'Both sources give the same figure for cost: 42000 EUR.');
const entity = sharedEntitySignal('Example Ltd', 'organisation', 2);

function evidence(type: RelationshipType, signals: SignalView[]): RelationshipProposal {
  const { score } = scoreSignals(signals);
  return { fromItemId: 'a', toItemId: 'b', type, score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'test' };
}

function confirmed(type: RelationshipType, signals: SignalView[]): RelationshipRecord {
  const decided = [...signals, decisionSignal('confirmed', 'ana', 'checked')];
  return {
    ...evidence(type, decided),
    id: 'rel_1',
    status: 'confirmed',
    createdAt: '2026-12-01T00:00:00Z',
    updatedAt: '2026-12-01T00:00:00Z',
    decidedBy: 'ana',
    decidedAt: '2026-12-01T09:00:00Z',
    note: 'checked',
    decisionBasis: decisionBasis(type, signals),
    changedSinceDecision: null,
  };
}

test('the basis of a contradiction is each claim with the figures compared', () => {
  assert.deepEqual(decisionBasis('contradicts', [contradiction, entity]), {
    type: 'contradicts',
    evidence: [{ signal: 'claim_contradiction', value: 'cost', figures: '42000 and 51500' }],
  });
});

test('a confirmation of a mention returns to review when the shared name is gone', () => {
  const reviewed = reviewAgainstDecision(evidence('similar_to', [similaritySignal(0.8)]), confirmed('mentions', [entity, similaritySignal(0.8)]));
  assert.equal(reviewed.status, 'pending');
  assert.equal(reviewed.decidedBy, null);
  assert.deepEqual(reviewed.changedSinceDecision?.changes, ['type was mentions, now similar', 'shared name evidence is gone']);
  assert.ok(!reviewed.signals.some((signal) => signal.type === 'user_confirmation'));
  assert.equal(reviewed.score, reviewed.proposedScore);
});

test('a model opinion coming or going leaves a confirmation as it was', () => {
  const reviewed = reviewAgainstDecision(
    evidence('mentions', [entity, modelSignal('mentions', 0.9, 'test-model')]),
    confirmed('mentions', [entity]),
  );
  assert.equal(reviewed.status, 'confirmed');
  assert.equal(reviewed.score, 1);
  assert.equal(reviewed.signals.at(-1)?.type, 'user_confirmation');
});

test('a confirmation that lost its signal is given it back from who decided', () => {
  const lost = { ...confirmed('contradicts', [contradiction]), signals: [contradiction] };
  const reviewed = reviewAgainstDecision(evidence('contradicts', [contradiction]), lost);
  assert.equal(reviewed.status, 'confirmed');
  assert.equal(reviewed.score, 1);
  assert.match(reviewed.signals.at(-1)!.detail, /Confirmed by ana\. Note: checked/);
});

test('new evidence is a change to a rejection, not to a confirmation', () => {
  const basis = decisionBasis('contradicts', [contradiction]);
  const date = claimSignal('contradicts', 'completion date', 'The sources give different dates for completion date: 2025-05-16 and 2025-06-03. Relata does not decide which is correct.');
  assert.deepEqual(basisChanges(basis, 'contradicts', [contradiction, date], false), []);
  assert.deepEqual(basisChanges(basis, 'contradicts', [contradiction, date], true), ['new: completion date figures differ (2025-05-16 and 2025-06-03)']);
  assert.deepEqual(basisChanges(basis, 'supports', [agreement], false), ['type was contradicts, now supports', 'cost figures 42000 vs 51500 now agree']);
});

test('switching the model stage on or off leaves a confirmation standing: what a model found is not what a person decided on', () => {
  const modelContradiction = claimSignal('contradicts', 'weight', 'The sources give different figures for weight: 10000 kg and 12000 kg.', true);
  const modelName = sharedEntitySignal('Larkspur Logistics', 'organisation', 2, false, true);
  const withModel = [agreement, entity, modelContradiction, modelName];
  assert.deepEqual(decisionBasis('supports', withModel), decisionBasis('supports', [agreement, entity]));
  const confirmedWithModel = confirmed('supports', withModel);
  assert.equal(reviewAgainstDecision(evidence('supports', [agreement, entity]), confirmedWithModel).status, 'confirmed', 'model switched off');
  assert.equal(reviewAgainstDecision(evidence('supports', withModel), confirmed('supports', [agreement, entity])).status, 'confirmed', 'model switched on');
});
