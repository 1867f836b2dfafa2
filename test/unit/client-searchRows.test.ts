// Search results in the quick pick: relevance labelled as relative to this result set, similarity
// as its own number, the reasons it matched, and the "Not a direct match…" label for expansions.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SearchResultView } from '../../shared/types.ts';
import { searchEntries } from '../../client/src/searchRows.ts';

const result = (overrides: Partial<SearchResultView>): SearchResultView => ({
  item_id: 'i1', title: 'GC-2 refurbishment', path: 'maintenance/gc2.md', query_relevance: 1, semantic_similarity: 0.891,
  why_matched: ['The item\u2019s text contains words from your query.'], contributions: {}, expanded_via: null,
  passage: { text: '…', chunk_id: 'c1', location: { kind: 'lines', start: 5, end: 12 } }, ...overrides,
});

test('a row shows relevance as relative, similarity separately, the passage and why it matched', () => {
  const [row] = searchEntries([{ folder: 'file:///demo', name: 'demo', response: { rank_version: 'query-rank-v1', query: 'crane', results: [result({})], unavailable_paths: [] } }]);
  assert.equal(row?.kind, 'result');
  if (row?.kind !== 'result') return;
  assert.equal(row.label, 'GC-2 refurbishment');
  assert.equal(row.description, 'relevance 1.00 (relative to these results) · similarity 0.89 · lines 5-12');
  assert.match(row.detail, /contains words from your query/);
});

test('an expanded result leads with its Not a direct match label', () => {
  const expanded = result({ semantic_similarity: null, passage: null, expanded_via: { relationship_id: 'r1', type: 'updates', score: 0.68, status: 'pending' }, why_matched: [] });
  const [row] = searchEntries([{ folder: 'file:///demo', name: 'demo', response: { rank_version: 'v', query: 'q', results: [expanded], unavailable_paths: [] } }]);
  if (row?.kind !== 'result') return assert.fail('expected a result row');
  assert.match(row.description, /similarity n\/a$/);
  assert.equal(row.detail, 'Not a direct match. Reached because this item updates a matching item — strength 0.68 (suggested by analysis, not yet reviewed).');
});

test('several folders are separate result sets; failures and unavailable paths are said, not hidden', () => {
  const entries = searchEntries([
    { folder: 'file:///a', name: 'a', response: { rank_version: 'v', query: 'q', results: [result({})], unavailable_paths: [{ path: 'vector', reason: 'vectors are still being computed' }] } },
    { folder: 'file:///b', name: 'b', error: 'the index could not be opened' },
  ]);
  assert.deepEqual(entries.map((entry) => entry.kind), ['separator', 'notice', 'result', 'separator', 'notice']);
  assert.equal(entries.at(-1)?.kind === 'notice' && entries.at(-1)?.label, '$(warning) b: search failed');
});

test('no results says so', () => {
  const entries = searchEntries([{ folder: 'file:///a', name: 'a', response: { rank_version: 'v', query: 'q', results: [], unavailable_paths: [] } }]);
  assert.deepEqual(entries.map((entry) => entry.label), ['No matching items']);
});

test('a result standing for its copies names them first, once', () => {
  const collapsed = result({
    also: [
      { item_id: 'i2', path: 'drafts/gc2-v2.md', kind: 'near_duplicate', similarity: 0.973 },
      { item_id: 'i3', path: 'archive/gc2.md', kind: 'duplicate', similarity: null },
    ],
  });
  const entries = searchEntries([{ folder: 'file:///demo', name: 'demo', response: { rank_version: 'v', query: 'q', results: [collapsed], unavailable_paths: [] } }]);
  assert.equal(entries.filter((entry) => entry.kind === 'result').length, 1);
  const [row] = entries;
  if (row?.kind !== 'result') return assert.fail('expected a result row');
  assert.match(row.detail, /^also: drafts\/gc2-v2\.md, near-duplicate, similarity 0\.97; archive\/gc2\.md, identical copy · /);
});
