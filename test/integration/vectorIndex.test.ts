// Approximate vector search (store/sqlite/vectorIndex.ts) against the exact search it stands in for,
// with real SQLite files and real HNSW graphs: what one store writes, another store on the same
// file finds; a damaged saved graph is rebuilt; workspaces and models never see each other's vectors.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Embedder, ModelDescriptor } from '../../server/src/embed/types.ts';
import { vectorPath } from '../../server/src/ranking/vectorPath.ts';
import type { VectorHit, WorkspaceStore } from '../../server/src/store/contract.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import type { VectorIndexSettings, VectorLookupPath } from '../../server/src/store/sqlite/vectorIndex.ts';
import { addClustered, addDocument, assertSameHits, ids, MODEL } from '../support/storedVectors.ts';
import { seededRandom } from '../support/generateCorpus.ts';

const OTHER_MODEL: ModelDescriptor = { id: 'model-b', dims: 32, version: '1', maxTokens: 128 };

/** Always approximate, and never deferred to the background, so results do not depend on timing. */
const APPROXIMATE: Partial<VectorIndexSettings> = { exactBelow: 0, inlineCatchUp: 1_000_000 };
/**
 * Removed vectors are never returned (hits are read back from SQLite), but a graph that still held
 * them would spend its candidates on them. With as few candidates as hits, a search near removed
 * vectors comes back short unless the graph dropped them.
 */
const NO_SPARE_CANDIDATES: Partial<VectorIndexSettings> = { ...APPROXIMATE, efSearch: 10 };
const EXACT: Partial<VectorIndexSettings> = { exactBelow: 1_000_000_000 };

interface Stores {
  dataDir: string;
  open(workspace: string, settings: Partial<VectorIndexSettings>, holdVectors?: boolean): { store: WorkspaceStore; log: string[] };
}

/** A data folder whose stores are closed (saving their graphs) before the folder is removed. */
function dataFolder(t: TestContext): Stores {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-vector-index-'));
  const open: WorkspaceStore[] = [];
  t.after(async () => {
    for (const store of open) await store.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    open(workspace, settings, holdVectors) {
      const log: string[] = [];
      const store = openSqliteStore({ dataDir, workspace, holdVectors, vectorIndex: { ...settings, log: (message) => log.push(message) } });
      open.push(store);
      return { store, log };
    },
  };
}

/** A unit vector far from everything clustered: its own direction, with a little of a second one. */
function distinct(dims: number, axis: number, tilt = 0): Float32Array {
  const vector = new Float32Array(dims);
  vector[axis] = 1;
  vector[(axis + 1) % dims] = tilt;
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += a[i]! * b[i]!;
  return dot / (Math.hypot(...a) * Math.hypot(...b));
};

/**
 * Two stores reading alice's vectors with the same settings: one as a search thread opens it (a
 * graph that is catching up answers), one as discovery's (exact while it catches up), each
 * recording how its look-ups were answered.
 */
function searchAndDiscoveryReaders(t: TestContext, dataDir: string, settings: Partial<VectorIndexSettings>) {
  const lookups = { search: [] as VectorLookupPath[], discovery: [] as VectorLookupPath[] };
  const reader = (kind: keyof typeof lookups, exactWhileCatchingUp: boolean) => {
    const store = openSqliteStore({ dataDir, workspace: 'alice', access: 'read', exactWhileCatchingUp, vectorIndex: { ...settings, onLookup: (way) => lookups[kind].push(way) } });
    t.after(() => store.close());
    return store;
  };
  return { search: reader('search', false), discovery: reader('discovery', true), lookups };
}

/** alice's 600 clustered windows with their graph saved, two queries, and their exact hits. */
async function savedGraphOfClustered(t: TestContext, seed: number) {
  const stores = dataFolder(t);
  const writer = stores.open('alice', APPROXIMATE).store;
  const data = await addClustered(writer, 600, MODEL.dims, seed);
  const queries = [data.query(), data.query()];
  const expected = await stores.open('alice', EXACT).store.searchVectorsMany(MODEL.id, queries, 10);
  const builder = stores.open('alice', APPROXIMATE).store;
  await builder.searchVectors(MODEL.id, queries[0]!, 1);
  await builder.close();
  return { stores, queries, expected };
}

/** One byte in the middle of the saved graph's file flipped: its checksum no longer matches. */
function damageSavedGraph(dataDir: string): void {
  const graphPath = path.join(dataDir, 'vector-index', indexFiles(dataDir).find((name) => name.endsWith('.hnsw'))!);
  const bytes = readFileSync(graphPath);
  const middle = bytes.length >> 1;
  bytes[middle] = bytes[middle]! ^ 0xff;
  writeFileSync(graphPath, bytes);
}

function indexFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'vector-index');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => /\.(json|hnsw)$/.test(name));
}

