// The Related view's rows, without VS Code: the server's order kept, each row saying its kind, its
// one number with what that number is (strength for a relationship, similarity for content, never
// a probability) and "linked" or "not linked yet", and opening the file at the closest passage.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RelatedItemsResult } from '../../shared/protocol.ts';
import { RELATED_SIMILARITY_LABEL, type RelatedEntry } from '../../shared/types.ts';
import { emptyMessage, relatedRows } from '../../client/src/related/relatedRows.ts';

const FOLDER = 'file:///work/guides';

const link: RelatedEntry = {
  item: { item_id: 'b', path: 'b.md', title: 'Building' },
  kind: 'relationship',
  relationship: { id: 'r1', type: 'links_to', direction: 'outgoing', status: 'pending', strength: 0.6, score_version: 'relationship-score-v2', evidence: 'document link: line 12' },
  similarity: null,
  why: ['links to it'],
  linked: true,
  passage: null,
};
const neighbour: RelatedEntry = {
  item: { item_id: 'c', path: 'c.md', title: null },
  kind: 'similar_content',
  relationship: null,
  similarity: 0.812,
  why: ['shares words: build cache'],
  linked: false,
  passage: { location: { kind: 'lines', start: 4, end: 9 } },
};
const nearby: RelatedEntry = { ...neighbour, item: { item_id: 'd', path: 'd/d.md', title: 'D' }, kind: 'nearby', similarity: null, why: ['in the same folder'], passage: null };

const result = (entries: RelatedEntry[]): RelatedItemsResult => ({
  folder: FOLDER,
  related: { item: { item_id: 'a', path: 'a.md', title: 'A' }, entries, similarity_label: RELATED_SIMILARITY_LABEL, notes: [] },
});

test('rows keep the server order and say kind, labelled number and whether the documents link', () => {
  const rows = relatedRows(result([link, neighbour, nearby]));
  assert.deepEqual(rows.map((row) => row.label), ['Building', 'c.md', 'D']);
  assert.equal(rows[0]!.description, 'links to · strength 0.60 · linked');
  assert.equal(rows[1]!.description, 'similar content · similarity 0.81 · not linked yet');
  assert.equal(rows[2]!.description, 'nearby · no similarity measured · not linked yet');
});

test('a relationship row never shows a similarity, a content row never a strength, and neither is called a probability', () => {
  const [relationship, content] = relatedRows(result([link, neighbour]));
  assert.doesNotMatch(relationship!.description, /similarity/);
  assert.match(relationship!.tooltip, /heuristic relationship strength, not a probability/);
  assert.match(relationship!.tooltip, /Evidence: document link: line 12/);
  assert.doesNotMatch(content!.description, /strength/);
  assert.match(content!.tooltip, /semantic similarity .* not a strength or a probability/);
  assert.match(content!.tooltip, /Why: shares words: build cache/);
});

test('an incoming link reads "linked from"', () => {
  const [row] = relatedRows(result([{ ...link, relationship: { ...link.relationship!, direction: 'incoming' } }]));
  assert.match(row!.description, /^linked from/);
});

test('clicking opens the file at the closest passage, or at its top when none was matched', () => {
  const [relationship, content] = relatedRows(result([link, neighbour]));
  assert.deepEqual(content!.open, { folder: FOLDER, path: 'c.md', location: { kind: 'lines', start: 4, end: 9 } });
  assert.deepEqual(relationship!.open, { folder: FOLDER, path: 'b.md', location: null });
  assert.match(content!.tooltip, /closest passage, lines 4-9/);
});

test('rows of the same file have distinct ids', () => {
  const rows = relatedRows(result([link, neighbour, nearby]));
  assert.equal(new Set(rows.map((row) => row.id)).size, rows.length);
});

test('an empty view says why: no file, not indexed, or everything already linked under the filter', () => {
  assert.match(emptyMessage(null, false, false)!, /Open a file/);
  assert.match(emptyMessage(null, false, true)!, /not an indexed item/);
  assert.match(emptyMessage(result([]), true, true)!, /already linked/);
  assert.equal(emptyMessage(result([neighbour]), false, true), undefined);
});
