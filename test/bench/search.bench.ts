// npm run bench:search — latency of a full search (every path, fusion, expansion look-up,
// explanations, passages) in the embedded store at 10k and 100k chunks, and while the same
// process indexes a folder. Query embedding is measured apart, with the real default model;
// the stores' vectors are SYNTHETIC (one per chunk, clustered like USE-lite's windows:
// test/support/clusteredVectors.ts), which costs the vector path what real vectors would. The
// approximate vector index is built before measuring (as a language server's would be by then).
// Passage text is drawn from a Zipf-distributed vocabulary of 20,000 words, so a query term
// matches a realistic share of passages (generateCorpus.ts's 36-word vocabulary makes every
// passage match every query). Prints figures; asserts nothing.
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
import { clusteredVectors, type ClusteredVectors } from '../support/clusteredVectors.ts';
import { seededRandom, writeCorpus } from '../support/generateCorpus.ts';

const only = process.env.RELATA_BENCH_ONLY;
const section = (name: string) => !only || only === name;
const DIMS = 512;
const CHUNKS_PER_ITEM = 50;
const VOCABULARY_SIZE = 20_000;
const SYLLABLES = 'ba be bi bo bu da de di do du ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu ra re ri ro ru sa se si so su ta te ti to tu'.split(' ');

