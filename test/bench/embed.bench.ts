// npm run bench:embed — embedding throughput and latency per embedder, vector search latency and
// recall in the embedded store at 10k and 100k windows (exact and approximate), and the engine's responsiveness (a lexical query)
// while a 5,000-chunk folder is being embedded. Prints figures; asserts nothing.
//
//   RELATA_BENCH_ONLY=embedders|vectors|responsiveness   run one section

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { createEmbedder, type EmbeddingChoice } from '../../server/src/embed/choice.ts';
import type { Embedder } from '../../server/src/embed/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { VECTOR_INDEX_SETTINGS, type VectorIndexSettings } from '../../server/src/store/sqlite/vectorIndex.ts';
import { clusteredVectors } from '../support/clusteredVectors.ts';
import { seededRandom, writeCorpus } from '../support/generateCorpus.ts';
import { writeTinyOnnxModel } from '../support/tinyOnnxModel.ts';

const only = process.env.RELATA_BENCH_ONLY;
const section = (name: string) => !only || only === name;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const WORDS = 'the crane bay forklift inspection supplier report cost delivery safety warehouse sprinkler leak repair audit review policy shift sensor alarm'.split(' ');
function passage(random: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ') + '.';
}

async function benchEmbedder(label: string, choice: EmbeddingChoice): Promise<void> {
  const loadStarted = performance.now();
  const embedder = (await createEmbedder(choice)) as Embedder;
  const loadMs = performance.now() - loadStarted;
  try {
    const random = seededRandom(3);
    const passages = Array.from({ length: 256 }, () => passage(random, 100));
    const queries = Array.from({ length: 60 }, () => passage(random, 15));
    await embedder.embed(passages.slice(0, 4)); // warm up every thread
    const rate = async (batch: number, total: number) => {
      const started = performance.now();
      for (let i = 0; i < total; i += batch) await embedder.embed(passages.slice(i, i + batch));
      return total / ((performance.now() - started) / 1000);
    };
    const batch1 = await rate(1, 48);
    const batch32 = await rate(32, 256);
    const latencies: number[] = [];
    for (const query of queries) {
      const started = performance.now();
      await embedder.embed([query]);
      latencies.push(performance.now() - started);
    }
    console.log(
      `${label} (${embedder.descriptor.id}, ${embedder.descriptor.dims} dims, reads ${embedder.descriptor.maxTokens} tokens): load ${loadMs.toFixed(0)} ms\n` +
        `  100-word passages: ${batch1.toFixed(1)}/s at batch 1, ${batch32.toFixed(1)}/s at batch 32\n` +
        `  15-word query: p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`,
    );
  } finally {
    await embedder.close();
  }
}

/**
 * Vector search at `count` windows of clustered 512-dim vectors (test/support/clusteredVectors.ts:
 * documents and topics, like real embeddings; uniform random vectors flatter an approximate index).
 * Exact sqlite-vec search against the HNSW graph (store/sqlite/vectorIndex.ts): latency, recall@20
 * of the graph against the exact top 20, and the graph's build, save and load times.
 */
