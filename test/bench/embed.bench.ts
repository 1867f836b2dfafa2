// npm run bench:embed — embedding throughput and latency per embedder; where USE-lite's time per
// window goes on real SciFact windows (TF.js against onnxruntime on the converted graph, and
// TF.js's own kernels against useLite/kernels.ts); vector search latency and recall in the
// embedded store at 10k and 100k windows (exact and approximate); and the engine's responsiveness
// (a lexical query) while a 5,000-chunk folder is being embedded.
// Prints figures; asserts nothing.
//
//   RELATA_BENCH_ONLY=embedders|throughput|kernels|vectors|responsiveness   run one section

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbedder, type EmbeddingChoice } from '../../server/src/embed/choice.ts';
import type { Embedder } from '../../server/src/embed/types.ts';
import { useFastKernels, type KernelRegistry } from '../../server/src/embed/useLite/kernels.ts';
import { USE_LITE_DIMS, USE_LITE_MAX_TOKENS } from '../../server/src/embed/useLite/descriptor.ts';
import { loadVocabulary, requireRuntime } from '../../server/src/embed/useLite/modelFiles.ts';
import type { UseLiteWorkerData } from '../../server/src/embed/useLite/protocol.ts';
import { UseLiteTokenizer } from '../../server/src/embed/useLite/tokenizer.ts';
import { UseLiteEmbedder } from '../../server/src/embed/useLite/useLiteEmbedder.ts';
import { UseLiteModel } from '../../server/src/embed/useLite/useLiteModel.ts';
import { startUseLiteWorker } from '../../server/src/embed/useLite/workerScript.ts';
import { packWindows } from '../../server/src/embed/windows.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { VECTOR_INDEX_SETTINGS, type VectorIndexSettings } from '../../server/src/store/sqlite/vectorIndex.ts';
import { clusteredVectors } from '../support/clusteredVectors.ts';
import { seededRandom, writeCorpus } from '../support/generateCorpus.ts';
import { loadAbstracts, scifactAvailable } from '../support/scifact.ts';
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
  // The graph keeps every dimension here: clustered vectors' noise is spread evenly over all 512,
  // where real windows' variance sits in their first components (store/sqlite/graphProjection.ts),
  // so the recall a graph on components keeps is measured on real windows (bench:graphProjection).
  const open = (settings: Partial<VectorIndexSettings>) =>
    openSqliteStore({ dataDir, workspace: 'bench', vectorIndex: { graphDims: 0, ...settings, log: () => undefined } });
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

// ---- Where USE-lite's time per window goes (RELATA_BENCH_ONLY=throughput) ----

const median = (values: number[]) => percentile(values, 50);
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');

/** SciFact abstracts (title, blank line, text) cut into windows as the embed stage cuts a chunk, one list per abstract. */
function scifactWindows(atLeast: number): string[][] {
  const tokenizer = new UseLiteTokenizer(loadVocabulary());
  const items: string[][] = [];
  let count = 0;
  for (const abstract of loadAbstracts()) {
    if (count >= atLeast) break;
    const windows = packWindows(`${abstract.title}\n\n${abstract.text}`, USE_LITE_MAX_TOKENS, (text) => tokenizer.countTokens(text));
    items.push(windows.map((window) => window.text));
    count += windows.length;
  }
  return items;
}

/** At least a thousand SciFact windows, grouped by abstract and flat; null (said under the part's name) when SciFact is absent. */
function thousandWindows(part: string): { items: string[][]; windows: string[] } | null {
  if (!scifactAvailable()) {
    console.log(`${part}: SciFact (shared/eval/scifact) is absent: skipped`);
    return null;
  }
  const items = scifactWindows(1000);
  return { items, windows: items.flat() };
}

function byLength(texts: readonly string[]): string[] {
  return [...texts].sort((a, b) => a.length - b.length);
}

/** Every window's vector, in the windows' order, embedded 32 at a time: in their order, or by length as the embedder takes them. */
async function embedInBatches(model: UseLiteModel, windows: readonly string[], sorted: boolean): Promise<Float32Array> {
  const order = windows.map((_, i) => i);
  if (sorted) order.sort((a, b) => windows[a]!.length - windows[b]!.length);
  const vectors = new Float32Array(windows.length * USE_LITE_DIMS);
  for (let at = 0; at < order.length; at += 32) {
    const rows = order.slice(at, at + 32);
    const out = await model.embed(rows.map((i) => windows[i]!));
    rows.forEach((i, r) => vectors.set(out.subarray(r * USE_LITE_DIMS, (r + 1) * USE_LITE_DIMS), i * USE_LITE_DIMS));
  }
  return vectors;
}

