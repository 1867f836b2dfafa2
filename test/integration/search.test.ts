// Search on the demo folder, indexed by the real pipeline with the default model: a query naming
// an organisation finds the items that mention it and says so; a cost query finds both cost
// documents, whose disagreement is recorded as a relationship; every result explains itself and
// points at a passage; search without vectors still works and says what it could not do.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { SearchResponse } from '../../shared/types.ts';
import type { Embedder } from '../../server/src/embed/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';
import { indexedFolder } from '../support/indexedFolder.ts';

const DEMO = path.join(REPO_ROOT, 'docs', 'demo');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const needsBuild = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';
const WORKSPACE = 'search-test';

const demo = indexedFolder({ workspace: WORKSPACE, folder: DEMO, embedding: { kind: 'use-lite' }, queryEmbedder: true, timeoutMs: 5 * 60_000 });

const search = (query: string, options = {}) => searchWorkspace(demo.index.store, demo.embedder, query, { limit: 20, ...options });

test('a query naming an organisation returns every item that mentions it, each saying so with its type', async () => {
  const mentioning = (await demo.index.store.entitySummaries()).find((entity) => entity.key === 'organisation:example ltd');
  assert.ok(mentioning && mentioning.itemIds.length >= 3, 'the demo mentions Example Ltd in several items');
  const response = await search('Example Ltd');
  const byId = new Map(response.results.map((result) => [result.item_id, result]));
  for (const itemId of mentioning.itemIds) {
    const result = byId.get(itemId);
    assert.ok(result, `${itemId} mentions Example Ltd and is returned`);
    assert.ok(
      result.why_matched.some((reason) => /^This item refers to .*Example Ltd\.? \(organisation\).*which your query names\.$/.test(reason)),
      `${result.path}: ${result.why_matched.join(' | ')}`,
    );
    assert.ok(result.contributions.entity! > 0);
  }
});

test('a query about the cost returns both cost documents, and their disagreement is recorded between them', async () => {
  const response = await search('cost of the gantry crane refurbishment', { limit: 5 });
  const paths = response.results.map((result) => result.path);
  const report = response.results.find((result) => result.path === 'maintenance/gantry-crane-gc2-refurbishment-report.md');
  const memo = response.results.find((result) => result.path === 'finance/q2-2025-capital-budget-review.md');
  assert.ok(report && memo, `both cost documents are in the top 5: ${paths.join(', ')}`);
  for (const [one, other] of [[report, memo], [memo, report]] as const) {
    const relationships = await demo.index.store.relationshipsTouching([one.item_id]);
    assert.ok(
      relationships.some((r) => r.type === 'contradicts' && [r.fromItemId, r.toItemId].includes(other.item_id)),
      `${one.path} has a contradicts relationship with ${other.path}`,
    );
  }
});

test('the best result is 1.00; similarity is a field of its own; contributions add up to the relevance', async () => {
  const response = await search('sprinkler leak in Bay 4');
  assert.equal(response.rank_version, 'query-rank-v2');
  assert.deepEqual(response.unavailable_paths, []);
  assert.equal(response.results[0]!.query_relevance, 1);
  for (const result of response.results) {
    assert.ok(result.query_relevance > 0 && result.query_relevance <= 1);
    assert.equal(typeof result.semantic_similarity, 'number', `${result.path} has vectors, so a similarity`);
    const sum = Object.values(result.contributions).reduce((a, b) => a + b!, 0);
    assert.ok(Math.abs(sum - result.query_relevance) < 0.001, `${result.path}: ${sum} vs ${result.query_relevance}`);
    assert.ok(result.why_matched.length > 0);
  }
  const vectorReason = response.results.flatMap((result) => result.why_matched).find((reason) => reason.includes('close in meaning'));
  assert.match(vectorReason ?? '', /\(similarity 0\.\d\d\)\.$/);
});

