// npm run bench:lsp-warm — what a warm search costs through the language server compared with the
// same search in-process, as `relata search` runs it. One folder is indexed by the built
// `dist/cli.js serve --stdio`; once it is watching, each query is run, interleaved:
//   (a) in this process: the query embedded by the default model (USE-lite, one thread, as the
//       CLI's and the server's query embedder) and searchWorkspace on the server's store, timed
//       with and without the embedding (the "excl." run searches with the vector already made);
//   (b) `relata/search` to the server, send to answer, with the answer's size and JSON costs, and
//       a request no handler knows (answered MethodNotFound by vscode-jsonrpc, the engine never
//       asked): what the transport alone costs, two process wake-ups and two small messages.
// With RELATA_BENCH_BASELINE naming another build's cli.js (e.g. the commit before a change,
// built into a temporary copy), a second server on a copy of the same store answers the same
// queries in the same loop, so before and after share the machine's load. Prints figures, the
// ratios, and how many answers differ from the in-process results (they should not); asserts nothing.
//
//   RELATA_BENCH_FOLDER=DIR      copy this folder (e.g. .relata-eval/scifact/corpus) instead of
//                                generating one; SciFact's claims are the queries when it is SciFact
//   RELATA_BENCH_FILES=1500      files in the generated folder
//   RELATA_BENCH_KEEP=DIR        keep the folder copy and its store here, so a rerun skips indexing
//   RELATA_BENCH_QUERIES=60      queries measured (after 5 warm-up queries)
//   RELATA_BENCH_CLAIMS=1        SciFact's claims as the queries whatever the folder: sentences of
//                                15-20 words, whose embedding costs about twice a few words'
//   RELATA_BENCH_BASELINE=FILE   a second server build to compare with (its cli.js)
//   RELATA_BENCH_FROM_STORE=DIR  start from a snapshot of this SQLite data directory, an index of
//                                RELATA_BENCH_FOLDER made with the default model: the server then
//                                finds nothing to do, and a run on SciFact takes minutes, not an
//                                hour. (eval:scifact's store is discovered without a model, so a
//                                server given a copy rediscovers every item.)

import Database from 'better-sqlite3';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InitializeRequest, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { SearchRequest, StatusNotification, type FolderSearch, type SearchParams, type ServerSettings } from '../../shared/protocol.ts';
import type { SearchResponse } from '../../shared/types.ts';
import { parseEmbeddingChoice } from '../../server/src/embed/choice.ts';
import type { Embedder } from '../../server/src/embed/types.ts';
import { dataDirFor } from '../../server/src/lsp/folderSession.ts';
import { queryEmbedder } from '../../server/src/ranking/queryEmbedder.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { openStoreWithBlobs } from '../../server/src/store/index.ts';
import { CORPUS_QUERIES, writeCorpus } from '../support/generateCorpus.ts';
import { loadClaims, scifactAvailable } from '../support/scifact.ts';
import { startBenchServer } from '../support/benchServer.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const SOURCE = process.env.RELATA_BENCH_FOLDER;
const FILES = Number(process.env.RELATA_BENCH_FILES ?? 1500);
const KEEP = process.env.RELATA_BENCH_KEEP;
const MEASURED = Number(process.env.RELATA_BENCH_QUERIES ?? 60);
const BASELINE = process.env.RELATA_BENCH_BASELINE;
const WARM_UP = 5;
const LIMIT = 10;
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const FROM_STORE = process.env.RELATA_BENCH_FROM_STORE;

const GENERATED_QUERIES = [
  ...CORPUS_QUERIES,
  'Example Ltd',
  'how much did the repair cost',
  'what went wrong with the forklift',
  'insurance claim for flood damage',
];

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const figures = (values: readonly number[]) => `p50 ${percentile(values, 50).toFixed(1)} / p95 ${percentile(values, 95).toFixed(1)} ms`;

for (const cli of [CLI, BASELINE].filter((file): file is string => file !== undefined)) {
  if (!existsSync(cli)) {
    console.error(`${cli} is missing: npm run bench:lsp-warm builds dist/ first; a baseline is built by hand (see docs/PERFORMANCE.md)`);
    process.exit(1);
  }
}

