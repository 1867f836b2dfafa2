// npm run bench:search — latency of a full search (every path, fusion, expansion look-up,
// explanations, passages) in the embedded store at 10k and 100k chunks, and while the same
// process indexes a folder. Query embedding is measured apart, with the real default model;
// the stores' vectors are SYNTHETIC (one per chunk, clustered like USE-lite's windows:
// test/support/clusteredVectors.ts), which costs the vector path what real vectors would. The
// approximate vector index is built before measuring (as a language server's would be by then), and
// loaded, its stored vectors read in the background, before the searches measured.
// Passage text is drawn from a Zipf-distributed vocabulary of 20,000 words, so a query term
// matches a realistic share of passages (generateCorpus.ts's 36-word vocabulary makes every
// passage match every query). Prints figures; asserts nothing.
//
// Each search is timed on the wall clock and in CPU time (process.cpuUsage around it: every thread
// of this process, and SQLite and the vector index run on this one), which a shared machine's load
// inflates far less than the wall clock. The breakdown names each store call a search makes, how
// many times, and its time; the rest is this thread's own work (fusion, explanations).
//
//   RELATA_BENCH_ONLY=10k|100k|indexing|embedding   run one section
//   RELATA_BENCH_STORE=DIR       keep the generated stores in DIR (DIR/10000, DIR/100000) and reuse
//                                them on the next run: building 100k chunks takes minutes
//   RELATA_BENCH_BASELINE=DIR    a checkout of another commit (its node_modules linked) whose
//                                searchWorkspace and SQLite store answer the same queries on the same
//                                store in the same loop, alternating query by query, so before and
//                                after are measured at the same moments; the answers are compared
//   RELATA_BENCH_ROUNDS=3        rounds of the 20 queries
//   RELATA_BENCH_SETTLE=0        measure right after the graphs load, while their stored vectors are
//                                still read in the background (what searches just after a restart pay)

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEmbedder } from '../../server/src/embed/choice.ts';
import type { Embedder, ModelDescriptor } from '../../server/src/embed/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { clusteredVectors, type ClusteredVectors } from '../support/clusteredVectors.ts';
import { seededRandom, writeCorpus } from '../support/generateCorpus.ts';
import { timedStore } from '../support/timedStore.ts';

const only = process.env.RELATA_BENCH_ONLY;
const KEEP = process.env.RELATA_BENCH_STORE;
const BASELINE = process.env.RELATA_BENCH_BASELINE;
const ROUNDS = Number(process.env.RELATA_BENCH_ROUNDS ?? 3);
const SETTLE = process.env.RELATA_BENCH_SETTLE !== '0';
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

/**
 * Stands in for a model: a query vector near one of the store's documents, the same one each time
 * a text is asked for (so two builds search with the same vector), timed so the query's embedding
 * is reported apart.
 */
class SyntheticEmbedder implements Embedder {
  readonly descriptor: ModelDescriptor = { id: 'bench-synthetic', dims: DIMS, version: '1', maxTokens: 128 };
  lastMs = 0;
  private readonly known = new Map<string, Float32Array>();

  constructor(private readonly vectors: ClusteredVectors) {}

