// A vector graph whose windows are placed by their first principal components
// (store/sqlite/graphProjection.ts), with real SQLite files and real HNSW graphs: each hit is still
// a stored window with its exact cosine, a stored window finds itself first, the saved graph comes
// back with the components it was built on, and a graph saved before them, or with damaged ones,
// is rebuilt rather than read with the wrong ones. The vectors here have 32 dimensions and the
// graph 8 (the product: 512 and 128); how much recall the components cost on real windows is
// bench:graphProjection's to say, not this test's.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { VectorHit, WorkspaceStore } from '../../server/src/store/contract.ts';
import { MIN_FITTED } from '../../server/src/store/sqlite/graphProjection.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import type { VectorIndexSettings } from '../../server/src/store/sqlite/vectorIndex.ts';
import { addClustered, assertSameHits, MODEL } from '../support/storedVectors.ts';

/** Always the graph, never deferred to the background, on 8 components of 32. */
const ON_COMPONENTS: Partial<VectorIndexSettings> = { exactBelow: 0, inlineCatchUp: 1_000_000, graphDims: 8 };
const EVERY_DIMENSION: Partial<VectorIndexSettings> = { ...ON_COMPONENTS, graphDims: 0 };
const EXACT: Partial<VectorIndexSettings> = { exactBelow: 1_000_000_000 };

function dataFolder(t: TestContext) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-graph-projection-'));
  const opened: WorkspaceStore[] = [];
  t.after(async () => {
    for (const store of opened) await store.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    open(settings: Partial<VectorIndexSettings>) {
      const log: string[] = [];
      const store = openSqliteStore({ dataDir, workspace: 'alice', vectorIndex: { ...settings, log: (message) => log.push(message) } });
      opened.push(store);
      return { store, log };
    },
  };
}

/** The saved manifest and graph file of the one model. */
function savedGraph(dataDir: string) {
  const [workspaceDir] = readdirSync(path.join(dataDir, 'vector-index'));
  const directory = path.join(dataDir, 'vector-index', workspaceDir!);
  const manifestFile = path.join(directory, readdirSync(directory).find((name) => name.endsWith('.json'))!);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { format: number; file: string; projection: { dims: number; mean: string } | null };
  return { manifestFile, manifest, bytes: statSync(path.join(directory, manifest.file)).size };
}

const exactCosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += a[i]! * b[i]!;
  return dot / (Math.hypot(...a) * Math.hypot(...b));
};

function assertExactHits(hits: VectorHit[][], queries: Float32Array[], byChunk: Map<string, Float32Array>): void {
  hits.forEach((list, n) => {
    assert.equal(list.length, 10);
    for (const hit of list) assert.ok(Math.abs(hit.similarity - exactCosine(queries[n]!, byChunk.get(hit.chunkId)!)) < 1e-6, 'the exact cosine of a stored window');
    for (let i = 1; i < list.length; i += 1) assert.ok(list[i - 1]!.similarity >= list[i]!.similarity, 'best first');
  });
}