function minCosine(a: Float32Array, b: Float32Array): { min: number; median: number } {
  const cosines: number[] = [];
  for (let row = 0; row < a.length / USE_LITE_DIMS; row++) {
    let dot = 0;
    for (let i = row * USE_LITE_DIMS; i < (row + 1) * USE_LITE_DIMS; i++) dot += a[i]! * b[i]!;
    cosines.push(dot);
  }
  return { min: Math.min(...cosines), median: median(cosines) };
}

type Runtime = KernelRegistry & {
  env(): { getAsync(flag: string): Promise<boolean> };
  profile(run: () => Promise<void>): Promise<{ kernels: { name: string; inputShapes: number[][]; kernelTimeMs: number }[] }>;
};

/**
 * A child process that loads the model with or without WebAssembly SIMD and times 64 windows.
 * TF.js decides when @energetic-ai/core is first required (it starts its backend at import, before
 * any flag can be set) by validating a SIMD module, so the child without SIMD fails that check.
 */
async function wasmSimdChild(): Promise<void> {
  if (process.env.RELATA_BENCH_SIMD === '0') (globalThis as unknown as { WebAssembly: { validate(): boolean } }).WebAssembly.validate = () => false;
  const tf = requireRuntime() as Runtime;
  const model = await UseLiteModel.load(undefined, { engine: 'tfjs' });
  const windows = scifactWindows(64).flat().slice(0, 64);
  await model.embed(windows.slice(0, 8));
  const started = performance.now();
  for (let at = 0; at < windows.length; at += 32) await model.embed(windows.slice(at, at + 32));
  console.log(JSON.stringify({ simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'), msPerWindow: (performance.now() - started) / windows.length }));
}

function runSimdChild(simd: boolean): string {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, RELATA_BENCH_CHILD: 'wasm-simd', RELATA_BENCH_SIMD: simd ? '1' : '0' },
    encoding: 'utf8',
    timeout: 300_000,
  });
  try {
    const result = JSON.parse(child.stdout.trim().split('\n').pop() ?? '') as { simd: boolean; msPerWindow: number };
    return `${result.msPerWindow.toFixed(1)} ms/window (SIMD flag ${result.simd})`;
  } catch {
    return `failed: ${child.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 200)}`;
  }
}

