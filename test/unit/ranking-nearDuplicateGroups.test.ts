// Near-duplicates shown once (issue 13): items linked as exact or near copies form one group,
// represented by the best-ranked member and naming the others; a rejected relationship links
// nothing; an exact copy outside the list joins its group but never represents it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeAlso } from '../../shared/alsoText.ts';
import {
  duplicateLinkOf,
  duplicateOfLink,
  nearDuplicateGroups,
  type DuplicateLink,
  type LinkSource,
} from '../../server/src/ranking/nearDuplicateGroups.ts';

const near = (a: string, b: string, similarity: number): DuplicateLink => ({ a, b, kind: 'near_duplicate', similarity });
const copy = (a: string, b: string): DuplicateLink => ({ a, b, kind: 'duplicate', similarity: null });

test('an item without links is a group of its own, in ranked order', () => {
  const groups = nearDuplicateGroups(['a', 'b', 'c'], []);
  assert.deepEqual(groups, [
    { representative: 'a', also: [] },
    { representative: 'b', also: [] },
    { representative: 'c', also: [] },
  ]);
});

test('the best-ranked member represents the group and names the others, whichever way the links point', () => {
  const groups = nearDuplicateGroups(['memo-v2', 'invoice', 'memo'], [near('memo', 'memo-v2', 0.97)]);
  assert.deepEqual(groups, [
    { representative: 'memo-v2', also: [{ itemId: 'memo', kind: 'near_duplicate', similarity: 0.97 }] },
    { representative: 'invoice', also: [] },
  ]);
});

test('groups are connected components: a copy of a near-copy is in the group, as a near-duplicate at the lowest similarity on the way', () => {
  const groups = nearDuplicateGroups(['a', 'x', 'b', 'c'], [near('a', 'b', 0.96), copy('c', 'b')]);
  assert.equal(groups.length, 2);
  assert.deepEqual(groups[0], {
    representative: 'a',
    also: [
      { itemId: 'b', kind: 'near_duplicate', similarity: 0.96 },
      { itemId: 'c', kind: 'near_duplicate', similarity: 0.96 },
    ],
  });
});

test('an exact copy outside the list joins its group as an identical copy but never represents it', () => {
  const groups = nearDuplicateGroups(['original', 'other'], [duplicateOfLink('archive-copy', 'original')]);
  assert.deepEqual(groups, [
    { representative: 'original', also: [{ itemId: 'archive-copy', kind: 'duplicate', similarity: null }] },
    { representative: 'other', also: [] },
  ]);
});

test('a group with no member in the list is not returned', () => {
  assert.deepEqual(nearDuplicateGroups(['a'], [near('x', 'y', 0.99)]), [{ representative: 'a', also: [] }]);
});

test('the order of the links does not change the groups', () => {
  const links = [near('a', 'b', 0.95), near('b', 'c', 0.98), copy('d', 'a')];
  const forward = nearDuplicateGroups(['c', 'a', 'b', 'e'], links);
  const backward = nearDuplicateGroups(['c', 'a', 'b', 'e'], [...links].reverse());
  assert.deepEqual(forward, backward);
  assert.equal(forward[0]!.representative, 'c');
  assert.deepEqual(forward.map((group) => group.representative), ['c', 'e']);
});

const relationship = (overrides: Partial<LinkSource>): LinkSource => ({
  fromItemId: 'a',
  toItemId: 'b',
  status: 'pending',
  nearDuplicate: false,
  signals: [],
  ...overrides,
});

test('a relationship links its ends when it carries the near-duplicate flag or identical bytes, with the stored cosine', () => {
  assert.deepEqual(
    duplicateLinkOf(relationship({ nearDuplicate: true, signals: [{ type: 'semantic_similarity', value: '0.97 cosine' }] })),
    { a: 'a', b: 'b', kind: 'near_duplicate', similarity: 0.97 },
  );
  assert.deepEqual(duplicateLinkOf(relationship({ signals: [{ type: 'content_hash_match', value: 'identical bytes' }] })), {
    a: 'a',
    b: 'b',
    kind: 'duplicate',
    similarity: null,
  });
});

test('an ordinary similar relationship links nothing, and neither does a rejected near-duplicate', () => {
  assert.equal(duplicateLinkOf(relationship({ signals: [{ type: 'semantic_similarity', value: '0.80 cosine' }] })), null);
  assert.equal(duplicateLinkOf(relationship({ nearDuplicate: true, status: 'rejected' })), null);
});

test('the others are named in words: path, kind and similarity', () => {
  assert.equal(
    describeAlso([
      { item_id: '1', path: 'drafts/report-v2.md', kind: 'near_duplicate', similarity: 0.971 },
      { item_id: '2', path: 'archive/report.md', kind: 'duplicate', similarity: null },
    ]),
    'also: drafts/report-v2.md, near-duplicate, similarity 0.97; archive/report.md, identical copy',
  );
});
