// Relationship expansion and its label (SEARCH_AND_SCORING.md §3): only from the top seeds, only
// through relationships at or above the minimum score, never through a rejected one, only through
// confirmed ones when asked; and what an expanded result says about how it was reached.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RelationshipStatus, RelationshipType } from '../../shared/types.ts';
import { expandFromSeeds } from '../../server/src/ranking/expansion.ts';
import { expansionLabel, explainHit, whyMatched } from '../../server/src/ranking/explain.ts';
import { contribution, fusionParameters } from '../../server/src/ranking/fusion.ts';
import type { RelationshipRecord } from '../../server/src/store/contract.ts';
import { DEFAULT_EXPANSION_MIN_SCORE, expansionSettingsFromEnv, type ExpansionSettings } from '../../server/src/ranking/weights.ts';

function relationship(id: string, from: string, to: string, score: number, status: RelationshipStatus = 'pending', type: RelationshipType = 'updates'): RelationshipRecord {
  return {
    id, fromItemId: from, toItemId: to, type, score, scoreVersion: 'relationship-score-v1', nearDuplicate: false, signals: [],
    producedBy: 'discover@1', status, proposedScore: score, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
    decidedBy: status === 'pending' ? null : 'ana', decidedAt: status === 'pending' ? null : '2026-01-02T00:00:00Z', note: null,
    decisionBasis: null, changedSinceDecision: null,
  };
}

const settings: ExpansionSettings = { maxSeeds: 2, minScore: 0.45, confirmedOnly: false };
const reached = (result: ReturnType<typeof expandFromSeeds>) => result.expansion.hits.map((hit) => hit.itemId).sort();

test('relationships are followed only from the top seeds', () => {
  const result = expandFromSeeds(['s1', 's2', 's3'], [
    relationship('r1', 's1', 'x', 0.7),
    relationship('r2', 'y', 's2', 0.7),
    relationship('r3', 's3', 'z', 0.9),
  ], settings);
  assert.deepEqual(reached(result), ['x', 'y'], 's3 is a direct match but not a top-2 seed');
});

test('relationships below the minimum score are not followed; at the minimum they are', () => {
  const result = expandFromSeeds(['s1'], [relationship('weak', 's1', 'x', 0.44), relationship('edge', 's1', 'y', 0.45)], settings);
  assert.deepEqual(reached(result), ['y']);
  assert.equal(expansionSettingsFromEnv(false, {}).minScore, DEFAULT_EXPANSION_MIN_SCORE);
  assert.equal(DEFAULT_EXPANSION_MIN_SCORE, 0.45);
  assert.equal(expansionSettingsFromEnv(false, { RELATA_SEARCH_EXPANSION_MIN_SCORE: '0.6', RELATA_SEARCH_MAX_EXPANDED_ITEMS: '3' }).maxSeeds, 3);
});

test('a relationship a person rejected is never followed, however strong it was', () => {
  const result = expandFromSeeds(['s1'], [relationship('no', 's1', 'x', 0.95, 'rejected')], settings);
  assert.deepEqual(reached(result), []);
  assert.deepEqual(result.confirmed.hits, []);
});

test('confirmed-only follows confirmed relationships alone', () => {
  const relationships = [relationship('p', 's1', 'x', 0.9, 'pending'), relationship('c', 's1', 'y', 0.5, 'confirmed')];
  assert.deepEqual(reached(expandFromSeeds(['s1'], relationships, { ...settings, confirmedOnly: true })), ['y']);
  assert.deepEqual(reached(expandFromSeeds(['s1'], relationships, settings)), ['x', 'y']);
});

test('a direct match is not relabelled as expanded, but a confirmed link still earns it the bonus', () => {
  const result = expandFromSeeds(['s1', 's2'], [relationship('c', 's1', 's2', 0.8, 'confirmed')], settings);
  assert.deepEqual(reached(result), []);
  assert.deepEqual(result.confirmed.hits.map((hit) => hit.itemId).sort(), ['s1', 's2']);
});

test('an item reached from several seeds is reached through its strongest relationship', () => {
  const result = expandFromSeeds(['s1', 's2'], [relationship('a', 's1', 'x', 0.5), relationship('b', 's2', 'x', 0.8)], settings);
  assert.equal(result.expansion.hits[0]!.relationship!.id, 'b');
  assert.equal(result.expansion.hits[0]!.score, 0.8);
});

test('the expansion contribution grows with the relationship strength and stays below a top direct hit', () => {
  const v1 = fusionParameters('query-rank-v1');
  const strong = contribution(v1, 'expansion', { itemId: 'x', rank: 0, score: 0.9 }, 0);
  const weak = contribution(v1, 'expansion', { itemId: 'x', rank: 0, score: 0.5 }, 0);
  assert.ok(strong > weak);
  assert.ok(strong < contribution(v1, 'lexical_items', { itemId: 'y', rank: 1, score: 1 }, 1));
});

test('an expanded result is labelled exactly as the design shows', () => {
  const suggested = relationship('r', 'x', 's1', 0.68, 'pending', 'updates');
  assert.equal(
    expansionLabel(suggested, 'x'),
    'Not a direct match. Reached because this item updates a matching item — strength 0.68 (suggested by analysis, not yet reviewed).',
  );
  const confirmed = relationship('r', 's1', 'x', 0.9, 'confirmed', 'contradicts');
  assert.equal(
    expansionLabel(confirmed, 'x'),
    'Not a direct match. Reached because this item contradicts a matching item — strength 0.90 (confirmed by a person).',
  );
});

test('the label reads the relationship from the expanded item end', () => {
  const updates = relationship('r', 's1', 'x', 0.7, 'pending', 'updates');
  assert.match(expansionLabel(updates, 'x'), /this item is updated by a matching item/);
  const supports = relationship('r', 's1', 'x', 0.7, 'pending', 'supports');
  assert.match(expansionLabel(supports, 's1'), /this item supports a matching item/);
});

test('why_matched has one sentence per path, naming the entity and its type, the similarity and the age', () => {
  const sentences = whyMatched(
    new Map([
      ['vector', { itemId: 'a', rank: 1, score: 0.891 }],
      ['lexical_items', { itemId: 'a', rank: 2, score: 7 }],
      ['entity', { itemId: 'a', rank: 0, score: 1, entities: [{ surface: 'Example Ltd', type: 'organisation', key: 'organisation:example ltd' }] }],
      ['recency', { itemId: 'a', rank: 0, score: 0.95, ageDays: 12.4 }],
    ]),
    'example ltd crane',
  );
  assert.deepEqual(sentences, [
    'A section of this item is close in meaning to your query (similarity 0.89).',
    "The item's title or text contains words from your query.",
    'This item refers to Example Ltd (organisation), which your query names.',
    'This version was indexed 12 days ago.',
  ]);
  assert.equal(
    explainHit('entity', { itemId: 'a', rank: 0, score: 1, entities: [
      { surface: 'Example Ltd', type: 'organisation', key: 'o' },
      { surface: 'Ms. Lena Fischer', type: 'person', key: 'p' },
    ] }, 'q'),
    'This item refers to Example Ltd (organisation) and Ms. Lena Fischer (person), which your query names.',
  );
});
