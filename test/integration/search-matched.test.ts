// What a search result says it matched, and when the results are only the closest there were:
// a small folder indexed by the real pipeline (real SQLite store, the default embedding model).
// A result names the query's words its passage contains and the figure it states; a query that
// contains only one word of and nothing means is answered with the closest items, flagged as a
// weak match, and the CLI says so in words.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { WEAK_MATCH_NOTICE } from '../../shared/searchText.ts';
import { matchedFigures } from '../../server/src/ranking/matchedTerms.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { namedWords } from '../../shared/queryWords.ts';
import { REPO_ROOT, writeFiles } from '../support/tempFolder.ts';
import { indexedFolder } from '../support/indexedFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const WORKSPACE = 'search-matched-test';

const FILES = {
  'maintenance/crane-report.md':
    '# Gantry crane GC-2 refurbishment report\n\n' +
    'The refurbishment of gantry crane GC-2 was carried out by Example Ltd in May 2025. ' +
    'The final cost of the crane refurbishment was EUR 51,500, above the approved budget.\n\n' +
    '## Handover\n\nThe crane was handed back to the warehouse team after a load test.\n',
  'finance/invoice-0042.md':
    '# Invoice 0042\n\nInvoice for office stationery: paper, toner and binders. ' +
    'Payment is due within 30 days of the invoice date.\n',
  'notes/canteen-menu.md': '# Canteen menu\n\nMonday: lentil soup and bread. Tuesday: pasta with tomato sauce.\n',
};

const matched = indexedFolder({
  workspace: WORKSPACE,
  folder: (root) => writeFiles(path.join(root, 'folder'), FILES),
  embedding: { kind: 'use-lite' },
  queryEmbedder: true,
  timeoutMs: 5 * 60_000,
});

const search = (query: string) => searchWorkspace(matched.index.store, matched.embedder, query, { limit: 5 });

test('a result names the query words its passage contains and the figure it states', async () => {
  const response = await search('crane refurbishment cost');
  const report = response.results[0];
  assert.equal(report?.path, 'maintenance/crane-report.md');
  assert.deepEqual(report.matched?.words, ['crane', 'refurbishment', 'cost']);
  assert.ok(
    report.why_matched.includes('A passage of this item contains "crane", "refurbishment" and "cost" from your query.'),
    report.why_matched.join(' | '),
  );
  assert.ok(report.matched?.figures.some((figure) => /51,500 EUR/.test(figure)), `figures: ${report.matched?.figures.join(', ')}`);
  assert.ok(report.why_matched.some((reason) => /^It states .*51,500 EUR/.test(reason)), report.why_matched.join(' | '));
  assert.equal(response.weak_match, undefined, 'a result containing every query word is a strong match');
});

test('the figures a result names are those its passages state, as reading every claim of its item finds them', async () => {
  let named = 0;
  for (const query of ['crane refurbishment cost', 'cost 51500', 'invoice payment due 30 days', 'Example Ltd crane']) {
    const words = namedWords(query);
    const passageHits = await matched.index.store.searchChunksLexical(query, 200);
    for (const result of (await search(query)).results) {
      const wordPassage = passageHits.find((hit) => hit.itemId === result.item_id)?.id;
      const passages = new Set([result.passage?.chunk_id, wordPassage].filter((id) => id !== undefined));
      const read = (result.matched?.words.length ?? 0) > 0 || words.some((word) => /^\d+$/.test(word));
      const expected = read ? matchedFigures(await matched.index.store.listClaims(result.item_id), passages, words) : [];
      assert.deepEqual(result.matched?.figures ?? [], expected, `${query}: ${result.path}`);
      named += expected.length;
    }
  }
  assert.ok(named >= 2, 'some results name a figure');
});

test('a figure typed in the query finds the claim that states it', async () => {
  const response = await search('cost 51500');
  const report = response.results.find((result) => result.path === 'maintenance/crane-report.md');
  assert.ok(report?.matched?.figures.some((figure) => /51,500 EUR/.test(figure)), JSON.stringify(report?.matched));
});

test('an entity match names the entity and its type in what it matched', async () => {
  const response = await search('Example Ltd');
  const report = response.results.find((result) => result.path === 'maintenance/crane-report.md');
  assert.ok(report?.matched?.names.some((name) => /^Example Ltd\.? \(organisation\)$/.test(name)), JSON.stringify(report?.matched));
});

test('one common word of a longer question is a weak match: the closest items are still listed, flagged', async () => {
  // "payment" is in the invoice; "lorry", "tyre" and "replacement" are nowhere, and nothing is close in meaning.
  const response = await search('lorry tyre replacement payment');
  const invoice = response.results.find((result) => result.path === 'finance/invoice-0042.md');
  assert.deepEqual(invoice?.matched?.words, ['payment']);
  assert.equal(response.weak_match, true, JSON.stringify(response.results.map((r) => [r.path, r.semantic_similarity, r.matched])));
  assert.equal(response.results[0]!.query_relevance, 1, 'relevance stays relative: the best of a weak set is still 1.00');
});

test('a figure the query gives, stated by a passage, is a strong match; another figure is not', async () => {
  // Of four words only "cost" is in the folder: the figure alone decides.
  assert.equal((await search('tyre lorry cost 51500')).weak_match, undefined);
  assert.equal((await search('tyre lorry cost 99999')).weak_match, true);
});

test('the CLI says when the best result is a weak match, and not when it is not', { skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first' }, () => {
  const run = (query: string) =>
    spawnSync(process.execPath, [CLI, 'search', query, '--data', matched.dataDir, '--workspace', WORKSPACE], { cwd: matched.folder, encoding: 'utf8', timeout: 120_000 });
  const weak = run('lorry tyre replacement payment');
  assert.equal(weak.status, 0, weak.stderr);
  assert.ok(weak.stdout.includes(WEAK_MATCH_NOTICE), weak.stdout);
  const strong = run('crane refurbishment cost');
  assert.equal(strong.status, 0, strong.stderr);
  assert.ok(!strong.stdout.includes(WEAK_MATCH_NOTICE), strong.stdout);
  assert.match(strong.stdout, /contains "crane", "refurbishment" and "cost" from your query/);
});
