// One voice per copy group (relationship-score-v2, rule 6): which items are one document, and
// which of them speaks for it. The case that motivated it: three copies of one memo (two
// byte-identical, one near-duplicate draft) beside one report.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LinkSource } from '../../server/src/ranking/nearDuplicateGroups.ts';
import { voiceGroups, type GroupedItem } from '../../server/src/engine/voiceGroups.ts';

function item(id: string, createdAt: string, overrides: Partial<GroupedItem> = {}): GroupedItem {
  return { id, path: `${id}.md`, createdAt, duplicateOf: null, contentHash: `hash-${id}`, deletedAt: null, ...overrides };
}

function nearDuplicate(from: string, to: string, overrides: Partial<LinkSource> = {}): LinkSource {
  return { fromItemId: from, toItemId: to, status: 'pending', nearDuplicate: true, signals: [{ type: 'semantic_similarity', value: '0.97 cosine' }], ...overrides };
}

const related = (from: string, to: string): LinkSource => ({ fromItemId: from, toItemId: to, status: 'pending', nearDuplicate: false, signals: [{ type: 'claim_contradiction', value: 'cost' }] });

// The archive copy was read first, but the store made the memo the original of their bytes.
const MEMO_FOLDER = [
  item('archive-copy', '2025-01-01T00:00:00.001Z', { duplicateOf: 'memo', contentHash: 'hash-memo' }),
  item('draft', '2025-01-01T00:00:00.002Z'),
  item('memo', '2025-01-01T00:00:00.003Z', { contentHash: 'hash-memo' }),
  item('report', '2025-01-01T00:00:00.000Z'),
];

test('three copies of one memo are one voice, spoken by the original the store chose for their bytes; the report is a voice of its own', () => {
  const groups = voiceGroups(MEMO_FOLDER, [nearDuplicate('draft', 'memo'), related('memo', 'report'), related('draft', 'report')]);
  assert.deepEqual(groups.groupOf('draft'), { original: 'memo', members: ['memo', 'archive-copy', 'draft'] });
  assert.equal(groups.originalOf('archive-copy'), 'memo');
  assert.ok(groups.sameVoice('draft', 'archive-copy'));
  assert.ok(!groups.sameVoice('memo', 'report'), 'a contradiction is not a copy link');
  assert.deepEqual(groups.groupOf('report'), { original: 'report', members: ['report'] });
});

test('without a stored duplicate the earliest member is the original, then the first path', () => {
  const groups = voiceGroups([item('b', '2025-01-02T00:00:00Z'), item('a', '2025-01-03T00:00:00Z'), item('c', '2025-01-02T00:00:00Z')], [
    nearDuplicate('a', 'b'),
    nearDuplicate('a', 'c'),
  ]);
  assert.equal(groups.originalOf('a'), 'b');
});

test('a rejected near-duplicate relationship joins nothing: a person said the two are not one document', () => {
  const groups = voiceGroups(MEMO_FOLDER, [nearDuplicate('draft', 'memo', { status: 'rejected' })]);
  assert.ok(!groups.sameVoice('draft', 'memo'));
  assert.ok(groups.sameVoice('archive-copy', 'memo'), 'the byte-identical copy stays with its original');
});

test('identical bytes join by content hash or by an identical-bytes relationship, and only live items by hash', () => {
  const items = [item('x', '1'), item('y', '2', { contentHash: 'hash-x' }), item('gone', '0', { contentHash: 'hash-x', deletedAt: '3' }), item('z', '4')];
  const groups = voiceGroups(items, [{ fromItemId: 'z', toItemId: 'x', status: 'pending', nearDuplicate: false, signals: [{ type: 'content_hash_match', value: 'identical bytes' }] }]);
  assert.deepEqual(groups.groupOf('y').members, ['x', 'y', 'z']);
  assert.ok(!groups.sameVoice('gone', 'x'), 'a deleted item is not a copy by its old hash');
});

test('the members with the same bytes state what an item states; a near-duplicate is not assumed to', () => {
  const groups = voiceGroups(MEMO_FOLDER, [nearDuplicate('draft', 'memo')]);
  assert.deepEqual(groups.identicalTo('memo'), ['archive-copy']);
  assert.deepEqual(groups.identicalTo('draft'), []);
});

test('links to items not given are ignored, and an unknown item is a group of one', () => {
  const groups = voiceGroups([item('memo', '1')], [nearDuplicate('memo', 'elsewhere')]);
  assert.deepEqual(groups.groupOf('memo').members, ['memo']);
  assert.deepEqual(groups.groupOf('elsewhere'), { original: 'elsewhere', members: ['elsewhere'] });
});