const root = KEEP ? path.resolve(KEEP) : mkdtempSync(path.join(tmpdir(), 'relata-bench-lsp-warm-'));
const folder = path.join(root, 'folder');
const data = path.join(root, 'data');
const scifact = (process.env.RELATA_BENCH_CLAIMS === '1' || (SOURCE !== undefined && /scifact/i.test(SOURCE))) && scifactAvailable();
if (!existsSync(folder)) {
  mkdirSync(root, { recursive: true });
  if (SOURCE) cpSync(SOURCE, folder, { recursive: true, preserveTimestamps: true });
  else writeCorpus(folder, FILES, 8);
}
const storeDir = dataDirFor(folder, { dataLocation: data } as ServerSettings);
if (FROM_STORE && !existsSync(storeDir)) {
  // SQLite's online backup: a consistent copy even while eval:scifact reads or writes the original.
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  const source = new Database(path.join(FROM_STORE, 'relata.sqlite'), { readonly: true });
  await source.backup(path.join(storeDir, 'relata.sqlite'));
  source.close();
  chmodSync(path.join(storeDir, 'relata.sqlite'), 0o600);
  cpSync(path.join(FROM_STORE, 'blobs'), path.join(storeDir, 'blobs'), { recursive: true });
  const copy = new Database(path.join(storeDir, 'relata.sqlite'));
  copy.prepare(`UPDATE meta SET value = ? WHERE key = 'folder_root'`).run(folder);
  copy.close();
}
/** The workspace the store holds the folder under (a snapshot's own), else the bench's. */
const WORKSPACE = existsSync(path.join(storeDir, 'relata.sqlite'))
  ? (() => {
      const store = new Database(path.join(storeDir, 'relata.sqlite'), { readonly: true });
      const recorded = store.prepare(`SELECT workspace FROM meta WHERE key = 'folder_root'`).pluck().get() as string | undefined;
      store.close();
      return recorded ?? 'bench-lsp-warm';
    })()
  : 'bench-lsp-warm';
const queries = scifact ? [...loadClaims().values()].map((claim) => claim.text) : GENERATED_QUERIES;
const queryAt = (n: number) => queries[n % queries.length]!;

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`folder: ${SOURCE ?? `${FILES} generated files`}; embedding model: default (USE-lite); ${MEASURED} queries (${scifact ? 'SciFact claims' : 'generated-vocabulary queries'}), limit ${LIMIT}`);

interface Server {
  name: string;
  connection: ProtocolConnection;
  watching: Promise<void>;
  stop(): Promise<void>;
}

async function startServer(name: string, cli: string, dataLocation: string): Promise<Server> {
  const started = startBenchServer(cli, { workspace: WORKSPACE });
  const { connection } = started;
  let watched: () => void;
  let failed: (error: Error) => void;
  const watching = new Promise<void>((resolve, reject) => ((watched = resolve), (failed = reject)));
  connection.onNotification(StatusNotification.type, (report) => {
    const status = report.folders[0];
    if (status?.state === 'watching') watched();
    if (status?.state === 'failed') failed(new Error(`${name}: the folder failed: ${status.reason}`));
  });
  const server: Server = {
    name,
    connection,
    watching,
    stop: () => started.stop(name),
  };
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: { window: { workDoneProgress: true } },
    workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'folder' }],
    initializationOptions: { settings: { dataLocation, embeddingModel: 'default' } },
  });
  await connection.sendNotification('initialized', {});
  return server;
}

/** An embedder that hands back a vector made beforehand: the search without the query's embedding. */
function madeVector(of: Embedder, vector: Float32Array): Embedder {
  return { descriptor: of.descriptor, embed: async () => [vector], countTokens: () => 0, close: async () => {} };
}

const resultKey = (response: SearchResponse | undefined) =>
  JSON.stringify((response?.results ?? []).map((result) => [result.item_id, result.query_relevance, result.passage?.chunk_id ?? null]));

interface Sample {
  embeddingMs: number;
  inProcessMs: number;
  inProcessExclMs: number;
  rounds: Map<string, { ms: number; pingMs: number; bytes: number; encodeMs: number; decodeMs: number; differs: boolean }>;
}

