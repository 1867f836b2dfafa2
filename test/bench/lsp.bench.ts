// npm run bench:lsp — the language server as an editor meets it: the built `dist/cli.js serve
// --stdio` as a child process and one workspace folder of generated documents, indexed cold.
// Measures, from each request's send to its answer:
//   (a) one search a second while the folder is being indexed (what a person typing waits), also
//       without the ones that waited while the burst (b) was under way, which are not single searches;
//   (b) a burst of 200 concurrent `relata/search` requests (varied queries) fired while indexing,
//       once the server reports about half of the corpus's passages chunked (so the queries have
//       something to find; embedding above all is still ahead);
//   (c) the same burst once indexing has finished;
//   (d) a `relata/reindexFile` sent mid-run, for the file the bulk run reaches last.
// Prints p50/p95/max and errors for each, the machine and its load (os.loadavg) before and after.
// Asserts nothing.
//
//   RELATA_BENCH_FILES=2000          files in the generated folder
//   RELATA_BENCH_EMBEDDING=default   the embedding model the server uses: default (USE-lite) or none
//   RELATA_BENCH_CPU_PROF=<dir>      run the server with --cpu-prof, its profiles written there
//
// The server reports how long its main thread kept its event loop waiting (eventLoopReport.ts):
// those lines are printed at the end.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InitializeRequest } from 'vscode-languageserver-protocol/node';
import { ReindexFileRequest, SearchRequest, StatusNotification, type StatusReport } from '../../shared/protocol.ts';
import { CORPUS_QUERIES, writeCorpus } from '../support/generateCorpus.ts';
import { startBenchServer } from '../support/benchServer.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const FILES = Number(process.env.RELATA_BENCH_FILES ?? 2000);
const EMBEDDING = process.env.RELATA_BENCH_EMBEDDING ?? 'default';
const CONCURRENT = 200;
const PROBE_EVERY_MS = 1000;
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const CPU_PROF = process.env.RELATA_BENCH_CPU_PROF;

// Words of generateCorpus.ts's vocabulary, alone and combined, a few phrases it never contains,
// and a name, so the requests exercise the lexical, vector and entity paths unevenly.
const QUERIES = [
  ...CORPUS_QUERIES,
  'operator',
  'timeline of the cause and action',
  'Example Ltd',
  'quarterly revenue forecast',
  'how much did the repair cost',
  'bay 4 shipment',
  'record 120',
  'Document 42',
  'leak',
  'inspection summary budget delivery',
  'what went wrong with the forklift',
  'insurance claim for flood damage',
  'checklist training review approval vendor',
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');
/** "p50 …, p95 …, max …" of some latencies. */
const spread = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted.length === 0 ? 'no answers' : `p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, max ${ms(sorted.at(-1)!)}`;
};

if (!existsSync(CLI)) {
  console.error('dist/cli.js is missing: npm run bench:lsp builds it first (npm run build)');
  process.exit(1);
}

