// Search results in the quick pick: the first line carries what decides (title, relevance, the
// folder in multi-root, then where the item is), similarity as its own number, the detail the passage first,
// multi-root grouped by folder under header rows with each folder's own weak-match notice, what it matched named, the passage with the query's
// words marked, the "Not a direct match…" label for expansions, the weak-match notice, text from
// documents shown as text, and "why" in full.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SearchResultView } from '../../shared/types.ts';
import { relationshipRows } from '../../client/src/itemRelationshipRows.ts';
import { passageSnippet, searchEntries, whyInFull } from '../../client/src/searchRows.ts';
import { WEAK_MATCH_NOTICE } from '../../shared/searchText.ts';

const result = (overrides: Partial<SearchResultView>): SearchResultView => ({
  item_id: 'i1', title: 'GC-2 refurbishment', path: 'maintenance/gc2.md', query_relevance: 1, semantic_similarity: 0.891,
  why_matched: ['The item\u2019s text contains words from your query.'], contributions: {}, expanded_via: null,
  passage: { text: '…', chunk_id: 'c1', location: { kind: 'lines', start: 5, end: 12 } }, ...overrides,
});

test('a row\u2019s first line leads with relevance, then path and place, similarity apart; its detail quotes the passage, then names what matched', () => {
  const matched = result({
    contributions: { lexical_chunks: 0.6, vector: 0.3, entity: 0.1 },
    matched: { words: ['crane', 'cost'], names: ['Example Ltd (organisation)'], figures: ['cost 51500 EUR'] },
    passage: { text: 'The final cost of the\ncrane was EUR 51,500.', chunk_id: 'c1', location: { kind: 'lines', start: 5, end: 12 } },
  });
  const [row] = searchEntries([{ folder: 'file:///demo', name: 'demo', response: { rank_version: 'query-rank-v1', query: 'crane cost', results: [matched], unavailable_paths: [] } }]);
  if (row?.kind !== 'result') return assert.fail('expected a result row');
  assert.equal(row.label, 'GC-2 refurbishment');
  assert.equal(row.description, 'relevance 1.00 · maintenance/gc2.md · lines 5-12 · similarity 0.89');
  assert.equal(
    row.detail,
    '“The final «cost» of the «crane» was EUR 51,500.” · contains "crane", "cost" · names Example Ltd (organisation) · states cost 51500 EUR · close in meaning',
  );
});

test('two items with one title are told apart by path, and in multi-root by folder', () => {
  const entries = searchEntries([
    { folder: 'file:///a', name: 'site-a', response: { rank_version: 'v', query: 'q', results: [result({ path: 'x/report.md', title: 'Report' })], unavailable_paths: [] } },
    { folder: 'file:///b', name: 'site-b', response: { rank_version: 'v', query: 'q', results: [result({ path: 'y/report.md', title: 'Report' })], unavailable_paths: [] } },
  ]);
  const rows = entries.filter((entry) => entry.kind === 'result');
  assert.deepEqual(rows.map((row) => row.label), ['Report', 'Report']);
  assert.equal(rows[0]!.description, 'relevance 1.00 in site-a · x/report.md · lines 5-12 · similarity 0.89');
  assert.equal(rows[1]!.description, 'relevance 1.00 in site-b · y/report.md · lines 5-12 · similarity 0.89');
});

test('a long title is cut in the row so relevance and the folder stay in sight; "why" in full names it whole', () => {
  const title = 'Q2 2025 capital budget review: Northgate Distribution Centre';
  const [row] = searchEntries([{ folder: 'file:///demo', name: 'demo', response: { rank_version: 'v', query: 'q', results: [result({ title })], unavailable_paths: [] } }]);
  if (row?.kind !== 'result') return assert.fail('expected a result row');
  assert.equal(row.label, 'Q2 2025 capital budget review: Northgate…');
  assert.ok(row.label.length <= 48);
  assert.equal(whyInFull(row).message, `Why "${title}" matched`);
});

test('a title or passage written like an icon is shown as text', () => {
  const [row] = searchEntries([{ folder: 'file:///a', name: 'a', response: { rank_version: 'v', query: 'q', results: [result({ title: '$(alert) Urgent', passage: { text: 'see $(zap) here', chunk_id: 'c', location: { kind: 'lines', start: 1, end: 1 } } })], unavailable_paths: [] } }]);
  if (row?.kind !== 'result') return assert.fail('expected a result row');
  assert.equal(row.label, '\\$(alert) Urgent');
  assert.match(row.detail, /see \\\$\(zap\) here/);
});

