// The relationship panel's arithmetic: each signal contributes strength × weight × the repeat
// factor of its type (1, 0.5, 0.25, then nothing), human decisions are never diminished, and the
// contributions add up to the score before the cap.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SignalView } from '../../shared/types.ts';
import { signalContributions } from '../../server/src/engine/relationshipDetail.ts';

const signal = (type: SignalView['type'], strength: number, weight: number): SignalView => ({ type, value: '', strength, weight, detail: '' });

test('repeated signals of one type contribute 1, 0.5, 0.25, then nothing', () => {
  const shared = Array.from({ length: 6 }, () => signal('shared_entity', 1, 0.25));
  const contributions = signalContributions({ signals: shared });
  assert.deepEqual(contributions.map((c) => c.factor), [1, 0.5, 0.25, 0, 0, 0]);
  const total = contributions.reduce((sum, c) => sum + c.contribution, 0);
  assert.ok(Math.abs(total - 0.4375) < 1e-9, `shared_entity × 6 gives 0.25 + 0.125 + 0.0625 (${total})`);
});

test('the design example adds up on screen: similarity, a shared entity and a contradiction', () => {
  const contributions = signalContributions({
    signals: [signal('semantic_similarity', 0.76, 0.3), signal('shared_entity', 1, 0.25), signal('claim_contradiction', 1, 0.22)],
  });
  const total = contributions.reduce((sum, c) => sum + c.contribution, 0);
  assert.ok(Math.abs(total - 0.698) < 1e-9);
});

test('a confirmation saturates and a rejection cancels, whatever came before', () => {
  const confirmed = signalContributions({ signals: [signal('semantic_similarity', 0.5, 0.3), signal('user_confirmation', 1, 1)] });
  assert.equal(confirmed[1]!.factor, 1);
  assert.ok(confirmed.reduce((sum, c) => sum + c.contribution, 0) >= 1);
  const rejected = signalContributions({ signals: [signal('shared_entity', 1, 0.25), signal('user_rejection', 1, -1)] });
  assert.ok(rejected.reduce((sum, c) => sum + c.contribution, 0) <= 0);
});