async function benchVectors(count: number): Promise<void> {
  const dims = 512;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-vec-'));
  const open = (settings: Partial<VectorIndexSettings>) =>
    openSqliteStore({ dataDir, workspace: 'bench', vectorIndex: { ...settings, log: () => undefined } });
  const exact = open({ exactBelow: Number.MAX_SAFE_INTEGER });
  try {
    const model = { id: 'bench-clustered', dims, version: '1', maxTokens: 128 };
    await exact.registerModel(model);
    const data = clusteredVectors({ count, dims, seed: count });
    const loadStarted = performance.now();
    // Items of 50 chunks each, stored through the same path the pipeline uses.
    for (let item = 0; item < count / 50; item += 1) {
      const hash = item.toString(16).padStart(64, '0');
      const { itemId } = await exact.recordIngest({ path: `doc-${item}.md`, contentHash: hash, size: 1 }, () => true);
      const document = { title: 't', text: 't', blocks: [], structure: { headings: [], tables: [] }, flags: [] };
      await exact.recordParse(itemId, { contentHash: hash, parserVersion: 'bench', document }, 't');
      const location = { kind: 'lines', start: 1, end: 1 } as const;
      const chunks = Array.from({ length: 50 }, (_, ordinal) => ({
        id: `${item}-${ordinal}`, itemId, ordinal, text: 'x', headingPath: [], location, wordCount: 1,
      }));
      await exact.replaceChunks(itemId, hash, chunks);
      await exact.storeVectors(itemId, hash, model, chunks.map((chunk, ordinal) => ({
        chunkId: chunk.id, window: 0, start: 0, end: 1, vector: data.vectors[item * 50 + ordinal]!,
      })));
    }
    const loadS = (performance.now() - loadStarted) / 1000;
    const queries = Array.from({ length: 100 }, () => data.query());
    const measure = async (store: WorkspaceStore) => {
      const latencies: number[] = [];
      const results: string[][] = [];
      for (const query of queries) {
        const started = performance.now();
        const hits = await store.searchVectors(model.id, query, 20);
        latencies.push(performance.now() - started);
        results.push(hits.map((hit) => hit.chunkId));
      }
      return { latencies, results };
    };
    const truth = await measure(exact);
    const recall = (results: string[][]) =>
      results.reduce((found, hits, n) => found + hits.filter((id) => truth.results[n]!.includes(id)).length, 0) / (20 * queries.length);
    const line = (label: string, run: { latencies: number[]; results: string[][] }) =>
      `  ${label}: p50 ${percentile(run.latencies, 50).toFixed(1)} ms, p95 ${percentile(run.latencies, 95).toFixed(1)} ms, recall@20 ${recall(run.results).toFixed(3)}`;
    console.log(`vector top-20, ${count.toLocaleString('en')} clustered windows × ${dims} dims (stored in ${loadS.toFixed(1)} s), 100 queries`);
    console.log(line('exact (sqlite-vec, 64 MB page cache)', truth));

    const { m, efConstruction, efSearch } = VECTOR_INDEX_SETTINGS;
    const builder = open({ exactBelow: 0, inlineCatchUp: Number.MAX_SAFE_INTEGER });
    const buildStarted = performance.now();
    await builder.searchVectors(model.id, queries[0]!, 20);
    const buildS = (performance.now() - buildStarted) / 1000;
    const saveStarted = performance.now();
    await builder.close();
    console.log(`  HNSW M=${m}, efConstruction=${efConstruction}: built in ${buildS.toFixed(1)} s (${(count / buildS).toFixed(0)} vectors/s), saved in ${((performance.now() - saveStarted) / 1000).toFixed(1)} s`);
    for (const ef of [64, efSearch, 256]) {
      const store = open({ exactBelow: 0, efSearch: ef });
      const started = performance.now();
      await store.searchVectors(model.id, queries[0]!, 20);
      const loadMs = performance.now() - started;
      console.log(`${line(`HNSW efSearch=${ef}${ef === efSearch ? ' (default)' : ''}`, await measure(store))} (graph loaded in ${loadMs.toFixed(0)} ms)`);
      await store.close();
    }
  } finally {
    await exact.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const RESPONSIVENESS_SECONDS = 90;

async function benchResponsiveness(): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'relata-bench-resp-'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-resp-data-'));
  // ~2,400 generated files make about 5,000 chunks.
  writeCorpus(folder, 2400, 11);
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'bench', embedding: { kind: 'none' } });
  await index.index();
  const chunks = await index.store.countChunks();
  await index.close();
  const embedding = await FolderIndex.open({ folder, dataDir, workspace: 'bench', embedding: { kind: 'use-lite' } });
  const latencies: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const started = performance.now();
      await embedding.store.searchChunksLexical('crane inspection', 20);
      latencies.push(performance.now() - started);
    }
  })();
  // Measure the time a request waits too: an event loop blocked by embedding would delay it.
  const delays: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    delays.push(now - last - 50);
    last = now;
  }, 50);
  // Embedding all ~20k windows takes over ten minutes here; a bounded slice of the run answers
  // the question (is the engine responsive while it embeds?) just as well.
  const abort = new AbortController();
  const limit = setTimeout(() => abort.abort(), RESPONSIVENESS_SECONDS * 1000);
  const started = performance.now();
  await embedding.index({ signal: abort.signal });
  clearTimeout(limit);
  const seconds = (performance.now() - started) / 1000;
  running = false;
  clearInterval(timer);
  await probe;
  const usage = await embedding.store.modelUsage();
  await embedding.close();
  rmSync(folder, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  console.log(
    `responsiveness during the first ${seconds.toFixed(0)} s of embedding a ${chunks}-chunk folder (${usage[0]?.vectors ?? 0} windows done, ` +
      `${((usage[0]?.vectors ?? 0) / seconds).toFixed(1)} windows/s):\n` +
      `  lexical query during the run: p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, ` +
      `max ${Math.max(...latencies).toFixed(1)} ms over ${latencies.length} queries\n` +
      `  event-loop delay: p50 ${percentile(delays, 50).toFixed(1)} ms, p95 ${percentile(delays, 95).toFixed(1)} ms, max ${Math.max(...delays).toFixed(0)} ms`,
  );
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
if (section('embedders')) {
  await benchEmbedder('USE-lite, 1 thread', { kind: 'use-lite', threads: 1 });
  await benchEmbedder(`USE-lite, ${cpus().length} threads`, { kind: 'use-lite' });
  const modelDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-onnx-'));
  await writeTinyOnnxModel(modelDir);
  await benchEmbedder('ONNX path, tiny generated BERT-shaped model (not a real model: measures the runtime path only)', { kind: 'onnx', modelDir });
  rmSync(modelDir, { recursive: true, force: true });
}
if (section('vectors')) {
  await benchVectors(10_000);
  await benchVectors(100_000);
}
if (section('responsiveness')) await benchResponsiveness();
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