test('the passage quoted is the part where the query\'s words are, with every query word marked', () => {
  const text = `${'Background words that say nothing in particular. '.repeat(4)}The gantry crane refurbishment cost EUR 51,500, and the cranes were tested. ${'More filler text. '.repeat(10)}`;
  const snippet = passageSnippet(text, 'what did the crane refurbishment cost');
  assert.match(snippet, /^“…/);
  assert.match(snippet, /…”$/);
  assert.match(snippet, /«crane» «refurbishment» «cost» EUR 51,500, and the «cranes» were tested/);
  assert.ok(snippet.length < 170, snippet);
  assert.equal(passageSnippet('Nothing here matches.', 'zebra'), '“Nothing here matches.”');
});

test('the snippet sits where most of the query\'s words are together, not at the first one', () => {
  const text = `Welcome, contributors! ${'Thanks for reading this guide about running a project well. '.repeat(5)}Be firm about shutting down toxic behavior from contributors when you see it.`;
  const snippet = passageSnippet(text, 'how do I handle toxic contributors');
  assert.match(snippet, /«toxic» behavior from «contributors»/);
});

test('a weak match is said before the closest items, and relevance stays relative', () => {
  const entries = searchEntries([{ folder: 'file:///a', name: 'a', response: { rank_version: 'v', query: 'q', results: [result({})], unavailable_paths: [], weak_match: true } }]);
  assert.deepEqual(entries.map((entry) => entry.kind), ['notice', 'result']);
  assert.equal(entries[0]!.label, `$(info) ${WEAK_MATCH_NOTICE}`);
  const row = entries[1];
  assert.match(row?.kind === 'result' ? row.description : '', /^relevance 1\.00 · /);
});

test('in multi-root each folder is a group under a header naming it, strong folders first, and a weak folder\u2019s notice names it', () => {
  const response = (results: SearchResultView[], weak = false) => ({ rank_version: 'v', query: 'license for my project', results, unavailable_paths: [], ...(weak ? { weak_match: true as const } : {}) });
  const entries = searchEntries([
    { folder: 'file:///demo', name: 'demo', response: response([result({ title: null, path: 'data.json' })], true) },
    { folder: 'file:///guides', name: 'opensource-guide-en', response: response([result({ title: 'The Legal Side of Open Source', path: 'legal.md' }), result({ title: 'Starting a project', path: 'starting-a-project.md', query_relevance: 0.6 })]) },
  ]);
  assert.deepEqual(
    entries.map((entry) => [entry.kind, entry.label]),
    [
      ['folder', '$(root-folder) opensource-guide-en'],
      ['result', 'The Legal Side of Open Source'],
      ['result', 'Starting a project'],
      ['folder', '$(root-folder) demo'],
      ['notice', `$(info) demo: ${WEAK_MATCH_NOTICE}`],
      ['result', 'data.json'],
    ],
  );
  const headers = entries.filter((entry) => entry.kind === 'folder');
  assert.equal(headers[0]!.kind === 'folder' && headers[0]!.description, "2 results · relevance relative to this folder's results");
  assert.equal(headers[1]!.kind === 'folder' && headers[1]!.description, "1 result · no strong match · relevance relative to this folder's results");
  const weak = entries.find((entry) => entry.kind === 'notice');
  assert.match(weak?.kind === 'notice' ? weak.detail : '', /^No result in demo contains/);
  const dataRow = entries.at(-1);
  assert.match(dataRow?.kind === 'result' ? dataRow.description : '', /^relevance 1\.00 in demo · data\.json/, 'the folder is on the first line, before anything that may be cut');
});

test('"why" in full lists every reason, each path\'s part of the relevance, and what each number is not', () => {
  const [row] = searchEntries([{ folder: 'file:///demo', name: 'demo', response: { rank_version: 'v', query: 'crane', results: [result({
    why_matched: ['A passage of this item contains "crane" from your query.', 'This version was indexed today.'],
    contributions: { lexical_chunks: 0.8, recency: 0.2 },
  })], unavailable_paths: [] } }]);
  if (row?.kind !== 'result') return assert.fail('expected a result row');
  const why = whyInFull(row);
  assert.equal(why.message, 'Why "GC-2 refurbishment" matched');
  assert.match(why.detail, /^maintenance\/gc2\.md, lines 5-12 in demo\n/);
  assert.match(why.detail, /• A passage of this item contains "crane" from your query\.\n• This version was indexed today\./);
  assert.match(why.detail, /words in a passage: 0\.80\n  recency: 0\.20/);
  assert.match(why.detail, /relative to this result set \(the best is 1\.00\), not a probability/);
  assert.match(why.detail, /Similarity 0\.89: .*not a probability and not part of relevance/);
});