async function benchThroughput(): Promise<void> {
  const found = thousandWindows('throughput');
  if (!found) return;
  const { items, windows } = found;
  const tokenizer = new UseLiteTokenizer(loadVocabulary());
  const tokens = windows.map((text) => Math.min(USE_LITE_MAX_TOKENS, tokenizer.modelIds(text).length));
  console.log(
    `\nUSE-lite throughput on ${windows.length} SciFact windows (${items.length} abstracts, ${(windows.length / items.length).toFixed(1)} windows each, ` +
      `${median(tokens)} tokens median, ${(tokens.reduce((a, b) => a + b, 0) / tokens.length).toFixed(0)} mean); load at start ${load()}`,
  );

  // 1. The tokenizer, in the calling thread.
  const tokenizerRuns: number[] = [];
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    for (const text of windows) tokenizer.modelIds(text);
    tokenizerRuns.push((performance.now() - started) / windows.length);
  }
  console.log(`  tokenizer (tokenizer.ts): ${median(tokenizerRuns).toFixed(3)} ms/window`);

  // 2. Padding: the graph runs every text of a batch at the batch's longest.
  const padding = (batch: number, sorted: boolean) => {
    const order = sorted ? [...tokens].sort((a, b) => a - b) : tokens;
    let padded = 0;
    for (let at = 0; at < order.length; at += batch) {
      const slice = order.slice(at, at + batch);
      padded += slice.length * Math.max(...slice);
    }
    return tokens.reduce((a, b) => a + b, 0) / padded;
  };
  const perItem = items.reduce((sum, item) => {
    const lengths = item.map((text) => Math.min(USE_LITE_MAX_TOKENS, tokenizer.modelIds(text).length));
    return sum + lengths.length * Math.max(...lengths);
  }, 0);
  console.log(
    `  real tokens / tokens run (padding): ` +
      [8, 16, 32, 64, 128].map((b) => `batch ${b} ${(padding(b, false) * 100).toFixed(0)}% in order, ${(padding(b, true) * 100).toFixed(0)}% sorted`).join('; ') +
      `; one abstract per run ${((tokens.reduce((a, b) => a + b, 0) / perItem) * 100).toFixed(0)}%`,
  );

  // 3. The engines: TF.js (WASM, fast kernels: the path before) against onnxruntime on the
  //    converted graph (onnxGraph.ts), in the embedder as the embed stage calls it: one
  //    abstract's windows per call, one call at a time. Interleaved rounds, medians.
  const rate = async (threads: number, data: UseLiteWorkerData) => {
    const embedder = await UseLiteEmbedder.start({ threads, startWorker: () => startUseLiteWorker({ workerData: data }) });
    try {
      const engines = embedder.engines();
      if (engines.some((engine) => engine !== data.engine)) throw new Error(`asked for ${data.engine}, got ${engines.join(', ')}`);
      await embedder.embed(items[0]!);
      const started = performance.now();
      for (const call of items) await embedder.embed(call);
      return windows.length / ((performance.now() - started) / 1000);
    } finally {
      await embedder.close();
    }
  };
  const setups: { label: string; threads: number; data: UseLiteWorkerData }[] = [
    { label: 'TF.js, 1 thread', threads: 1, data: { engine: 'tfjs' } },
    { label: 'onnxruntime, 1 thread', threads: 1, data: { engine: 'onnx' } },
    { label: 'TF.js, 2 threads', threads: 2, data: { engine: 'tfjs' } },
    { label: 'onnxruntime, 2 threads (one session each)', threads: 2, data: { engine: 'onnx' } },
    { label: 'onnxruntime, 1 thread, 2 intra-op threads', threads: 1, data: { engine: 'onnx', onnxThreads: 2 } },
  ];
  const rates = setups.map(() => [] as number[]);
  for (let round = 0; round < 3; round++) {
    for (const [n, setup] of setups.entries()) rates[n]!.push(await rate(setup.threads, setup.data));
  }
  console.log(`  embedder, ${windows.length} windows one abstract per call, median of 3 interleaved rounds (load ${load()}):`);
  // Against TF.js on as many cores: its threads, times onnxruntime's intra-op threads.
  const cores = (setup: (typeof setups)[number]) => setup.threads * (setup.data.onnxThreads ?? 1);
  const tfjsRate = (count: number) => median(rates[setups.findIndex((setup) => setup.data.engine === 'tfjs' && setup.threads === count)]!);
  for (const [n, setup] of setups.entries()) {
    const r = median(rates[n]!);
    const against = setup.data.engine === 'onnx' ? `  ×${(r / tfjsRate(cores(setup))).toFixed(2)} against TF.js on ${cores(setup)} thread${cores(setup) > 1 ? 's' : ''}` : '';
    console.log(`    ${setup.label.padEnd(44)} ${r.toFixed(1).padStart(6)} windows/s (${rates[n]!.map((x) => x.toFixed(1)).join(', ')})${against}`);
  }

  // 4. The vectors: every window, TF.js against onnxruntime, each as the embedder runs it
  //    (sorted by length, batch 32), one model of each in this thread.
  const embedAll = (model: UseLiteModel) => embedInBatches(model, windows, true);
  const loadTimed = async (engine: 'tfjs' | 'onnx') => {
    const started = performance.now();
    const model = await UseLiteModel.load(undefined, { engine });
    if (model.engineName !== engine) throw new Error(`asked for ${engine}, got ${model.engineName}: ${model.fallback}`);
    return { model, ms: performance.now() - started };
  };
  const tfjs = await loadTimed('tfjs');
  const onnx = await loadTimed('onnx');
  const cosine = minCosine(await embedAll(tfjs.model), await embedAll(onnx.model));
  console.log(
    `  vectors, all ${windows.length} windows, TF.js vs onnxruntime: min cosine ${cosine.min.toFixed(7)}, median ${cosine.median.toFixed(7)}\n` +
      `  load in this thread (graph, first run included): TF.js ${tfjs.ms.toFixed(0)} ms, onnxruntime ${onnx.ms.toFixed(0)} ms (conversion included)`,
  );
  await tfjs.model.dispose();
  await onnx.model.dispose();
}

