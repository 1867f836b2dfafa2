// One vector graph per language server process (store/sqlite/sharedGraph.ts), with real SQLite
// files, a real worker thread and real HNSW graphs: connections that ask it find what an exact
// search finds and build no graph of their own; the graph is saved by its thread on a store that
// no writer saved one for; and once its thread has stopped, each connection looks up on its own.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { SharedGraph } from '../../server/src/store/sqlite/sharedGraph.ts';
import type { VectorIndexSettings, VectorLookupPath } from '../../server/src/store/sqlite/vectorIndex.ts';
import { addClustered, assertSameHits, MODEL } from '../support/storedVectors.ts';

/** Always a graph, caught up before answering, so that answers do not depend on timing. */
const APPROXIMATE: Partial<VectorIndexSettings> = { exactBelow: 0, inlineCatchUp: 1_000_000 };
const EXACT: Partial<VectorIndexSettings> = { exactBelow: 1_000_000_000 };

function savedGraphFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'vector-index');
  return existsSync(root) ? readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.hnsw')) : [];
}

/** alice's 600 clustered windows, written and closed by a writer that never looked one up; two queries and their exact hits. */
async function storedWindows(t: TestContext) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-shared-graph-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const writer = openSqliteStore({ dataDir, workspace: 'alice' });
  const data = await addClustered(writer, 600, MODEL.dims, 7);
  await writer.close();
  const queries = [data.query(), data.query()];
  const exact = openSqliteStore({ dataDir, workspace: 'alice', access: 'read', vectorIndex: EXACT });
  const expected = await exact.searchVectorsMany(MODEL.id, queries, 10);
  await exact.close();
  return { dataDir, queries, expected };
}

/** A connection as the language server opens them, asking the shared graph, telling when it looks up on its own. */
function connection(dataDir: string, graph: SharedGraph, kind: 'search' | 'discovery') {
  const ownLookups: VectorLookupPath[] = [];
  const store = openSqliteStore({
    dataDir,
    workspace: 'alice',
    access: kind === 'search' ? 'read' : 'write',
    exactWhileCatchingUp: kind === 'discovery',
    holdVectors: false,
    sharedGraph: graph.connect(),
    vectorIndex: { ...APPROXIMATE, onLookup: (way) => ownLookups.push(way) },
  });
  return { store, ownLookups };
}

test('connections asking the shared graph find what an exact search finds and build no graph of their own; its thread saves the graph', async (t) => {
  const { dataDir, queries, expected } = await storedWindows(t);
  const graph = new SharedGraph({ location: { backend: 'sqlite', dataDir }, workspace: 'alice', settings: APPROXIMATE });
  const search = connection(dataDir, graph, 'search');
  const discovery = connection(dataDir, graph, 'discovery');

  assert.equal(await search.store.vectorLookupReady(MODEL.id), true);
  assertSameHits(await search.store.searchVectorsMany(MODEL.id, queries, 10), expected);
  assertSameHits(await discovery.store.searchVectorsMany(MODEL.id, queries, 10), expected);
  // Both at once, as two threads ask: each gets its own answer.
  const [fromSearch, fromDiscovery] = await Promise.all([
    search.store.searchVectorsMany(MODEL.id, queries, 10),
    discovery.store.searchVectorsMany(MODEL.id, [queries[1]!], 10),
  ]);
  assertSameHits(fromSearch, expected);
  assertSameHits(fromDiscovery, [expected[1]!]);
  assert.deepEqual(search.ownLookups, [], 'the search connection looked nothing up on its own');
  assert.deepEqual(discovery.ownLookups, [], 'the discovery connection looked nothing up on its own');
  await assert.rejects(search.store.searchVectors(MODEL.id, new Float32Array(MODEL.dims + 1), 5), /dimensions/);

  await search.store.close();
  await discovery.store.close();
  assert.deepEqual(savedGraphFiles(dataDir), [], 'nothing saved while the thread runs: 600 windows are fewer than a save waits for');
  await graph.close();
  assert.equal(savedGraphFiles(dataDir).length, 1, "the graph's thread saved its graph as it closed");

  // The next process's shared graph loads that file: its answers are the same.
  const next = new SharedGraph({ location: { backend: 'sqlite', dataDir }, workspace: 'alice', settings: APPROXIMATE });
  const again = connection(dataDir, next, 'search');
  assertSameHits(await again.store.searchVectorsMany(MODEL.id, queries, 10), expected);
  await again.store.close();
  await next.close();
});

test("once the shared graph's thread has stopped, a connection looks vectors up on its own and answers the same", async (t) => {
  const { dataDir, queries, expected } = await storedWindows(t);
  const graph = new SharedGraph({ location: { backend: 'sqlite', dataDir }, workspace: 'alice', settings: APPROXIMATE });
  const search = connection(dataDir, graph, 'search');
  t.after(() => search.store.close());
  assertSameHits(await search.store.searchVectorsMany(MODEL.id, queries, 10), expected);
  assert.deepEqual(search.ownLookups, []);

  await graph.close();
  assertSameHits(await search.store.searchVectorsMany(MODEL.id, queries, 10), expected);
  assert.deepEqual(search.ownLookups, ['graph'], 'answered by a graph of its own');
  assert.equal(await search.store.vectorLookupReady(MODEL.id), true);

  // A connection made after the graph closed is never left waiting for it.
  const late = connection(dataDir, graph, 'discovery');
  t.after(() => late.store.close());
  assertSameHits(await late.store.searchVectorsMany(MODEL.id, queries, 10), expected);
  assert.deepEqual(late.ownLookups, ['graph']);
});