test('an item\'s relationships read from its own end, with strength and review status', () => {
  const ref = (id: string, path: string) => ({ item_id: id, path, title: null });
  const view = (from: string, to: string, type: 'updates' | 'contradicts') => ({
    id: `${from}-${to}`, from: ref(from, `${from}.md`), to: ref(to, `${to}.md`), type, score: 0.684, score_version: 'v', status: 'pending' as const,
    near_duplicate: false, signals: [], produced_by: 'discover@1', created_at: '', updated_at: '', decided_by: null, decided_at: null, note: null, changed_since_decision: null,
  });
  const rows = relationshipRows({ folder: 'file:///a', item: ref('me', 'me.md'), relationships: [view('other', 'me', 'updates'), view('me', 'memo', 'contradicts')], mentions: [] });
  assert.deepEqual(rows.map((row) => row.label), ['is updated by other.md', 'contradicts memo.md']);
  assert.equal(rows[0]!.description, 'strength 0.68 (not a probability) · suggested by analysis, not yet reviewed');
});

test('an expanded result leads with its Not a direct match label', () => {
  const expanded = result({ semantic_similarity: null, passage: null, expanded_via: { relationship_id: 'r1', type: 'updates', score: 0.68, status: 'pending' }, why_matched: [] });
  const [row] = searchEntries([{ folder: 'file:///demo', name: 'demo', response: { rank_version: 'v', query: 'q', results: [expanded], unavailable_paths: [] } }]);
  if (row?.kind !== 'result') return assert.fail('expected a result row');
  assert.match(row.description, /similarity n\/a$/);
  assert.equal(row.detail, 'Not a direct match. Reached because this item updates a matching item — strength 0.68 (suggested by analysis, not yet reviewed).');
  assert.doesNotMatch(row.detail, /\*\*/);
});

test('several folders are separate result sets; failures and unavailable paths are said, not hidden', () => {
  const entries = searchEntries([
    { folder: 'file:///a', name: 'a', response: { rank_version: 'v', query: 'q', results: [result({})], unavailable_paths: [{ path: 'vector', reason: 'vectors are still being computed' }] } },
    { folder: 'file:///b', name: 'b', error: 'the index could not be opened' },
  ]);
  assert.deepEqual(entries.map((entry) => entry.kind), ['folder', 'notice', 'result', 'notice']);
  assert.equal(entries[1]!.label, '$(info) a: vector search unavailable');
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

test('a misspelt query\u2019s corrected words are said first, marked as passages mark them, and marked in the passage too', () => {
  const corrected = result({
    title: 'Reach truck collision report',
    passage: { text: 'The reach truck collision happened in aisle 4.', chunk_id: 'c1', location: { kind: 'lines', start: 3, end: 3 } },
  });
  const entries = searchEntries([{ folder: 'file:///demo', name: 'demo', response: {
    rank_version: 'v', query: 'reach truck colision', results: [corrected], unavailable_paths: [], also_searched: [{ typed: 'colision', searched: 'collision' }],
  } }]);
  assert.deepEqual(entries.map((entry) => entry.kind), ['notice', 'result']);
  const [notice, row] = entries;
  assert.equal(notice!.label, '$(lightbulb) also searched: «collision»');
  assert.equal(notice!.kind === 'notice' && notice!.detail, 'For colision, which no document here contains; results holding either are listed.');
  if (row?.kind !== 'result') return assert.fail('expected a result row');
  assert.match(row.detail, /The «reach» «truck» «collision» happened/);
  assert.equal(row.query, 'reach truck colision collision', 'opening the result selects the corrected word as well');
});

test('in multi-root the also-searched line names its folder and stands under that folder\u2019s header; a folder searched as typed has none', () => {
  const entries = searchEntries([
    { folder: 'file:///demo', name: 'demo', response: { rank_version: 'v', query: 'licnese', results: [result({})], unavailable_paths: [], also_searched: [{ typed: 'licnese', searched: 'license' }] } },
    { folder: 'file:///b', name: 'b', response: { rank_version: 'v', query: 'licnese', results: [result({})], unavailable_paths: [] } },
  ]);
  assert.deepEqual(entries.map((entry) => entry.label), ['$(root-folder) demo', '$(lightbulb) demo: also searched: «license»', 'GC-2 refurbishment', '$(root-folder) b', 'GC-2 refurbishment']);
  assert.match(entries[1]!.kind === 'notice' ? entries[1]!.detail : '', / in demo; /);
});

test('a corrected word written like an icon is shown as text', () => {
  const [notice] = searchEntries([{ folder: 'file:///a', name: 'a', response: { rank_version: 'v', query: 'q', results: [], unavailable_paths: [], also_searched: [{ typed: 'x', searched: '$(zap)' }] } }]);
  assert.equal(notice!.label, '$(lightbulb) also searched: «\\$(zap)»');
});