// ---- TF.js's kernels against kernels.ts (RELATA_BENCH_ONLY=kernels): the fallback engine ----

async function benchTfjsKernels(): Promise<void> {
  const found = thousandWindows('kernels');
  if (!found) return;
  const { items, windows } = found;
  console.log(`\nUSE-lite on TF.js's WASM backend, ${windows.length} SciFact windows; load at start ${load()}`);

  // 1. One model in this thread: the backend's kernels against kernels.ts, batch sizes,
  //    input order against sorted by length. Interleaved rounds, medians.
  const model = await UseLiteModel.load(undefined, { engine: 'tfjs' });
  const tf = requireRuntime() as Runtime;
  console.log(
    `  TF.js WASM backend here: SIMD ${await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')} (tfjs-backend-wasm-simd.wasm), ` +
      `multithreading ${await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT')} (the flag is false under Node by TF.js's own check)`,
  );
  const sample = windows.slice(0, 192);
  const timePass = async (fast: boolean, sorted: boolean, batch: number) => {
    useFastKernels(tf, fast);
    const texts = sorted ? byLength(sample) : sample;
    const started = performance.now();
    for (let at = 0; at < texts.length; at += batch) await model.embed(texts.slice(at, at + batch));
    return (performance.now() - started) / texts.length;
  };
  const configs: { label: string; fast: boolean; sorted: boolean; batch: number }[] = [
    { label: 'backend kernels (before), in order, batch 32', fast: false, sorted: false, batch: 32 },
  ];
  for (const batch of [4, 8, 16, 32, 64, 128]) configs.push({ label: `fast kernels, in order, batch ${batch}`, fast: true, sorted: false, batch });
  for (const batch of [8, 16, 32, 64, 128]) configs.push({ label: `fast kernels, sorted by length, batch ${batch}`, fast: true, sorted: true, batch });
  await timePass(true, false, 32);
  const timings = configs.map(() => [] as number[]);
  for (let round = 0; round < 2; round++) {
    for (const [n, config] of configs.entries()) timings[n]!.push(await timePass(config.fast, config.sorted, config.batch));
  }
  console.log(`  one model, one thread, ${sample.length} windows, median of 2 interleaved rounds (load ${load()}):`);
  const before = median(timings[0]!);
  for (const [n, config] of configs.entries()) {
    const ms = median(timings[n]!);
    console.log(`    ${config.label.padEnd(48)} ${ms.toFixed(1).padStart(5)} ms/window  ${(1000 / ms).toFixed(1).padStart(5)} windows/s  ×${(before / ms).toFixed(2)}`);
  }

  // 2. Where a batch's time goes, kernel by kernel (tf.profile), before and after.
  const batch = sample.slice(0, 32);
  const groups = async (fast: boolean) => {
    useFastKernels(tf, fast);
    const { kernels } = await tf.profile(async () => void (await model.embed(batch)));
    const sums = new Map<string, number>();
    for (const kernel of kernels) {
      const group =
        kernel.name === 'BatchMatMul' && kernel.inputShapes[0]!.length === 4 ? 'attention products (BatchMatMul, 4-D)'
        : kernel.name === 'BatchMatMul' ? 'dense layers on real tokens (XNNPACK)'
        : kernel.name === 'Conv2D' ? 'q/k/v and output projections (1×1 Conv2D, padded)'
        : kernel.name === 'SplitV' ? 'SplitV (q/k/v split)'
        : kernel.name === 'GatherV2' ? 'GatherV2 (token embeddings)'
        : kernel.name === 'Sin' || kernel.name === 'Cos' ? 'Sin, Cos (position encodings)'
        : 'everything else (norms, softmax, reshapes...)';
      sums.set(group, (sums.get(group) ?? 0) + kernel.kernelTimeMs);
    }
    return sums;
  };
  const profiles = { before: [] as Map<string, number>[], after: [] as Map<string, number>[] };
  for (let round = 0; round < 3; round++) {
    profiles.before.push(await groups(false));
    profiles.after.push(await groups(true));
  }
  const total = (maps: Map<string, number>[]) => median(maps.map((map) => [...map.values()].reduce((a, b) => a + b, 0)));
  console.log(`  kernel time for one batch of 32 windows in order (tf.profile, median of 3, ms per window): before ${(total(profiles.before) / 32).toFixed(1)}, after ${(total(profiles.after) / 32).toFixed(1)}`);
  for (const group of profiles.before[0]!.keys()) {
    const b = median(profiles.before.map((map) => map.get(group) ?? 0)) / 32;
    const a = median(profiles.after.map((map) => map.get(group) ?? 0)) / 32;
    console.log(`    ${group.padEnd(66)} ${b.toFixed(1).padStart(5)} → ${a.toFixed(1).padStart(5)} ms/window`);
  }

  // 3. The vectors: every window, before (backend kernel, input order, batch 32) against after
  //    (fast kernels, sorted by length, batch 32).
  const embedAll = (fast: boolean, sorted: boolean) => {
    useFastKernels(tf, fast);
    return embedInBatches(model, windows, sorted);
  };
  const cosine = minCosine(await embedAll(false, false), await embedAll(true, true));
  console.log(`  vectors, all ${windows.length} windows, before vs after: min cosine ${cosine.min.toFixed(7)}, median ${cosine.median.toFixed(7)}`);
  await model.dispose();

  // 4. SIMD, each in a child process (TF.js reads the flag once, when it starts).
  const simd = { on: [] as string[], off: [] as string[] };
  for (let round = 0; round < 2; round++) {
    simd.on.push(runSimdChild(true));
    simd.off.push(runSimdChild(false));
  }
  console.log(`  64 windows, batch 32, fast kernels, own process: with SIMD ${simd.on.join(', ')}; without ${simd.off.join(', ')}`);

  // 5. The embedder as the embed stage calls it (one abstract's windows per call, one call at a
  //    time): worker threads running TF.js's kernels against kernels.ts (the embedder sorts each
  //    call by length in both). Then calls of 32 windows: what batching across abstracts would add.
  const rate = async (threads: number, fastKernels: boolean, calls: string[][] = items) => {
    const workerData: UseLiteWorkerData = { engine: 'tfjs', fastKernels };
    const embedder = await UseLiteEmbedder.start({ threads, startWorker: () => startUseLiteWorker({ workerData }) });
    try {
      await embedder.embed(items[0]!);
      const started = performance.now();
      for (const call of calls) await embedder.embed(call);
      return windows.length / ((performance.now() - started) / 1000);
    } finally {
      await embedder.close();
    }
  };
  const lanes = { before: [] as number[], after: [] as number[] };
  for (let round = 0; round < 3; round++) {
    lanes.before.push(await rate(2, false));
    lanes.after.push(await rate(2, true));
  }
  const [one, three] = [await rate(1, true), await rate(3, true)];
  const thirtyTwos = Array.from({ length: Math.ceil(windows.length / 32) }, (_, i) => windows.slice(i * 32, i * 32 + 32));
  const batched = await rate(2, true, thirtyTwos);
  console.log(
    `  embedder, ${windows.length} windows one abstract per call (load ${load()}):\n` +
      `    2 threads: before ${lanes.before.map((r) => r.toFixed(1)).join(', ')} windows/s, after ${lanes.after.map((r) => r.toFixed(1)).join(', ')} windows/s ` +
      `(×${(median(lanes.after) / median(lanes.before)).toFixed(2)})\n` +
      `    after, by threads on ${cpus().length} cores: 1 → ${one.toFixed(1)}, 2 → ${median(lanes.after).toFixed(1)}, 3 → ${three.toFixed(1)} windows/s\n` +
      `    after, 2 threads, calls of 32 windows across abstracts: ${batched.toFixed(1)} windows/s`,
  );

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

if (process.env.RELATA_BENCH_CHILD === 'wasm-simd') {
  await wasmSimdChild();
  process.exit(0);
}
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load ${load()}`);
if (section('embedders')) {
  await benchEmbedder('USE-lite, 1 thread', { kind: 'use-lite', threads: 1 });
  await benchEmbedder(`USE-lite, ${cpus().length} threads`, { kind: 'use-lite' });
  const modelDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-onnx-'));
  await writeTinyOnnxModel(modelDir);
  await benchEmbedder('ONNX path, tiny generated BERT-shaped model (not a real model: measures the runtime path only)', { kind: 'onnx', modelDir });
  rmSync(modelDir, { recursive: true, force: true });
}
if (section('throughput')) await benchThroughput();
if (section('kernels')) await benchTfjsKernels();
if (section('vectors')) {
  await benchVectors(10_000);
  await benchVectors(100_000);
}
if (section('responsiveness')) await benchResponsiveness();
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
