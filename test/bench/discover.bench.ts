// npm run bench:discover — the cost of discovering one item at 1k, 5k and 20k items. Discovery
// must not grow with the workspace beyond its index look-ups, so time per item and candidates per
// item should stay flat. Each size is a generated workspace (discoveryCorpus.ts) run through the
// real pipeline (parse, chunk, extract, discover without vectors); then every chunk gets a
// synthetic clustered vector (no real model embeds 20k documents in a benchmark's time here) and a
// seeded sample of items is discovered again with the vector path on. Prints figures; asserts
// nothing.
//
//   RELATA_BENCH_SIZES=1000,5000,20000   sizes to run

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { discoverItem } from '../../server/src/discover/discoverItem.ts';
import type { ModelDescriptor } from '../../server/src/embed/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/index.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { seededRandom } from '../support/generateCorpus.ts';
import { writeDiscoveryCorpus } from '../support/discoveryCorpus.ts';

const SIZES = (process.env.RELATA_BENCH_SIZES ?? '1000,5000,20000').split(',').map(Number);
const SAMPLE = 300;
const DIMS = 512;
const MODEL: ModelDescriptor = { id: 'bench-synthetic-512', dims: DIMS, version: 'synthetic@1', maxTokens: 128 };

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const median = (values: number[]) => percentile(values, 50);

interface Row {
  items: number;
  /** Building the vector index from the stored vectors (exact search below 5,000 vectors: no index). */
  indexBuildMs: number;
  pipelineDiscoverMs: number;
  vectorMs: { p50: number; p95: number };
  /** CPU time of this process per item (user + system): what the folder's size costs, whatever else runs on the machine. */
  vectorCpuMs: { p50: number; p95: number };
  candidates: { p50: number; max: number };
  relationships: number;
}

/** A vector per chunk: a direction per asset topic plus noise, unit length; cosine same-topic ≈ 0.5, unrelated ≈ 0. */
function syntheticVector(random: () => number, topic: Float32Array): Float32Array {
  const out = new Float32Array(DIMS);
  let norm = 0;
  for (let i = 0; i < DIMS; i += 1) {
    out[i] = topic[i]! * 0.7 + (random() - 0.5) * 0.7;
    norm += out[i]! * out[i]!;
  }
  norm = Math.sqrt(norm);
  return out.map((value) => value / norm);
}

async function measure(items: number): Promise<Row> {
  const root = mkdtempSync(path.join(tmpdir(), 'relata-bench-discover-'));
  const folder = path.join(root, 'folder');
  writeDiscoveryCorpus(folder, items);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'bench', embedding: { kind: 'none' } });
  try {
    const discoverMs: number[] = [];
    await index.index({
      onProgress: ({ last }) => {
        if (last?.type === 'job-finished' && last.job.stage === 'discover') discoverMs.push(last.elapsedMs);
      },
    });
    const store = index.store;
    await store.registerModel(MODEL);
    const random = seededRandom(items);
    const topics = new Map<string, Float32Array>();
    const topicOf = (title: string) => {
      const key = title.replace(/^Report \d+: /, '');
      if (!topics.has(key)) topics.set(key, syntheticVector(random, new Float32Array(DIMS)));
      return topics.get(key)!;
    };
    const all = await store.listItems();
    for (const item of all) {
      if (item.status !== 'indexed') continue;
      const chunks = await store.listChunks(item.id);
      const entries = chunks.map((chunk) => ({ chunkId: chunk.id, window: 0, start: 0, end: chunk.text.length, vector: syntheticVector(random, topicOf(item.title ?? '')) }));
      await store.storeVectors(item.id, item.contentHash!, MODEL, entries);
    }

    // Measure with the vector index caught up, as it is once indexing settles: a store that builds
    // the index at its first query instead of in the background (vectorIndex.ts), warmed up once.
    const measured = openSqliteStore({ dataDir: index.dataDir, workspace: 'bench', vectorIndex: { inlineCatchUp: Number.MAX_SAFE_INTEGER } });
    const warmUp = performance.now();
    await measured.searchVectors(MODEL.id, syntheticVector(random, new Float32Array(DIMS)), 10);
    const indexBuildMs = performance.now() - warmUp;
    const sample = all.filter((item) => item.status === 'indexed').sort(() => random() - 0.5).slice(0, SAMPLE);
    const vectorMs: number[] = [];
    const vectorCpuMs: number[] = [];
    const candidates: number[] = [];
    for (const item of sample) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const outcome = await discoverItem(measured, item.id, { modelId: MODEL.id, thresholds: DEFAULT_THRESHOLDS });
      const spent = process.cpuUsage(cpu);
      vectorMs.push(performance.now() - started);
      vectorCpuMs.push((spent.user + spent.system) / 1000);
      candidates.push(outcome.candidates);
    }
    const relationships = (await measured.listRelationships()).length;
    await measured.close();
    return {
      items,
      indexBuildMs,
      pipelineDiscoverMs: median(discoverMs),
      vectorMs: { p50: median(vectorMs), p95: percentile(vectorMs, 95) },
      vectorCpuMs: { p50: median(vectorCpuMs), p95: percentile(vectorCpuMs, 95) },
      candidates: { p50: median(candidates), max: Math.max(...candidates) },
      relationships,
    };
  } finally {
    await index.close();
    rmSync(root, { recursive: true, force: true });
  }
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
console.log(`load average at start: ${loadavg().map((load) => load.toFixed(1)).join(' ')}`);
console.log('items   discover/item in pipeline (no vectors, p50)   with vectors p50 / p95   CPU with vectors p50 / p95   candidates p50 / max   relationships   vector index build');
const rows: Row[] = [];
for (const size of SIZES) {
  const row = await measure(size);
  rows.push(row);
  console.log(
    `${String(row.items).padStart(6)}   ${row.pipelineDiscoverMs.toFixed(1).padStart(8)} ms` +
      `${''.padEnd(35)}${row.vectorMs.p50.toFixed(1).padStart(6)} / ${row.vectorMs.p95.toFixed(1)} ms` +
      `${row.vectorCpuMs.p50.toFixed(1).padStart(14)} / ${row.vectorCpuMs.p95.toFixed(1)} ms` +
      `${String(row.candidates.p50).padStart(12)} / ${row.candidates.max}${String(row.relationships).padStart(16)}` +
      `${(row.indexBuildMs / 1000).toFixed(1).padStart(12)} s`,
  );
}
if (rows.length > 1) {
  const first = rows[0]!;
  const last = rows.at(-1)!;
  console.log(
    `time per item with vectors at ${last.items} vs ${first.items} items: ${(last.vectorMs.p50 / first.vectorMs.p50).toFixed(2)}× ` +
      `(CPU ${(last.vectorCpuMs.p50 / first.vectorCpuMs.p50).toFixed(2)}×) ` +
      `(goal ≤ 1.5×); in the pipeline without vectors: ${(last.pipelineDiscoverMs / first.pipelineDiscoverMs).toFixed(2)}×`,
  );
}