const root = mkdtempSync(path.join(tmpdir(), 'relata-bench-lsp-'));
const folder = path.join(root, 'folder');
const generated = performance.now();
writeCorpus(folder, FILES, 8);
// generateCorpus.ts names file n after n % 7 and n % 10: the last one the bulk run reaches.
const lastFile = path.join(folder, `group-${(FILES - 1) % 7}`, `doc-${FILES - 1}.md`);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average (1, 5, 15 min) ${load()}`);
console.log(`corpus: ${FILES} generated files in ${((performance.now() - generated) / 1000).toFixed(1)} s; embedding model: ${EMBEDDING}`);

const profiling = CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(CPU_PROF)] : [];
const server = startBenchServer(CLI, { workspace: 'bench-lsp', nodeArgs: profiling, env: { RELATA_REPORT_EVENT_LOOP: '1' } });
const { connection } = server;
let latest: StatusReport | null = null;
let onStatus: (() => void) | undefined;
let indexingDone: () => void;
const indexingFinished = new Promise<void>((resolve) => (indexingDone = resolve));
connection.onNotification(StatusNotification.type, (report) => {
  latest = report;
  onStatus?.();
  if (report.folders[0]?.state === 'watching') indexingDone();
});
connection.listen();

const folderStatus = () => (latest as StatusReport | null)?.folders[0];
const indexing = () => folderStatus()?.state !== 'watching';
/** generateCorpus.ts makes about two passages a file: fire once about half of them are stored. */
const FIRE_AT_CHUNKS = FILES;

/** One search a second while indexing, each answer's send and answer times kept (answered NaN for an error). */
function startProbe() {
  const probes: { sent: number; answered: number }[] = [];
  const waiting = new Set<Promise<void>>();
  const timer = setInterval(() => {
    if (!indexing()) return;
    const sent = performance.now();
    const request: Promise<void> = connection
      .sendRequest(SearchRequest.type, { query: 'crane inspection report', limit: 10 })
      .then(
        () => void probes.push({ sent, answered: performance.now() }),
        () => void probes.push({ sent, answered: Number.NaN }),
      )
      .finally(() => waiting.delete(request));
    waiting.add(request);
  }, PROBE_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await Promise.all(waiting);
    return probes;
  };
}

/** When each burst was under way: a probe waiting then is not a single search. */
const bursts: { from: number; to: number }[] = [];

/** CONCURRENT searches sent at once; prints their latencies, errors and how many found something. */
async function burst(label: string): Promise<void> {
  const fired = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, n) => {
      const sent = performance.now();
      try {
        const { folders } = await connection.sendRequest(SearchRequest.type, { query: QUERIES[n % QUERIES.length]!, limit: 10 });
        const failed = folders.find((answer) => answer.error !== undefined);
        return { latency: performance.now() - sent, error: failed ? `folder error: ${failed.error}` : null, results: folders[0]?.response?.results.length ?? 0 };
      } catch (error) {
        return { latency: performance.now() - sent, error: (error as Error).message, results: 0 };
      }
    }),
  );
  bursts.push({ from: fired, to: performance.now() });
  const errors = outcomes.filter((outcome) => outcome.error !== null);
  const status = folderStatus();
  console.log(`\n${label}: ${CONCURRENT} concurrent relata/search requests (${QUERIES.length} different queries), all sent at once:`);
  console.log(`  latency: ${spread(outcomes.map((outcome) => outcome.latency))}; all answered ${ms(performance.now() - fired)} after the first was sent`);
  console.log(`  errors: ${errors.length}${errors.length ? ` (${[...new Set(errors.map((e) => e.error))].join('; ')})` : ''}; answers with results: ${outcomes.filter((o) => o.results > 0).length}`);
  console.log(
    `  then: ${status?.state}, ${status?.items.indexed} indexed, ${status?.items.pending} pending, ${status?.embeddedChunks} of ${status?.chunks} chunks embedded, queue ${status?.queueDepth}; load ${load()}`,
  );
}

try {
  const started = performance.now();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: { window: { workDoneProgress: true } },
    workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'folder' }],
    initializationOptions: { settings: { dataLocation: path.join(root, 'data'), embeddingModel: EMBEDDING } },
  });
  console.log(`initialize answered in ${ms(performance.now() - started)}`);
  await connection.sendNotification('initialized', {});
  const stopProbe = startProbe();

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not report ${FIRE_AT_CHUNKS} passages within 10 min`)), 10 * 60_000);
    onStatus = () => {
      const status = folderStatus();
      if (status?.state === 'failed') reject(new Error(`the folder failed: ${status.reason}`));
      if ((status?.chunks ?? 0) >= FIRE_AT_CHUNKS || status?.state === 'watching') {
        clearTimeout(timer);
        onStatus = undefined;
        resolve();
      }
    };
  });
  const before = folderStatus()!;
  console.log(
    `after ${ms(performance.now() - started)}: ${before.state}, ${before.items.indexed} indexed, ${before.items.pending} pending, ` +
      `${before.chunks} chunks, ${before.embeddedChunks} embedded, queue ${before.queueDepth}`,
  );

  await burst('(b) during indexing');

  const reindexSent = performance.now();
  const wasIndexing = indexing();
  const reindexed = await connection.sendRequest(ReindexFileRequest.type, { uri: pathToFileURL(lastFile).href }).then(
    (answer) => answer.outcome,
    (error: Error) => `error: ${error.message}`,
  );
  const reindexMs = performance.now() - reindexSent;
  console.log(
    `\n(d) relata/reindexFile of ${path.relative(folder, lastFile)} sent ${wasIndexing ? 'during' : 'after'} the run: answered in ${ms(reindexMs)} ` +
      `(“${reindexed}”), indexing ${indexing() ? 'still running then' : 'finished by then'}`,
  );

  await indexingFinished;
  const indexedIn = performance.now() - started;
  const probe = await stopProbe();
  const answered = probe.filter(({ answered }) => !Number.isNaN(answered));
  const alone = answered.filter(({ sent, answered }) => !bursts.some(({ from, to }) => sent < to && answered > from));
  const latency = ({ sent, answered }: { sent: number; answered: number }) => answered - sent;

  console.log(`\n(a) one search a second while indexing (${probe.length} sent, ${probe.length - answered.length} errors): ${spread(answered.map(latency))}`);
  console.log(`    of which the ${alone.length} not waiting while a burst (b) was under way: ${spread(alone.map(latency))}`);
  console.log(`\ncold index of ${FILES} files finished ${ms(indexedIn)} after initialize; load ${load()}`);

  await burst('(c) after indexing');
  const loopLines = server.stderr().split('\n').filter((line) => line.startsWith('relata event loop:'));
  console.log(`\nthe server's event loop, every 10 s from the start:\n${loopLines.map((line) => `  ${line.slice('relata event loop: '.length)}`).join('\n')}`);
} finally {
  await server.stop('the server');
  rmSync(root, { recursive: true, force: true });
}
