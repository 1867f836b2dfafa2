// Spelling tolerance from the folder's own vocabulary, on a real SQLite store indexed by the real
// pipeline (no embedding model, so the words alone decide): a misspelt query finds its guide
// first, the corrected words are searched beside the typed ones and said in the response; a query
// the folder spells as typed searches as before; a matched word is reported as the passage writes it.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { writeFiles } from '../support/tempFolder.ts';
import { indexedFolder } from '../support/indexedFolder.ts';

const FILES = {
  'licensing/choosing-a-license.md':
    '# Choosing a license\n\nEvery open source project needs a license. Without a license, nobody may use your project. ' +
    'Pick a license before you publish: the MIT license is short, the GPL asks that changes be shared.\n',
  'community/code-of-conduct.md': '# Your code of conduct\n\nA code of conduct sets the rules of your community and says how they are enforced.\n',
  'maintenance/forklift-checks.md': '# Forklift checks\n\nInspect the forklift tyres and brakes before every shift.\n',
  'finance/budget.md': '# Budget\n\nThe budget for the year covers salaries, rent and travel.\n',
};

const spelling = indexedFolder({ workspace: 'spelling', folder: (root) => writeFiles(path.join(root, 'folder'), FILES), embedding: { kind: 'none' }, timeoutMs: 5 * 60_000 });

const search = (query: string) => searchWorkspace(spelling.index.store, null, query, { limit: 5 });

test('"licnese for my projct" finds "Choosing a license" first, searching license and project beside the typed words', async () => {
  const response = await search('licnese for my projct');
  assert.equal(response.results[0]?.path, 'licensing/choosing-a-license.md', JSON.stringify(response.results.map((result) => result.path)));
  assert.deepEqual(response.also_searched, [
    { typed: 'licnese', searched: 'license' },
    { typed: 'projct', searched: 'project' },
  ]);
  assert.equal(response.query, 'licnese for my projct', 'the query is reported as typed');
  assert.deepEqual(response.results[0]?.matched?.words, ['license', 'project']);
});

test('a query the folder spells as typed is searched as typed: nothing is said to be also searched', async () => {
  const response = await search('choosing a license');
  assert.equal(response.also_searched, undefined);
  assert.equal(response.results[0]?.path, 'licensing/choosing-a-license.md');
});

test('a word far from every word of the folder is left as typed, not forced onto a stranger', async () => {
  const response = await search('xylophone');
  assert.equal(response.also_searched, undefined);
});

test('a matched word is reported as the passage writes it: "inspect", not the query\u2019s "inspected"', async () => {
  const response = await search('who inspected the forklift');
  const checks = response.results.find((result) => result.path === 'maintenance/forklift-checks.md');
  assert.ok(checks, JSON.stringify(response.results.map((result) => result.path)));
  assert.deepEqual(checks.matched?.words, ['inspect', 'forklift']);
  assert.ok(checks.why_matched.some((reason) => /"inspect"/.test(reason)), checks.why_matched.join(' | '));
  assert.ok(!checks.why_matched.some((reason) => /inspected/.test(reason)), checks.why_matched.join(' | '));
});

test('a long query with one word the folder lacks is answered by its other words, searched as typed', async () => {
  const response = await search('choosing a license for the community budget lisence');
  assert.equal(response.also_searched, undefined);
});

test('a result holding the corrected words is a strong match: the typed words, in no document, do not count against it', async () => {
  const response = await search('forklfit chekcs');
  assert.equal(response.results[0]?.path, 'maintenance/forklift-checks.md');
  assert.equal(response.weak_match, undefined);
});

test('"who inspected the zeppelin" where no document mentions one is a weak match, though a passage says "inspect"', async () => {
  const response = await search('who inspected the zeppelin');
  assert.ok(response.results.length > 0);
  const checks = response.results.find((result) => result.path === 'maintenance/forklift-checks.md');
  assert.deepEqual(checks?.matched?.words, ['inspect']);
  assert.equal(response.weak_match, true, JSON.stringify(response.also_searched));
});

test('the spelling check asks whether the folder holds a word, which only live items answer (run last: it deletes a file)', async () => {
  const { store } = spelling.index;
  assert.equal(await store.lexicalMatchExists!('forklift'), true);
  assert.equal(await store.lexicalMatchExists!('forklfit'), false);
  await store.tombstone('maintenance/forklift-checks.md');
  assert.equal(await store.lexicalMatchExists!('forklift'), false, 'a deleted file holds no word any more');
});