const servers: Server[] = [];
try {
  const started = performance.now();
  const current = await startServer('this build', CLI, data);
  servers.push(current);
  await current.watching;
  console.log(`indexed and watching after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (BASELINE) {
    // The baseline gets its own copy of the finished store, so it has nothing to index.
    const baselineData = path.join(root, 'data-baseline');
    await current.stop();
    servers.length = 0;
    rmSync(baselineData, { recursive: true, force: true });
    cpSync(data, baselineData, { recursive: true });
    const again = await startServer('this build', CLI, data);
    servers.push(again, await startServer('baseline', BASELINE, baselineData));
    await Promise.all(servers.map((server) => server.watching));
  }

  const { store } = await openStoreWithBlobs({ location: { backend: 'sqlite', dataDir: storeDir }, workspace: WORKSPACE, access: 'read' });
  const embedder = (await queryEmbedder(parseEmbeddingChoice('default'), { loadNow: true }))!;
  const params = (query: string): SearchParams => ({ query, limit: LIMIT });

  const samples: Sample[] = [];
  for (let n = 0; n < WARM_UP + MEASURED; n += 1) {
    const query = queryAt(n);
    const sample: Sample = { embeddingMs: 0, inProcessMs: 0, inProcessExclMs: 0, rounds: new Map() };
    // The whole search first, so it meets this query's pages no warmer than a server does.
    const inProcess = async () => {
      let at = performance.now();
      const response = await searchWorkspace(store, embedder, query, { limit: LIMIT });
      sample.inProcessMs = performance.now() - at;
      at = performance.now();
      const [vector] = (await embedder.embed([query])) as [Float32Array];
      sample.embeddingMs = performance.now() - at;
      at = performance.now();
      await searchWorkspace(store, madeVector(embedder, vector), query, { limit: LIMIT });
      sample.inProcessExclMs = performance.now() - at;
      return response;
    };
    const overLsp = async (server: Server, expected: string) => {
      const pingAt = performance.now();
      await server.connection.sendRequest('relata/benchPing').catch(() => undefined);
      const pingMs = performance.now() - pingAt;
      const at = performance.now();
      const answer = await server.connection.sendRequest(SearchRequest.type, params(query));
      const ms = performance.now() - at;
      let encodeAt = performance.now();
      const text = JSON.stringify(answer);
      const encodeMs = performance.now() - encodeAt;
      encodeAt = performance.now();
      const decoded = JSON.parse(text) as { folders: FolderSearch[] };
      const decodeMs = performance.now() - encodeAt;
      const differs = resultKey(decoded.folders[0]?.response) !== expected;
      sample.rounds.set(server.name, { ms, pingMs, bytes: Buffer.byteLength(text), encodeMs, decodeMs, differs });
    };
    // Alternate which server goes first, so neither always meets a cache the other warmed.
    const expected = resultKey(await inProcess());
    const order = n % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) await overLsp(server, expected);
    if (n >= WARM_UP) samples.push(sample);
  }
  await store.close();
  await embedder.close();

  const column = (pick: (sample: Sample) => number) => samples.map(pick);
  const inProcess = column((s) => s.inProcessMs);
  const inProcessExcl = column((s) => s.inProcessExclMs);
  console.log(`\nload when measured: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`query embedding alone:              ${figures(column((s) => s.embeddingMs))}`);
  console.log(`(a) in-process, incl. embedding:    ${figures(inProcess)}`);
  console.log(`(a) in-process, excl. embedding:    ${figures(inProcessExcl)}`);
  // What the search cost before the query's embedding overlapped the other paths: one, then the other.
  const sequential = column((s) => s.embeddingMs + s.inProcessExclMs);
  console.log(`(a) embedding + excl., one after the other: ${figures(sequential)}`);
  for (const server of servers) {
    const rounds = samples.map((sample) => sample.rounds.get(server.name)!);
    const ms = rounds.map((round) => round.ms);
    const pings = rounds.map((round) => round.pingMs);
    const serverMs = rounds.map((round) => round.ms - round.pingMs);
    console.log(`(b) relata/search, ${server.name}:`);
    console.log(`    round trip:                     ${figures(ms)}`);
    console.log(`    transport alone (unknown method):  ${figures(pings)}`);
    console.log(`    server (round trip − transport):   ${figures(serverMs)}`);
    console.log(
      `    answer: ${Math.round(percentile(rounds.map((r) => r.bytes), 50))} bytes p50 (max ${Math.max(...rounds.map((r) => r.bytes))}); ` +
        `JSON encode ${figures(rounds.map((r) => r.encodeMs))}, decode ${figures(rounds.map((r) => r.decodeMs))} (this process)`,
    );
    console.log(
      `    ratio to in-process, p50: ${(percentile(ms, 50) / percentile(inProcess, 50)).toFixed(2)}× incl. embedding, ` +
        `${(percentile(ms, 50) / percentile(inProcessExcl, 50)).toFixed(2)}× excl.; p95: ` +
        `${(percentile(ms, 95) / percentile(inProcess, 95)).toFixed(2)}× incl., ${(percentile(ms, 95) / percentile(inProcessExcl, 95)).toFixed(2)}× excl.`,
    );
    console.log(
      `    ratio to embedding + excl. one after the other, p50: ${(percentile(ms, 50) / percentile(sequential, 50)).toFixed(2)}×, p95: ${(percentile(ms, 95) / percentile(sequential, 95)).toFixed(2)}×`,
    );
    console.log(`    answers whose results differ from in-process: ${rounds.filter((round) => round.differs).length} of ${rounds.length}`);
  }
} finally {
  for (const server of servers) await server.stop();
  if (!KEEP) rmSync(root, { recursive: true, force: true });
}
