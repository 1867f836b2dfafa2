// npm run bench:search — latency of a full search (every path, fusion, expansion look-up,
// explanations, passages) in the embedded store at 10k and 100k chunks, and while the same
// process indexes a folder. Query embedding is measured apart, with the real default model;
// the stores' vectors are SYNTHETIC (random unit vectors, one per chunk), which costs the vector
// path what real vectors would. Prints figures; asserts nothing.
//
//   RELATA_BENCH_ONLY=10k|100k|indexing|embedding   run one section

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { createEmbedder } from '../../server/src/embed/choice.ts';
import type { Embedder, ModelDescriptor } from '../../server/src/embed/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { markdownDocument, seededRandom, writeCorpus } from '../support/generateCorpus.ts';

const only = process.env.RELATA_BENCH_ONLY;
const section = (name: string) => !only || only === name;
const DIMS = 512;
const CHUNKS_PER_ITEM = 50;
const QUERIES = [
  'crane inspection', 'forklift incident report', 'sprinkler leak repair cost', 'supplier invoice approval', 'warehouse safety audit',
  'maintenance schedule', 'delivery delay', 'operator training checklist', 'dock shipment pallet', 'budget review policy',
  'sensor alarm shift', 'refurbishment contract vendor', 'incident timeline cause action', 'cost of the crane refurbishment', 'bay inspection',
  'audit summary', 'leak', 'training', 'vendor contract approval', 'forklift operator shift alarm',
];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const figures = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms`;

function unitVector(random: () => number): Float32Array {
  const values = Float32Array.from({ length: DIMS }, () => random() - 0.5);
  const norm = Math.hypot(...values);
  return values.map((value) => value / norm);
}

/** Stands in for a model: random unit vectors, timed so the query's embedding is reported apart. */
class SyntheticEmbedder implements Embedder {
  readonly descriptor: ModelDescriptor = { id: 'bench-synthetic', dims: DIMS, version: '1', maxTokens: 128 };
  private readonly random = seededRandom(99);
  lastMs = 0;

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const started = performance.now();
    const vectors = texts.map(() => unitVector(this.random));
    this.lastMs = performance.now() - started;
    return vectors;
  }

  countTokens(text: string): number {
    return text.split(/\s+/).length;
  }

  async close(): Promise<void> {}
}

/** Items of 50 generated passages each, stored through the pipeline's own store calls, one synthetic vector per passage. */
async function buildStore(dataDir: string, chunks: number, cacheMiB?: number): Promise<{ store: WorkspaceStore; buildS: number }> {
  const store = openSqliteStore({ dataDir, workspace: 'bench', cacheMiB });
  const embedder = new SyntheticEmbedder();
  await store.registerModel(embedder.descriptor);
  const random = seededRandom(chunks);
  const started = performance.now();
  for (let item = 0; item < chunks / CHUNKS_PER_ITEM; item += 1) {
    const hash = item.toString(16).padStart(64, '0');
    const texts = Array.from({ length: CHUNKS_PER_ITEM }, (_, n) => markdownDocument(random, n).replace(/^#+ /gm, '').slice(0, 1500));
    const { itemId } = await store.recordIngest({ path: `group-${item % 20}/doc-${item}.md`, contentHash: hash, size: 1 }, () => true);
    const document = { title: `Report ${item}`, text: texts.join('\n\n'), blocks: [], structure: { headings: [], tables: [] }, flags: [] };
    await store.recordParse(itemId, { contentHash: hash, parserVersion: 'bench', document }, `Report ${item}`);
    const records = texts.map((text, ordinal) => ({
      id: `${item}-${ordinal}`, itemId, ordinal, text, headingPath: [], location: { kind: 'lines', start: ordinal * 10 + 1, end: ordinal * 10 + 9 } as const,
      wordCount: text.split(' ').length,
    }));
    await store.replaceChunks(itemId, hash, records);
    await store.storeVectors(itemId, hash, embedder.descriptor, records.map((chunk) => ({ chunkId: chunk.id, window: 0, start: 0, end: chunk.text.length, vector: unitVector(random) })));
  }
  return { store, buildS: (performance.now() - started) / 1000 };
}

async function measure(store: WorkspaceStore, rounds = 3): Promise<{ search: number[]; vector: number[] }> {
  const embedder = new SyntheticEmbedder();
  for (const query of QUERIES.slice(0, 3)) await searchWorkspace(store, embedder, query); // warm the cache
  const search: number[] = [];
  const vector: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const query of QUERIES) {
      const started = performance.now();
      await searchWorkspace(store, embedder, query);
      search.push(performance.now() - started - embedder.lastMs);
      const [q] = await embedder.embed([query]);
      const vectorStarted = performance.now();
      await store.searchVectors(embedder.descriptor.id, q!, 300);
      vector.push(performance.now() - vectorStarted);
    }
  }
  return { search, vector };
}

async function benchSize(chunks: number, cacheMiB?: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-search-'));
  try {
    const { store, buildS } = await buildStore(dataDir, chunks, cacheMiB);
    const { search, vector } = await measure(store);
    console.log(
      `${chunks.toLocaleString('en')} chunks, ${chunks / CHUNKS_PER_ITEM} items, ${cacheMiB ?? 64} MB page cache (built in ${buildS.toFixed(0)} s): ` +
        `full search excl. query embedding ${figures(search)} over ${search.length} queries; of which the vector path's exact scan alone ${figures(vector)}`,
    );
    await store.close();
    if (chunks >= 100_000 && cacheMiB === undefined) {
      // The same store reopened with a page cache that holds every vector.
      const large = openSqliteStore({ dataDir, workspace: 'bench', cacheMiB: 320 });
      const again = await measure(large);
      console.log(`  same store, 320 MB page cache: full search ${figures(again.search)}; vector scan ${figures(again.vector)}`);
      await large.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchWhileIndexing(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-search-'));
  const folder = mkdtempSync(path.join(tmpdir(), 'relata-bench-search-folder-'));
  const indexDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-search-index-'));
  try {
    const { store } = await buildStore(dataDir, 10_000);
    writeCorpus(folder, 3000, 7);
    const index = await FolderIndex.open({ folder, dataDir: indexDir, workspace: 'bench', embedding: { kind: 'none' } });
    const embedder = new SyntheticEmbedder();
    const latencies: number[] = [];
    let running = true;
    const indexing = index.index().finally(() => {
      running = false;
    });
    const started = performance.now();
    let turn = 0;
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const queryStarted = performance.now();
      await searchWorkspace(store, embedder, QUERIES[turn++ % QUERIES.length]!);
      latencies.push(performance.now() - queryStarted - embedder.lastMs);
    }
    const report = await indexing;
    console.log(
      `while this process indexes 3,000 generated files (${report.chunks.toLocaleString('en')} chunks, parse + chunk + extract, ` +
        `${((performance.now() - started) / 1000).toFixed(0)} s), searching the 10k-chunk store: ${figures(latencies)}, ` +
        `max ${Math.max(...latencies).toFixed(1)} ms over ${latencies.length} queries`,
    );
    await index.close();
    await store.close();
  } finally {
    for (const dir of [dataDir, folder, indexDir]) rmSync(dir, { recursive: true, force: true });
  }
}

async function benchQueryEmbedding(): Promise<void> {
  const embedder = (await createEmbedder({ kind: 'use-lite', threads: 1 }))!;
  try {
    await embedder.embed(['warm up']);
    const latencies: number[] = [];
    for (const query of [...QUERIES, ...QUERIES]) {
      const started = performance.now();
      await embedder.embed([query]);
      latencies.push(performance.now() - started);
    }
    console.log(`query embedding with the default model (${embedder.descriptor.id}, 1 thread), reported apart: ${figures(latencies)}`);
  } finally {
    await embedder.close();
  }
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
console.log('vectors in these stores are synthetic (random unit vectors, 512 dims, one per chunk); text and BM25 indexes are real');
if (section('embedding')) await benchQueryEmbedding();
if (section('10k')) await benchSize(10_000);
if (section('100k')) await benchSize(100_000);
if (section('indexing')) await benchWhileIndexing();
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