test('a graph on components: each stored window finds itself first, every hit carries its exact cosine, and the graph holds 8 floats a window, not 32', async (t) => {
  const folder = dataFolder(t);
  const { store, log } = folder.open(ON_COMPONENTS);
  const data = await addClustered(store, 2_000, MODEL.dims, 11);
  const stored = [...data.byChunk.entries()].filter((_, n) => n % 40 === 0);
  const queries = stored.map(([, vector]) => vector);
  const hits = await store.searchVectorsMany(MODEL.id, queries, 10);
  assertExactHits(hits, queries, data.byChunk);
  hits.forEach((list, n) => assert.equal(list[0]!.chunkId, stored[n]![0], 'a stored window is its own nearest'));
  assert.ok(log.some((line) => /placed by their first 8 of 32 components \(\d+\.\d% of the variance of 2000 windows/.test(line)), log.join('\n'));
  await store.close();
  const projected = savedGraph(folder.dataDir);
  assert.equal(projected.manifest.projection?.dims, 8);

  // The same windows in a graph of every dimension, for its size.
  const whole = dataFolder(t);
  const { store: wholeStore } = whole.open(EVERY_DIMENSION);
  await addClustered(wholeStore, 2_000, MODEL.dims, 11);
  await wholeStore.searchVectorsMany(MODEL.id, queries.slice(0, 1), 10);
  await wholeStore.close();
  const full = savedGraph(whole.dataDir);
  assert.equal(full.manifest.projection, null);
  // Per window, 8 × 4 bytes of point against 32 × 4, beside the same links and label.
  assert.equal(full.bytes - projected.bytes, 2_000 * (32 - 8) * 4, `${projected.bytes} bytes on components against ${full.bytes}`);
});

test('a saved graph comes back on the components it was built on and answers as it did; one saved without them, or with damaged ones, is rebuilt', async (t) => {
  const folder = dataFolder(t);
  const first = folder.open(ON_COMPONENTS);
  const data = await addClustered(first.store, 2_000, MODEL.dims, 12);
  const queries = [...data.byChunk.values()].filter((_, n) => n % 50 === 7);
  const before = await first.store.searchVectorsMany(MODEL.id, queries, 10);
  await first.store.close();

  const reopened = folder.open(ON_COMPONENTS);
  assertSameHits(await reopened.store.searchVectorsMany(MODEL.id, queries, 10), before);
  assert.ok(!reopened.log.some((line) => line.includes('building it from the store') || line.includes('components')), reopened.log.join('\n'));
  await reopened.store.close();

  // A graph saved by the version before components (format 1, no projection) is never read as if on them.
  const { manifestFile, manifest } = savedGraph(folder.dataDir);
  writeFileSync(manifestFile, JSON.stringify({ ...manifest, format: 1, projection: undefined }));
  const older = folder.open(ON_COMPONENTS);
  assertExactHits(await older.store.searchVectorsMany(MODEL.id, queries, 10), queries, data.byChunk);
  assert.ok(older.log.some((line) => line.includes('written by another version') && line.includes('building it from the store')), older.log.join('\n'));
  await older.store.close();

  const saved = savedGraph(folder.dataDir);
  writeFileSync(saved.manifestFile, JSON.stringify({ ...saved.manifest, projection: { ...saved.manifest.projection, mean: saved.manifest.projection!.mean.slice(0, 40) } }));
  const damaged = folder.open(ON_COMPONENTS);
  const rebuilt = await damaged.store.searchVectorsMany(MODEL.id, queries, 10);
  assertExactHits(rebuilt, queries, data.byChunk);
  assert.ok(damaged.log.some((line) => line.includes('its projection is damaged') && line.includes('building it from the store')), damaged.log.join('\n'));

  // Rebuilt on components fitted again: a stored window still finds itself first.
  const own = [...data.byChunk.entries()].filter((_, n) => n % 50 === 7);
  rebuilt.forEach((list, n) => assert.equal(list[0]!.chunkId, own[n]![0]));
});

test(`fewer than ${MIN_FITTED} windows say too little for components: the graph keeps every dimension, and is read back so`, async (t) => {
  const folder = dataFolder(t);
  const first = folder.open(ON_COMPONENTS);
  const data = await addClustered(first.store, 500, MODEL.dims, 13);
  const queries = [...data.byChunk.values()].filter((_, n) => n % 25 === 3);
  const before = await first.store.searchVectorsMany(MODEL.id, queries, 10);
  assertExactHits(before, queries, data.byChunk);
  assert.ok(!first.log.some((line) => line.includes('components')), first.log.join('\n'));
  await first.store.close();
  assert.equal(savedGraph(folder.dataDir).manifest.projection, null);

  const reopened = folder.open(ON_COMPONENTS);
  assertSameHits(await reopened.store.searchVectorsMany(MODEL.id, queries, 10), before);
  assert.ok(!reopened.log.some((line) => line.includes('building it from the store')), reopened.log.join('\n'));
});

test('a store that reads its graphs off the thread fits the components off it too: its look-ups are not ready meanwhile, then the graph is built on them', async (t) => {
  const folder = dataFolder(t);
  const { store: writer } = folder.open(EXACT);
  const data = await addClustered(writer, 2_000, MODEL.dims, 14);
  const log: string[] = [];
  const reader = openSqliteStore({ dataDir: folder.dataDir, workspace: 'alice', loadGraphsInBackground: true, vectorIndex: { ...ON_COMPONENTS, log: (line) => log.push(line) } });
  t.after(() => reader.close());
  assert.equal(await reader.vectorLookupReady(MODEL.id), false, 'fitting');
  assert.ok(!log.some((line) => line.includes('components')), 'not fitted on the calling turn');
  const queries = [...data.byChunk.entries()].filter((_, n) => n % 100 === 1);
  const hits = await reader.searchVectorsMany(MODEL.id, queries.map(([, vector]) => vector), 10);
  hits.forEach((list, n) => assert.equal(list[0]!.chunkId, queries[n]![0]));
  assert.equal(await reader.vectorLookupReady(MODEL.id), true);
  assert.equal(log.filter((line) => line.includes('placed by their first 8 of 32 components')).length, 1, log.join('\n'));
});