test('every result points at a passage with a location the editor can open', async () => {
  const response = await search('Example Ltd');
  const kinds = new Set<string>();
  for (const result of response.results) {
    assert.ok(result.passage, `${result.path} has a passage`);
    assert.ok(result.passage.text.length > 0);
    assert.ok(result.passage.location.start >= 1 && result.passage.location.end >= result.passage.location.start);
    kinds.add(result.passage.location.kind);
  }
  assert.deepEqual([...kinds].sort(), ['blocks', 'lines', 'pages'], 'Markdown and text by lines, the PDF by pages, the DOCX by paragraphs');
});

test('query-rank-v1 stays selectable and fuses the same retrieval', async () => {
  const v1 = await search('Example Ltd', { rankVersion: 'query-rank-v1' });
  assert.equal(v1.rank_version, 'query-rank-v1');
  assert.equal(v1.results[0]!.query_relevance, 1);
});

test('expanded results are labelled, never through a rejected relationship, and confirmed-only expands through confirmed ones alone', async () => {
  const check = (response: SearchResponse, confirmedOnly: boolean) => {
    for (const result of response.results.filter((r) => r.expanded_via)) {
      assert.match(result.why_matched[0]!, /^Not a direct match\. Reached because this item [a-z ]+ a matching item — strength \d\.\d\d \(.+\)\.$/);
      assert.notEqual(result.expanded_via!.status, 'rejected');
      if (confirmedOnly) assert.equal(result.expanded_via!.status, 'confirmed');
      assert.ok(result.expanded_via!.score >= 0.45);
    }
  };
  for (const query of ['forklift collision', 'GC-2 refurbishment cost', 'sprinkler coupling']) {
    check(await search(query), false);
    check(await search(query, { confirmedOnly: true }), true);
  }
});

test('without vectors, search works by words and says the vector path was unavailable and why', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'crane.md': '# Crane inspection\n\nThe gantry crane was inspected on Monday.\n' });
  const lexical = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: WORKSPACE, embedding: { kind: 'none' } });
  t.after(() => lexical.close());
  await lexical.index();
  const response = await searchWorkspace(lexical.store, demo.embedder, 'crane inspection');
  assert.equal(response.results[0]?.path, 'crane.md');
  assert.equal(response.results[0]!.semantic_similarity, null);
  assert.equal(response.unavailable_paths.length, 1);
  assert.equal(response.unavailable_paths[0]!.path, 'vector');
  assert.match(response.unavailable_paths[0]!.reason, /no passage has a vector from use-lite@0\.2\.0 yet/);
  assert.match(response.results[0]!.why_matched.join(' '), /title contains "crane inspection"/);
});

test('the query is handed to the model before the word paths read the store, so its embedding overlaps them', async () => {
  const events: string[] = [];
  const wordPaths = new Set(['searchItemsLexical', 'searchChunksLexical', 'entityMentions', 'searchTitles']);
  let allWordPathsAsked = () => {};
  const wordPathsAsked = new Promise<void>((resolve) => (allWordPathsAsked = resolve));
  // The real model and the real store, each watched: what each call is, in the order made. The
  // model's answer is handed over once every word path has been asked (or after a minute, which
  // only a search that waits for the embedding before asking them would take): how fast the
  // model's thread answers on a busy machine decides nothing here.
  const watched: Embedder = {
    descriptor: demo.embedder.descriptor,
    countTokens: (text) => demo.embedder.countTokens(text),
    close: async () => {},
    embed: async (texts) => {
      events.push('embed started');
      const vectors = await demo.embedder.embed(texts);
      await Promise.race([wordPathsAsked, new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
      events.push('embed finished');
      return vectors;
    },
  };
  const store = new Proxy(demo.index.store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (wordPaths.has(name)) events.push(name);
        if ([...wordPaths].every((path) => events.includes(path))) allWordPathsAsked();
        return value.apply(target, args);
      };
    },
  });
  const response = await searchWorkspace(store, watched, 'cost of the gantry crane refurbishment', { limit: 5 });
  // Had the search waited for the query's vector before the word paths, they would come after it.
  assert.equal(events[0], 'embed started', events.join(', '));
  assert.equal(events.at(-1), 'embed finished', events.join(', '));
  // The spelling check asks the item index about each word too, also while the query is embedded.
  assert.deepEqual([...new Set(events.slice(1, -1))].sort(), [...wordPaths].sort(), 'every word path ran while the query was being embedded');
  assert.deepEqual(response, await search('cost of the gantry crane refurbishment', { limit: 5 }), 'the same answer as a search with the model itself');
});

