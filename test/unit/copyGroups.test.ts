// The copy groups the Proposals request carries: read from the relationships themselves, the
// item with the strongest relationship that is not a copy link represents its group, groups of
// one are left out, and a rejected near-duplicate relationship groups nothing.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RelationshipView } from '../../shared/types.ts';
import { copyGroupsAmong } from '../../server/src/engine/copyGroups.ts';

const ref = (id: string) => ({ item_id: id, path: `${id}.md`, title: null });

function relationship(id: string, from: string, to: string, score: number, overrides: Partial<RelationshipView> = {}): RelationshipView {
  return {
    id, from: ref(from), to: ref(to), type: 'contradicts', score, score_version: 'relationship-score-v1', status: 'pending',
    near_duplicate: false, signals: [], produced_by: 'discover@1', created_at: '', updated_at: '', decided_by: null,
    decided_at: null, note: null, changed_since_decision: null, ...overrides,
  };
}

const nearCopy = (id: string, from: string, to: string, overrides: Partial<RelationshipView> = {}) =>
  relationship(id, from, to, 1, {
    type: 'supports',
    near_duplicate: true,
    signals: [{ type: 'semantic_similarity', value: '0.98 cosine', strength: 1, weight: 0.2, detail: '' }],
    ...overrides,
  });

test('the copy with the strongest other relationship represents the group; items without copies form no group', () => {
  const groups = copyGroupsAmong([
    relationship('r1', 'memo', 'invoice', 0.8),
    relationship('r2', 'draft', 'invoice', 0.9),
    nearCopy('r3', 'memo', 'draft'),
  ]);
  assert.deepEqual(groups, [{ representative: 'draft', also: [{ item_id: 'memo', path: 'memo.md', kind: 'near_duplicate', similarity: 0.98 }] }]);
});

test('a near-duplicate relationship a person rejected groups nothing', () => {
  assert.deepEqual(copyGroupsAmong([relationship('r1', 'memo', 'invoice', 0.8), nearCopy('r3', 'memo', 'draft', { status: 'rejected' })]), []);
});