  private vectorOf(text: string): Float32Array {
    let vector = this.known.get(text);
    if (!vector) this.known.set(text, (vector = this.vectors.query()));
    return vector;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const started = performance.now();
    const vectors = texts.map((text) => this.vectorOf(text));
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
 * engine would have it. Under RELATA_BENCH_STORE a store built before is used again.
 */
async function buildStore(chunks: number): Promise<{ dataDir: string; vectors: ClusteredVectors; buildS: number | null; remove: () => void }> {
  const vectors = clusteredVectors({ count: chunks, dims: DIMS, seed: chunks });
  const dataDir = KEEP ? path.join(KEEP, String(chunks)) : mkdtempSync(path.join(tmpdir(), 'relata-bench-search-'));
  const remove = () => (KEEP ? undefined : rmSync(dataDir, { recursive: true, force: true }));
  const complete = path.join(dataDir, 'bench-store-complete');
  if (existsSync(complete)) return { dataDir, vectors, buildS: null, remove };
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const writer = openSqliteStore({ dataDir, workspace: 'bench' });
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
  writeFileSync(complete, '');
  return { dataDir, vectors, buildS: (performance.now() - started) / 1000, remove };
}

/** One build's search over the store: this checkout's, or RELATA_BENCH_BASELINE's. */
interface Build {
  name: string;
  search: typeof searchWorkspace;
  store: WorkspaceStore;
}

interface Measured {
  /** Wall time of each search, the query's embedding excluded. */
  search: number[];
  /** CPU time (user + system, every thread of the process) of each search. */
  cpu: number[];
  /** Per store call, its time and number of calls in each search (0 when a search did not make it). */
  calls: Map<string, { ms: number[]; count: number[] }>;
  /** Each answer, to compare builds. */
  answers: string[];
}

async function timedSearch(build: Build, embedder: SyntheticEmbedder, query: string, spent: Map<string, { ms: number; calls: number }>) {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const answer = await build.search(timedStore(build.store, spent), embedder, query);
  const wall = performance.now() - started - embedder.lastMs;
  const cpu = process.cpuUsage(cpuBefore);
  return { answer, wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/**
 * Waits until this process has been idle for a moment. A graph loaded from its file has its
 * stored vectors read in the background, in slices between other work (~1 s of CPU at 100k
 * windows); a language server does that between requests, but this loop never leaves the event
 * loop idle, so without the wait the first searches measured would each carry a slice of it.
 */
async function backgroundWorkDone(): Promise<{ wallMs: number; cpuMs: number }> {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  for (let quietTurns = 0; quietTurns < 2 && performance.now() - started < 60_000; ) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const spent = process.cpuUsage(before);
    quietTurns = (spent.user + spent.system) / 1000 < 10 ? quietTurns + 1 : 0;
  }
  const cpu = process.cpuUsage(cpuStarted);
  return { wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/**
 * Every build answers each query in turn, the order of builds alternating query by query, so a
 * build is not always the one that runs right after the other's garbage.
 */
async function measure(builds: readonly Build[], vectors: ClusteredVectors, rounds = ROUNDS): Promise<{ measured: Measured[]; vector: number[] }> {
  const embedder = new SyntheticEmbedder(vectors);
  const warmStarted = performance.now();
  for (const build of builds) for (const query of QUERIES.slice(0, 3)) await build.search(build.store, embedder, query); // warm the cache
  const warmMs = performance.now() - warmStarted;
  const first = `  before measuring: the first ${builds.length * 3} searches (loading the vector graph from its file) ${warmMs.toFixed(0)} ms`;
  if (SETTLE) {
    const background = await backgroundWorkDone();
    console.log(
      `${first}; then the background work they left (reading the stored vectors beside each graph) ` +
        `${background.wallMs.toFixed(0)} ms, CPU ${background.cpuMs.toFixed(0)} ms`,
    );
  } else console.log(`${first}; measured while the stored vectors beside each graph are still read in the background`);
  const measured: Measured[] = builds.map(() => ({ search: [], cpu: [], calls: new Map(), answers: [] }));
  const spentPerSearch: Map<string, { ms: number; calls: number }>[][] = builds.map(() => []);
  const vector: number[] = [];
  let turn = 0;
  for (let round = 0; round < rounds; round += 1) {
    for (const query of QUERIES) {
      const order = builds.map((_, n) => n);
      if (turn++ % 2 === 1) order.reverse();
      for (const n of order) {
        const spent = new Map<string, { ms: number; calls: number }>();
        const { answer, wall, cpu } = await timedSearch(builds[n]!, embedder, query, spent);
        measured[n]!.search.push(wall);
        measured[n]!.cpu.push(cpu);
        if (round === 0) measured[n]!.answers.push(JSON.stringify(answer));
        spentPerSearch[n]!.push(spent);
      }
      const [q] = await embedder.embed([query]);
      const vectorStarted = performance.now();
      await builds[0]!.store.searchVectors(embedder.descriptor.id, q!, 300);
      vector.push(performance.now() - vectorStarted);
    }
  }
  builds.forEach((_, n) => {
    const perSearch = spentPerSearch[n]!;
    const names = [...new Set(perSearch.flatMap((spent) => [...spent.keys()]))];
    for (const name of names) {
      measured[n]!.calls.set(name, {
        ms: perSearch.map((spent) => spent.get(name)?.ms ?? 0),
        count: perSearch.map((spent) => spent.get(name)?.calls ?? 0),
      });
    }
  });
  return { measured, vector };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

function printBreakdown(measured: Measured): void {
  console.log('  per store call within a search (calls per search; time), the rest is this thread\'s own work (fusion, explanations):');
  const storeMs = measured.search.map((_, n) => [...measured.calls.values()].reduce((sum, call) => sum + call.ms[n]!, 0));
  for (const [name, call] of [...measured.calls].sort((a, b) => mean(b[1].ms) - mean(a[1].ms))) {
    console.log(`    ${name.padEnd(22)} ${mean(call.count).toFixed(1).padStart(5)} calls  ${figures(call.ms)}, mean ${mean(call.ms).toFixed(2)} ms`);
  }
  const rest = measured.search.map((wall, n) => wall - storeMs[n]!);
  console.log(`    ${'(not in a store call)'.padEnd(22)} ${''.padStart(11)} ${figures(rest)}, mean ${mean(rest).toFixed(2)} ms`);
}

/** This checkout's search and store, and RELATA_BENCH_BASELINE's when given, each on its own connection to the store. */
async function openBuilds(dataDir: string): Promise<Build[]> {
  const builds: Build[] = [{ name: 'this build', search: searchWorkspace, store: openSqliteStore({ dataDir, workspace: 'bench' }) }];
  if (BASELINE) {
    const from = (file: string) => pathToFileURL(path.join(path.resolve(BASELINE), file)).href;
    const { searchWorkspace: baselineSearch } = (await import(from('server/src/ranking/search.ts'))) as typeof import('../../server/src/ranking/search.ts');
    const { openSqliteStore: openBaseline } = (await import(from('server/src/store/sqlite/sqliteStore.ts'))) as typeof import('../../server/src/store/sqlite/sqliteStore.ts');
    builds.push({ name: `baseline (${BASELINE})`, search: baselineSearch, store: openBaseline({ dataDir, workspace: 'bench' }) });
  }
  return builds;
}

async function benchSize(chunks: number): Promise<void> {
  const { dataDir, vectors, buildS, remove } = await buildStore(chunks);
  try {
    const builds = await openBuilds(dataDir);
    const loadBefore = loadavg()[0]!;
    const { measured, vector } = await measure(builds, vectors);
    const built = buildS === null ? `store of an earlier run, ${dataDir}` : `stored and vector index built in ${buildS.toFixed(0)} s`;
    console.log(
      `${chunks.toLocaleString('en')} chunks, ${chunks / CHUNKS_PER_ITEM} items (${built}), load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}; ` +
        `vector look-up alone (store.searchVectors, k = 300 windows) ${figures(vector)}`,
    );
    builds.forEach((build, n) => {
      const { search, cpu } = measured[n]!;
      console.log(`${build.name}: full search excl. query embedding ${figures(search)}; CPU per search ${figures(cpu)} over ${search.length} queries`);
      // Which queries make the p95: each query's median CPU over the rounds (searches are stored round by round).
      const byQuery = QUERIES.map((_, q) => percentile(cpu.filter((_, n) => n % QUERIES.length === q), 50).toFixed(1));
      console.log(`  CPU per search by query, median of the rounds (ms): ${byQuery.join(' ')}`);
      printBreakdown(measured[n]!);
    });
    if (builds.length > 1) {
      const same = measured[0]!.answers.filter((answer, n) => answer === measured[1]!.answers[n]).length;
      console.log(`answers identical between the builds: ${same} / ${measured[0]!.answers.length} (whole responses compared)`);
    }
    for (const build of builds) await build.store.close();
  } finally {
    remove();
  }
}

async function benchWhileIndexing(): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'relata-bench-search-folder-'));
  const indexDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-search-index-'));
  const { dataDir, vectors, remove } = await buildStore(10_000);
  const store = openSqliteStore({ dataDir, workspace: 'bench' });
  try {
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
    for (const dir of [folder, indexDir]) rmSync(dir, { recursive: true, force: true });
    remove();
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