test('a query the model cannot embed is answered by the other paths, the vector path named first as unavailable', async () => {
  // Stands for a model thread that failed: the real model is not made to fail here.
  const failing: Embedder = { descriptor: demo.embedder.descriptor, embed: async () => Promise.reject(new Error('the model thread stopped')), countTokens: () => 0, close: async () => {} };
  const response = await searchWorkspace(demo.index.store, failing, 'sprinkler leak in Bay 4', { limit: 5 });
  assert.deepEqual(response.unavailable_paths, [{ path: 'vector', reason: 'the query could not be embedded: the model thread stopped' }]);
  assert.ok(response.results.length > 0, 'the word paths still answer');
  assert.ok(response.results.every((result) => result.contributions.vector === undefined && result.semantic_similarity === null));
});

test('a search cancelled while its query is being embedded stops there, before fusion and passages', async () => {
  const cancel = new AbortController();
  const asked: string[] = [];
  // The real model and store; the editor's $/cancelRequest arrives while the model works.
  const cancelling: Embedder = {
    descriptor: demo.embedder.descriptor,
    countTokens: (text) => demo.embedder.countTokens(text),
    close: async () => {},
    embed: (texts) => {
      cancel.abort();
      return demo.embedder.embed(texts);
    },
  };
  const store = new Proxy(demo.index.store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || typeof value !== 'function') return value;
      return (...args: unknown[]) => (asked.push(name), value.apply(target, args));
    },
  });
  await assert.rejects(searchWorkspace(store, cancelling, 'sprinkler leak in Bay 4', { signal: cancel.signal }), { name: 'AbortError' });
  for (const later of ['searchItemInfo', 'relationshipsTouching', 'getChunks']) assert.ok(!asked.includes(later), `${later} was not asked: ${asked.join(', ')}`);
});

test('relata search prints one JSON object with --json and a readable list without it', { skip: needsBuild }, () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, [CLI, 'search', ...args, '--data', demo.dataDir], { encoding: 'utf8', env: { ...process.env, RELATA_WORKSPACE: WORKSPACE } });
  const json = run(['Example Ltd', '--limit', '3', '--json']);
  assert.equal(json.status, 0, json.stderr);
  const response = JSON.parse(json.stdout);
  assert.deepEqual(Object.keys(response), ['rank_version', 'query', 'results', 'unavailable_paths']);
  assert.equal(response.query, 'Example Ltd');
  assert.equal(response.results.length, 3);
  assert.deepEqual(Object.keys(response.results[0]), [
    'item_id', 'title', 'path', 'query_relevance', 'semantic_similarity', 'why_matched', 'contributions', 'expanded_via', 'passage', 'matched',
  ]);
  assert.ok(response.results[0].matched.names.some((name: string) => /Example Ltd/.test(name)), 'what matched is named');
  const text = run(['Example Ltd', '--limit', '3', '--rank-version', 'v1']);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /\(query-rank-v1\)/);
  assert.match(text.stdout, /relevance 1\.00 \(relative to this result set\) · similarity 0\.\d\d/);
  assert.match(text.stdout, /Example Ltd\.? \(organisation\)/);
  assert.equal(run(['Example Ltd', '--limit', '0']).status, 2, 'a bad limit is a usage error');
});