test('approximate search returns what exact search returns on clustered vectors, with exact similarities', async (t) => {
  const stores = dataFolder(t);
  const approximate = stores.open('alice', { ...APPROXIMATE });
  const exact = stores.open('alice', EXACT);
  const dims = 64;
  const data = await addClustered(approximate.store, 4_000, dims, 11, { ...MODEL, dims });
  let found = 0;
  const queries = Array.from({ length: 40 }, () => data.query());
  for (const query of queries) {
    const truth = await exact.store.searchVectors(MODEL.id, query, 20);
    const hits = await approximate.store.searchVectors(MODEL.id, query, 20);
    assert.equal(hits.length, 20);
    const expected = new Map(truth.map((hit) => [hit.chunkId, hit.similarity]));
    found += hits.filter((hit) => expected.has(hit.chunkId)).length;
    for (let i = 1; i < hits.length; i += 1) assert.ok(hits[i - 1]!.similarity >= hits[i]!.similarity, 'best first');
    for (const hit of hits) {
      assert.ok(Math.abs(hit.similarity - cosine(query, data.byChunk.get(hit.chunkId)!)) < 1e-6, 'the true cosine');
      if (expected.has(hit.chunkId)) assert.ok(Math.abs(hit.similarity - expected.get(hit.chunkId)!) < 1e-6, 'both paths agree');
    }
  }
  // Measured 1.0 with the default graph settings; the bound leaves room for a different build order.
  assert.ok(found / (20 * queries.length) >= 0.95, `recall@20 ${found / (20 * queries.length)}`);
});