/** Word r (0 = most frequent) of a made-up language, and a sampler of Zipf(1.07) ranks. */
function vocabulary(seed: number): { word: (rank: number) => string; sampleRank: () => number } {
  const random = seededRandom(seed);
  const words = Array.from({ length: VOCABULARY_SIZE }, (_, rank) =>
    Array.from({ length: 2 + (rank % 3) + Math.floor(random() * 2) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('') + rank.toString(36),
  );
  const cumulative = new Float64Array(VOCABULARY_SIZE);
  let total = 0;
  for (let rank = 0; rank < VOCABULARY_SIZE; rank += 1) cumulative[rank] = total += 1 / Math.pow(rank + 1, 1.07);
  return {
    word: (rank) => words[rank]!,
    sampleRank: () => {
      const target = random() * total;
      let low = 0;
      let high = VOCABULARY_SIZE - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (cumulative[middle]! < target) low = middle + 1;
        else high = middle;
      }
      return low;
    },
  };
}

const WORDS = vocabulary(5);
const passageText = (words: number) => Array.from({ length: words }, () => WORDS.word(WORDS.sampleRank())).join(' ');
/** Two to four words below the 50 most frequent ones, as a person's query would be. */
const QUERIES = Array.from({ length: 20 }, (_, n) => {
  const random = seededRandom(n + 1);
  return Array.from({ length: 2 + (n % 3) }, () => WORDS.word(50 + Math.floor(random() * 5000) + n * 37)).join(' ');
});

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const figures = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms`;

/** Stands in for a model: a query vector near one of the store's documents, timed so the query's embedding is reported apart. */
class SyntheticEmbedder implements Embedder {
  readonly descriptor: ModelDescriptor = { id: 'bench-synthetic', dims: DIMS, version: '1', maxTokens: 128 };
  lastMs = 0;

  constructor(private readonly vectors: ClusteredVectors) {}

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const started = performance.now();
    const vectors = texts.map(() => this.vectors.query());
    this.lastMs = performance.now() - started;
    return vectors;
  }

  countTokens(text: string): number {
    return text.split(/\s+/).length;
  }

  async close(): Promise<void> {}
}

/**
 * Items of 50 generated passages each, stored through the pipeline's own store calls with one
 * synthetic vector per passage; the approximate index is then built and saved, as a long-running
 * engine would have it.
 */
async function buildStore(dataDir: string, chunks: number): Promise<{ store: WorkspaceStore; vectors: ClusteredVectors; buildS: number }> {
  const writer = openSqliteStore({ dataDir, workspace: 'bench' });
  const vectors = clusteredVectors({ count: chunks, dims: DIMS, seed: chunks });
  const model = new SyntheticEmbedder(vectors).descriptor;
  await writer.registerModel(model);
  const random = seededRandom(chunks);
  const started = performance.now();
  for (let item = 0; item < chunks / CHUNKS_PER_ITEM; item += 1) {
    const hash = item.toString(16).padStart(64, '0');
    const texts = Array.from({ length: CHUNKS_PER_ITEM }, () => passageText(150 + Math.floor(random() * 150)));
    const { itemId } = await writer.recordIngest({ path: `group-${item % 20}/doc-${item}.md`, contentHash: hash, size: 1 }, () => true);
    const document = { title: `Report ${item}`, text: texts.join('\n\n'), blocks: [], structure: { headings: [], tables: [] }, flags: [] };
    await writer.recordParse(itemId, { contentHash: hash, parserVersion: 'bench', document }, `Report ${item}`);
    const records = texts.map((text, ordinal) => ({
      id: `${item}-${ordinal}`, itemId, ordinal, text, headingPath: [], location: { kind: 'lines', start: ordinal * 10 + 1, end: ordinal * 10 + 9 } as const,
      wordCount: text.split(' ').length,
    }));
    await writer.replaceChunks(itemId, hash, records);
    const first = item * CHUNKS_PER_ITEM;
    await writer.storeVectors(itemId, hash, model, records.map((chunk, n) => ({ chunkId: chunk.id, window: 0, start: 0, end: chunk.text.length, vector: vectors.vectors[first + n]! })));
  }
  await writer.close();
  const builder = openSqliteStore({ dataDir, workspace: 'bench', vectorIndex: { inlineCatchUp: Number.MAX_SAFE_INTEGER, log: () => {} } });
  await builder.searchVectors(model.id, vectors.query(), 20);
  await builder.close();
  return { store: openSqliteStore({ dataDir, workspace: 'bench' }), vectors, buildS: (performance.now() - started) / 1000 };
}

/** Store calls a search makes, timed per call name: where a search's time goes, path by path. */
function timedStore(store: WorkspaceStore, spent: Map<string, number>): WorkspaceStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await (value as (...args: unknown[]) => unknown).apply(target, args);
        } finally {
          spent.set(String(key), (spent.get(String(key)) ?? 0) + performance.now() - started);
        }
      };
    },
  });
}

interface Measured {
  search: number[];
  vector: number[];
  /** Per store call, its time in each search (0 when a search did not make it). */
  calls: Map<string, number[]>;
}

async function measure(store: WorkspaceStore, vectors: ClusteredVectors, rounds = 3): Promise<Measured> {
  const embedder = new SyntheticEmbedder(vectors);
  for (const query of QUERIES.slice(0, 3)) await searchWorkspace(store, embedder, query); // warm the cache
  const search: number[] = [];
  const vector: number[] = [];
  const spentPerSearch: Map<string, number>[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const query of QUERIES) {
      const spent = new Map<string, number>();
      const started = performance.now();
      await searchWorkspace(timedStore(store, spent), embedder, query);
      search.push(performance.now() - started - embedder.lastMs);
      spentPerSearch.push(spent);
      const [q] = await embedder.embed([query]);
      const vectorStarted = performance.now();
      await store.searchVectors(embedder.descriptor.id, q!, 300);
      vector.push(performance.now() - vectorStarted);
    }
  }
  const names = [...new Set(spentPerSearch.flatMap((spent) => [...spent.keys()]))];
  return { search, vector, calls: new Map(names.map((name) => [name, spentPerSearch.map((spent) => spent.get(name) ?? 0)])) };
}

async function benchSize(chunks: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-search-'));
  try {
    const { store, vectors, buildS } = await buildStore(dataDir, chunks);
    const { search, vector, calls } = await measure(store, vectors);
    console.log(
      `${chunks.toLocaleString('en')} chunks, ${chunks / CHUNKS_PER_ITEM} items (stored and vector index built in ${buildS.toFixed(0)} s): ` +
        `full search excl. query embedding ${figures(search)} over ${search.length} queries; ` +
        `of which the vector look-up alone (store.searchVectors, k = 300 windows) ${figures(vector)}`,
    );
    console.log('  per store call within a search (the rest is fusion, explanations and the event loop):');
    for (const [name, spent] of [...calls].sort((a, b) => percentile(b[1], 95) - percentile(a[1], 95))) {
      console.log(`    ${name.padEnd(22)} ${figures(spent)}`);
    }
    await store.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchWhileIndexing(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-search-'));
  const folder = mkdtempSync(path.join(tmpdir(), 'relata-bench-search-folder-'));
  const indexDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-search-index-'));
  try {
    const { store, vectors } = await buildStore(dataDir, 10_000);
    writeCorpus(folder, 3000, 7);
    const index = await FolderIndex.open({ folder, dataDir: indexDir, workspace: 'bench', embedding: { kind: 'none' } });
    const embedder = new SyntheticEmbedder(vectors);
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
console.log('vectors in these stores are synthetic (clustered like USE-lite windows, 512 dims, one per chunk); text (Zipf vocabulary) and BM25 indexes are real');
if (section('embedding')) await benchQueryEmbedding();
if (section('10k')) await benchSize(10_000);
if (section('100k')) await benchSize(100_000);
if (section('indexing')) await benchWhileIndexing();
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