test('with every window a candidate, the graph path returns exactly what exact search returns, before and after removals, additions and a restart', async (t) => {
  const stores = dataFolder(t);
  // A graph search this deep visits every window, so any difference would be the re-scoring's.
  const everyWindow: Partial<VectorIndexSettings> = { ...APPROXIMATE, efSearch: 1_000_000 };
  const writer = stores.open('alice', APPROXIMATE).store;
  const exact = stores.open('alice', EXACT).store;
  const data = await addClustered(writer, 1_500, MODEL.dims, 43);
  const queries = Array.from({ length: 12 }, () => data.query());
  const sameAsExact = async (store: WorkspaceStore, stage: string) => {
    for (const k of [10, 300]) {
      // Same windows, same order, and bit for bit the same similarities: both read the stored vectors.
      assert.deepEqual(await store.searchVectorsMany(MODEL.id, queries, k), await exact.searchVectorsMany(MODEL.id, queries, k), `${stage}, k = ${k}`);
    }
  };
  const approximate = stores.open('alice', everyWindow).store;
  await sameAsExact(approximate, 'graph built in this process');
  // Discovery's threads keep no copy of the vectors beside the graph and re-score from the database.
  const unheld = stores.open('alice', everyWindow, false).store;
  await sameAsExact(unheld, 'graph built in this process, vectors not held');

  const doomed = data.documentOf[0]!;
  await writer.tombstone(`${MODEL.id}-s43-doc-${doomed}.md`);
  await addDocument(writer, 'newcomer', [data.query(), data.query(), data.query()]);
  await sameAsExact(approximate, 'after a removal and an addition');
  await sameAsExact(unheld, 'after a removal and an addition, vectors not held');
  await approximate.close();
  await unheld.close();

  const restarted = stores.open('alice', everyWindow);
  await sameAsExact(restarted.store, 'graph loaded from its file, vectors read on first use');
  await sameAsExact(restarted.store, 'graph loaded from its file, vectors held since');
  assert.deepEqual(restarted.log, [], 'the saved graph was used, nothing rebuilt');
  const restartedUnheld = stores.open('alice', everyWindow, false);
  await sameAsExact(restartedUnheld.store, 'graph loaded from its file, vectors not held');
  assert.deepEqual(restartedUnheld.log, []);

  const readAhead = stores.open('alice', everyWindow);
  await readAhead.store.searchVectors(MODEL.id, queries[0]!, 1);
  // The loaded graph's vectors are read in the background, between turns of the event loop, at
  // least 64 a turn: 100 turns hold all ~1,500 however slow the machine.
  for (let turn = 0; turn < 100; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  await sameAsExact(readAhead.store, 'graph loaded from its file, vectors read ahead');
  assert.deepEqual(readAhead.log, []);
});

test('a batch of queries answers each query as a single search would', async (t) => {
  const stores = dataFolder(t);
  const { store } = stores.open('alice', APPROXIMATE);
  const data = await addClustered(store, 600, MODEL.dims, 3);
  const queries = [data.query(), data.query(), data.query()];
  const batch = await store.searchVectorsMany(MODEL.id, queries, 7);
  const single = await Promise.all(queries.map((query) => store.searchVectors(MODEL.id, query, 7)));
  assert.deepEqual(batch, single);
  assert.deepEqual(await store.searchVectorsMany(MODEL.id, [], 7), []);
});

test('vectors added, replaced and removed through one store are found, or not, by another store on the same file', async (t) => {
  const stores = dataFolder(t);
  const writer = stores.open('alice', APPROXIMATE).store;
  const reader = stores.open('alice', NO_SPARE_CANDIDATES).store;
  await addClustered(writer, 600, MODEL.dims, 5);
  const probe = distinct(MODEL.dims, 3);
  assert.notEqual(ids(await reader.searchVectors(MODEL.id, probe, 1))[0], 'alice-fresh-0', 'the graph is built before the change');

  const itemId = await addDocument(writer, 'fresh', [distinct(MODEL.dims, 3, 0.05)]);
  const [added] = await reader.searchVectors(MODEL.id, probe, 1);
  assert.equal(added?.chunkId, 'alice-fresh-0');
  assert.ok(Math.abs(added!.similarity - cosine(probe, distinct(MODEL.dims, 3, 0.05))) < 1e-6);

  // Same chunk, new vector: the old one is gone from the reader's results, the new one is there.
  const hash = Buffer.from('fresh').toString('hex').padEnd(64, '0').slice(0, 64);
  const moved = distinct(MODEL.dims, 9, 0.05);
  await writer.storeVectors(itemId, hash, MODEL, [{ chunkId: 'alice-fresh-0', window: 0, start: 0, end: 1, vector: moved }]);
  assert.notEqual((await reader.searchVectors(MODEL.id, probe, 1))[0]?.chunkId, 'alice-fresh-0');
  assert.equal((await reader.searchVectors(MODEL.id, distinct(MODEL.dims, 9), 1))[0]?.chunkId, 'alice-fresh-0');

  await addDocument(writer, 'crowd', Array.from({ length: 30 }, (_, n) => distinct(MODEL.dims, 12, 0.01 * n)));
  assert.ok(ids(await reader.searchVectors(MODEL.id, distinct(MODEL.dims, 12), 10)).every((id) => id.startsWith('alice-crowd-')));
  await writer.tombstone('crowd.md');
  await writer.tombstone('fresh.md');
  const after = await reader.searchVectors(MODEL.id, distinct(MODEL.dims, 12), 10);
  assert.equal(after.length, 10, 'the removed windows left the graph');
  assert.ok(!ids(after).some((id) => id.startsWith('alice-crowd-')));
  assert.ok(!ids(await reader.searchVectors(MODEL.id, distinct(MODEL.dims, 9), 50)).includes('alice-fresh-0'));
});

test('a restarted store loads the saved graph and catches up with what changed meanwhile', async (t) => {
  const stores = dataFolder(t);
  const writer = stores.open('alice', APPROXIMATE).store;
  await addClustered(writer, 600, MODEL.dims, 7);
  const first = stores.open('alice', APPROXIMATE);
  await first.store.searchVectors(MODEL.id, distinct(MODEL.dims, 1), 5);
  assert.match(first.log.join('\n'), /no saved index; building it from the store/);
  await first.store.close();
  assert.equal(indexFiles(stores.dataDir).length, 2, 'a graph and its manifest');

  await addDocument(writer, 'later', [distinct(MODEL.dims, 4, 0.05)]);
  const second = stores.open('alice', APPROXIMATE);
  assert.equal((await second.store.searchVectors(MODEL.id, distinct(MODEL.dims, 4), 1))[0]?.chunkId, 'alice-later-0');
  assert.deepEqual(second.log, [], 'the saved graph was used, nothing rebuilt');
});

test('a damaged or missing saved graph is rebuilt from the store and reported once', async (t) => {
  const { stores, queries, expected } = await savedGraphOfClustered(t, 9);
  damageSavedGraph(stores.dataDir);
  const afterCorruption = stores.open('alice', APPROXIMATE);
  assertSameHits(await afterCorruption.store.searchVectorsMany(MODEL.id, queries, 10), expected);
  await afterCorruption.store.searchVectorsMany(MODEL.id, queries, 10);
  assert.equal(afterCorruption.log.length, 1);
  assert.match(afterCorruption.log[0]!, /does not match its checksum; building it from the store/);
  await afterCorruption.store.close();

  for (const name of indexFiles(stores.dataDir)) if (name.endsWith('.hnsw')) rmSync(path.join(stores.dataDir, 'vector-index', name));
  const afterDeletion = stores.open('alice', APPROXIMATE);
  assertSameHits(await afterDeletion.store.searchVectorsMany(MODEL.id, queries, 10), expected);
  assert.equal(afterDeletion.log.length, 1);
  assert.match(afterDeletion.log[0]!, /could not be read/);
});

test('a graph older than the pruned removal log is reconciled with the stored vectors', async (t) => {
  const stores = dataFolder(t);
  const writer = stores.open('alice', APPROXIMATE).store;
  await addClustered(writer, 600, MODEL.dims, 13);
  await addDocument(writer, 'doomed', Array.from({ length: 30 }, (_, n) => distinct(MODEL.dims, 6, 0.01 * n)));
  const behind = stores.open('alice', NO_SPARE_CANDIDATES).store;
  assert.equal((await behind.searchVectors(MODEL.id, distinct(MODEL.dims, 6), 1))[0]?.chunkId, 'alice-doomed-0');

  await writer.tombstone('doomed.md');
  // Another store catches up and saves, pruning the removal log the first one has not read yet.
  const saver = stores.open('alice', APPROXIMATE).store;
  await saver.searchVectors(MODEL.id, distinct(MODEL.dims, 6), 1);
  await saver.close();
  const after = await behind.searchVectors(MODEL.id, distinct(MODEL.dims, 6), 10);
  assert.equal(after.length, 10, 'the removed windows left the graph');
  assert.ok(!ids(after).some((id) => id.startsWith('alice-doomed-')));
});

test('two workspaces in one file never see each other\'s vectors, and keep separate graphs', async (t) => {
  const stores = dataFolder(t);
  const alice = stores.open('alice', APPROXIMATE).store;
  const bob = stores.open('bob', APPROXIMATE).store;
  await addClustered(alice, 400, MODEL.dims, 17);
  await bob.registerModel(MODEL);
  assert.deepEqual(await bob.searchVectors(MODEL.id, distinct(MODEL.dims, 2), 10), [], 'bob has no vectors');
  await addClustered(bob, 400, MODEL.dims, 19);
  const random = seededRandom(23);
  for (let n = 0; n < 10; n += 1) {
    const query = Float32Array.from({ length: MODEL.dims }, () => random() - 0.5);
    assert.ok((await alice.searchVectors(MODEL.id, query, 50)).every((hit) => hit.chunkId.startsWith('alice-')));
    assert.ok((await bob.searchVectors(MODEL.id, query, 50)).every((hit) => hit.chunkId.startsWith('bob-')));
  }
  await alice.close();
  await bob.close();
  const folders = new Set(indexFiles(stores.dataDir).map((name) => path.dirname(name)));
  assert.equal(folders.size, 2, 'one graph folder per workspace');
});

test('a search uses one model\'s vectors only, even when another model has the same dimensions', async (t) => {
  const stores = dataFolder(t);
  const { store } = stores.open('alice', APPROXIMATE);
  await addClustered(store, 300, MODEL.dims, 29, MODEL);
  await addClustered(store, 300, MODEL.dims, 31, OTHER_MODEL);
  const random = seededRandom(37);
  for (let n = 0; n < 10; n += 1) {
    const query = Float32Array.from({ length: MODEL.dims }, () => random() - 0.5);
    const hits = await store.searchVectors(MODEL.id, query, 30);
    assert.equal(hits.length, 30);
    assert.ok(hits.every((hit) => hit.chunkId.startsWith('alice-model-a-')));
    assert.ok((await store.searchVectors(OTHER_MODEL.id, query, 30)).every((hit) => hit.chunkId.startsWith('alice-model-b-')));
  }
});

test('a small workspace is searched exactly and leaves no graph behind', async (t) => {
  const stores = dataFolder(t);
  const { store, log } = stores.open('alice', {});
  await addClustered(store, 300, MODEL.dims, 41);
  const hits = await store.searchVectors(MODEL.id, distinct(MODEL.dims, 0), 5);
  assert.equal(hits.length, 5);
  await store.close();
  assert.deepEqual(indexFiles(stores.dataDir), []);
  assert.deepEqual(log, []);
});

test('while its graph catches up, a search store answers from the graph and the newer vectors, and a discovery store once the graph caught up: both the exact hits', async (t) => {
  const stores = dataFolder(t);
  const writer = stores.open('alice', APPROXIMATE).store;
  await addClustered(writer, 400, MODEL.dims, 13);
  // Catch-up slices of one batch of insertions each, so that a catch-up lasts many turns of the event loop.
  const slow: Partial<VectorIndexSettings> = { exactBelow: 0, inlineCatchUp: 0, exactTail: 10_000, sliceMs: 0 };
  const { search, discovery, lookups } = searchAndDiscoveryReaders(t, stores.dataDir, slow);
  const exact = stores.open('alice', EXACT).store;
  const probes = [distinct(MODEL.dims, 6), distinct(MODEL.dims, 7), distinct(MODEL.dims, 20, 0.3)];
  const expected = await exact.searchVectorsMany(MODEL.id, probes, 8);

  // The first look-up finds the graph empty and starts its catch-up; the next one comes while it runs.
  assertSameHits(await search.searchVectorsMany(MODEL.id, probes, 8), expected);
  assertSameHits(await search.searchVectorsMany(MODEL.id, probes, 8), expected);
  assert.deepEqual(lookups.search, ['graph', 'graph']);

  // Discovery's store waits for its own graph's catch-up, however many turns that takes, and answers
  // from the graph holding every window: never the exact search of every vector it made meanwhile.
  let turnsWaited = 0;
  let answered = false;
  const fromDiscovery = discovery.searchVectorsMany(MODEL.id, probes, 8).finally(() => (answered = true));
  while (!answered) {
    turnsWaited += 1;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assertSameHits(await fromDiscovery, expected);
  assert.ok(turnsWaited > 10, `the catch-up took many turns of the event loop (${turnsWaited})`);
  assertSameHits(await discovery.searchVectorsMany(MODEL.id, probes, 8), expected);
  assert.deepEqual(lookups.discovery, ['graph', 'graph']);
});

test('a store opened to read saves the graph it caught up, to its file only, and the next store loads it', async (t) => {
  const stores = dataFolder(t);
  const writer = stores.open('alice', APPROXIMATE).store;
  const exact = stores.open('alice', EXACT).store;
  const data = await addClustered(writer, 400, MODEL.dims, 17);
  await writer.searchVectors(MODEL.id, data.query(), 5);
  await writer.close(); // saves the graph, recording its generation
  const more = stores.open('alice', EXACT).store;
  await addClustered(more, 5_000, MODEL.dims, 19);
  const manifestFile = () => indexFiles(stores.dataDir).find((name) => name.endsWith('.json'))!;
  const covered = () => (JSON.parse(readFileSync(path.join(stores.dataDir, 'vector-index', manifestFile()), 'utf8')) as { vectorSeq: number }).vectorSeq;
  const savedByWriter = covered();

  // A search thread's store: it loads the writer's graph, catches up 5,000 windows in the
  // background, then saves without writing to the database (opened to read, a write would fail).
  const readerLog: string[] = [];
  const reader = openSqliteStore({
    dataDir: stores.dataDir,
    workspace: 'alice',
    access: 'read',
    saveGraphsWhenReading: true,
    vectorIndex: { exactBelow: 0, inlineCatchUp: 0, exactTail: 100_000, log: (line) => readerLog.push(line) },
  });
  t.after(() => reader.close());
  const queries = Array.from({ length: 6 }, () => data.query());
  assertSameHits(await reader.searchVectorsMany(MODEL.id, queries, 8), await exact.searchVectorsMany(MODEL.id, queries, 8));
  for (let waited = 0; covered() === savedByWriter && waited < 120_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(covered() >= savedByWriter + 5_000, `the manifest covers the reader's catch-up (${savedByWriter} → ${covered()})`);
  assert.deepEqual(readerLog, []);
  assert.equal(indexFiles(stores.dataDir).filter((name) => name.endsWith('.hnsw')).length, 1, 'the file it replaced is gone');

  // The next store loads the reader's file: nothing left to catch up, the exact hits.
  const lookups: VectorLookupPath[] = [];
  const next = openSqliteStore({ dataDir: stores.dataDir, workspace: 'alice', access: 'read', vectorIndex: { exactBelow: 0, inlineCatchUp: 0, exactTail: 0, onLookup: (way) => lookups.push(way) } });
  t.after(() => next.close());
  assertSameHits(await next.searchVectorsMany(MODEL.id, queries, 8), await exact.searchVectorsMany(MODEL.id, queries, 8));
  assert.deepEqual(lookups, ['graph'], 'with no tail allowed, only a graph already caught up answers from the graph');
});

test('a catch-up that ends saves its graph once saveAfterAtMost windows are unsaved, though they are less than a quarter of it', async (t) => {
  const stores = dataFolder(t);
  const writer = stores.open('alice', APPROXIMATE).store;
  await addClustered(writer, 1_600, MODEL.dims, 31);
  await writer.searchVectors(MODEL.id, distinct(MODEL.dims, 3), 1);
  await writer.close(); // saves the graph of 1,600 windows
  const manifest = () => indexFiles(stores.dataDir).find((name) => name.endsWith('.json'))!;
  const covered = () => (JSON.parse(readFileSync(path.join(stores.dataDir, 'vector-index', manifest()), 'utf8')) as { vectorSeq: number }).vectorSeq;
  const saved = covered();
  await addClustered(stores.open('alice', EXACT).store, 400, MODEL.dims, 37);

  // 400 windows caught up, a fifth of the graph: a quarter is 500.
  const catchUp = async (saveAfterAtMost: number) => {
    const reader = openSqliteStore({
      dataDir: stores.dataDir,
      workspace: 'alice',
      access: 'read',
      saveGraphsWhenReading: true,
      vectorIndex: { exactBelow: 0, inlineCatchUp: 0, exactTail: 100_000, saveAfter: 100, saveAfterAtMost },
    });
    t.after(() => reader.close());
    // A discovery look-up waits for the catch-up, and the catch-up for its save.
    await reader.lookUpVectors(MODEL.id, [distinct(MODEL.dims, 3)], 1, true);
  };
  await catchUp(1_000);
  assert.equal(covered(), saved, 'under a quarter of the graph and under the cap: not saved');
  await catchUp(300);
  assert.ok(covered() >= saved + 400, `over the cap: saved (${saved} → ${covered()})`);
});

test('far behind its vectors, a search store answers from its graph and the oldest newer ones; a discovery store waits for the catch-up and finds every one', async (t) => {
  const stores = dataFolder(t);
  const writer = stores.open('alice', APPROXIMATE).store;
  await addClustered(writer, 400, MODEL.dims, 29);
  await writer.searchVectors(MODEL.id, distinct(MODEL.dims, 2), 1);
  await writer.close(); // saves the graph
  const more = stores.open('alice', EXACT).store;
  await addDocument(more, 'crowd', Array.from({ length: 20 }, (_, n) => distinct(MODEL.dims, 6, 0.02 * n)));
  await addDocument(more, 'late', Array.from({ length: 20 }, (_, n) => distinct(MODEL.dims, 7, 0.02 * n)));
  const nearCrowd = distinct(MODEL.dims, 6, 0.1);
  const nearLate = distinct(MODEL.dims, 7, 0.1);
  const exactHits = async (probe: Float32Array) => more.searchVectors(MODEL.id, probe, 8);

  // 40 windows newer than the saved graph, 20 compared exactly at most.
  const behind: Partial<VectorIndexSettings> = { exactBelow: 0, inlineCatchUp: 0, exactTail: 20, sliceMs: 0 };
  const { search, discovery, lookups } = searchAndDiscoveryReaders(t, stores.dataDir, behind);

  assertSameHits([await search.searchVectors(MODEL.id, nearCrowd, 8)], [await exactHits(nearCrowd)]);
  const lateFromSearch = await search.searchVectors(MODEL.id, nearLate, 8);
  assert.ok(!ids(lateFromSearch).some((id) => id.startsWith('alice-late-')), 'the newest windows wait for the catch-up');
  assert.ok(lateFromSearch.length === 8, 'the graph still answers');
  assert.deepEqual(lookups.search, ['graph', 'graph']);
  // From the graph, which only holds the newest windows once its catch-up is done (20 are compared exactly at most).
  assertSameHits([await discovery.searchVectors(MODEL.id, nearLate, 8)], [await exactHits(nearLate)]);
  assert.deepEqual(lookups.discovery, ['graph']);

  // Once its catch-up reaches them, the search store finds them too.
  const expected = await exactHits(nearLate);
  let hits: VectorHit[] = [];
  for (let turns = 0; turns < 2_000; turns += 1) {
    hits = await search.searchVectors(MODEL.id, nearLate, 8);
    if (ids(hits).join() === ids(expected).join()) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assertSameHits([hits], [expected]);
});

test('vectors the graph does not hold yet are compared exactly while it catches up, found at once and the same as an exact search', async (t) => {
  const stores = dataFolder(t);
  const writer = stores.open('alice', APPROXIMATE).store;
  // The reader adds nothing inline, and its tail is long enough for everything: whatever the
  // background catch-up has added by the time of a search, the graph and the tail cover the rest.
  const reader = stores.open('alice', { exactBelow: 0, inlineCatchUp: 0, exactTail: 10_000 }).store;
  const exact = stores.open('alice', EXACT).store;
  await addClustered(writer, 400, MODEL.dims, 11);
  await reader.searchVectors(MODEL.id, distinct(MODEL.dims, 2), 1);

  const crowd = Array.from({ length: 20 }, (_, n) => distinct(MODEL.dims, 6, 0.02 * n));
  await addDocument(writer, 'crowd', crowd);
  const probes = [distinct(MODEL.dims, 6), distinct(MODEL.dims, 7), distinct(MODEL.dims, 20, 0.3)];
  for (const probe of probes) {
    assertSameHits([await reader.searchVectors(MODEL.id, probe, 8)], [await exact.searchVectors(MODEL.id, probe, 8)]);
  }
  // A tail vector removed before the graph caught up is never returned.
  await writer.tombstone('crowd.md');
  assert.ok(!ids(await reader.searchVectors(MODEL.id, distinct(MODEL.dims, 6), 20)).some((id) => id.startsWith('alice-crowd-')));
});

test('a store that reads its saved graph off the thread is not ready until the graph is in: searches answer without it, look-ups wait for it', async (t) => {
  const { stores, queries, expected } = await savedGraphOfClustered(t, 21);
  const opened = () => {
    const log: string[] = [];
    const lookups: VectorLookupPath[] = [];
    const store = openSqliteStore({
      dataDir: stores.dataDir, workspace: 'alice', access: 'read', loadGraphsInBackground: true,
      vectorIndex: { ...APPROXIMATE, log: (message) => log.push(message), onLookup: (way) => lookups.push(way) },
    });
    t.after(() => store.close());
    return { store, log, lookups };
  };

  const reader = opened();
  assert.equal(await reader.store.vectorLookupReady(MODEL.id), false, 'the saved graph is being read');
  // What a search does meanwhile: its vector path says why it is missing, and the others answer.
  // (The query's embedding stands in for the model's: the store is what is tested here.)
  const embedder: Embedder = {
    descriptor: MODEL, countTokens: () => 1, close: async () => {}, embed: async () => [queries[0]!],
  };
  const outcome = await vectorPath(reader.store, embedder, 'a query', 10);
  assert.equal(outcome.available, false);
  assert.match(outcome.available ? '' : outcome.reason, /index of the vectors is being read after a restart/);
  assert.deepEqual(reader.lookups, [], 'no look-up was made, exact or otherwise');
  // A look-up waits for the graph, and answers from it.
  assertSameHits(await reader.store.searchVectorsMany(MODEL.id, queries, 10), expected);
  assert.deepEqual(reader.lookups, ['graph']);
  assert.equal(await reader.store.vectorLookupReady(MODEL.id), true);
  assert.equal((await vectorPath(reader.store, embedder, 'a query', 10)).available, true);
  assert.deepEqual(reader.log, [], 'the saved graph was used, nothing rebuilt');

  // A damaged file is found by its checksum, read off the thread too, reported once and rebuilt.
  damageSavedGraph(stores.dataDir);
  const damaged = opened();
  assert.equal(await damaged.store.vectorLookupReady(MODEL.id), false);
  assertSameHits(await damaged.store.searchVectorsMany(MODEL.id, queries, 10), expected);
  assert.equal(damaged.log.length, 1);
  assert.match(damaged.log[0]!, /does not match its checksum; building it from the store/);
});
