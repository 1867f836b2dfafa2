// npm run bench:lsp — the language server as an editor meets it: the built `dist/cli.js serve
// --stdio` as a child process, one workspace folder of generated documents, and 50 concurrent
// `relata/search` requests (varied queries) fired while the folder is being indexed, as soon as
// the server reports about half of the corpus's passages chunked (so the queries have something to
// find; the rest of the work, embedding above all, is still ahead). Prints the errors (an LSP error, or a folder that answered with an error),
// p50/p95/max latency from each request's send to its answer, and whether indexing was still
// running when the last one answered. Beside the burst, one search a second from `initialized`
// on (the probe) shows the longest an editor would wait at any point of the run. Asserts nothing.
//
//   RELATA_BENCH_FILES=2000          files in the generated folder
//   RELATA_BENCH_EMBEDDING=default   the embedding model the server uses: default (USE-lite) or none

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  InitializeRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageserver-protocol/node';
import { SearchRequest, StatusNotification, StatusRequest, type StatusReport } from '../../shared/protocol.ts';
import { writeCorpus } from '../support/generateCorpus.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const FILES = Number(process.env.RELATA_BENCH_FILES ?? 2000);
const EMBEDDING = process.env.RELATA_BENCH_EMBEDDING ?? 'default';
const CONCURRENT = 50;
const PROBE_EVERY_MS = 1000;
/** How long the probe goes on after the burst has answered (unless indexing finishes first). */
const PROBE_AFTER_MS = 30_000;
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

// Words of generateCorpus.ts's vocabulary, alone and combined, a few phrases it never contains,
// and a name, so the requests exercise the lexical, vector and entity paths unevenly.
const QUERIES = [
  'crane inspection',
  'forklift incident report',
  'supplier invoice approval',
  'warehouse sprinkler leak repair',
  'budget',
  'maintenance schedule for the dock',
  'safety training checklist',
  'who approved the contract refurbishment',
  'pallet shipment delivery delay',
  'sensor alarm on the night shift',
  'vendor audit policy review',
  'cost of the gantry crane',
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

if (!existsSync(CLI)) {
  console.error('dist/cli.js is missing: npm run bench:lsp builds it first (npm run build)');
  process.exit(1);
}

const root = mkdtempSync(path.join(tmpdir(), 'relata-bench-lsp-'));
const folder = path.join(root, 'folder');
const generated = performance.now();
writeCorpus(folder, FILES, 8);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);
console.log(`corpus: ${FILES} generated files in ${((performance.now() - generated) / 1000).toFixed(1)} s; embedding model: ${EMBEDDING}`);

const child = spawn(process.execPath, [CLI, 'serve', '--stdio'], {
  env: { ...process.env, RELATA_WORKSPACE: 'bench-lsp' },
  stdio: ['pipe', 'pipe', 'pipe'],
});
let stderr = '';
child.stderr.on('data', (chunk) => (stderr += chunk));
const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
let latest: StatusReport | null = null;
let onStatus: (() => void) | undefined;
let indexingDone: () => void;
const indexingFinished = new Promise<void>((resolve) => (indexingDone = resolve));
connection.onNotification(StatusNotification.type, (report) => {
  latest = report;
  onStatus?.();
  if (report.folders[0]?.state === 'watching') indexingDone();
});
connection.onNotification('window/logMessage', () => undefined);
connection.listen();

const folderStatus = () => (latest as StatusReport | null)?.folders[0];
/** generateCorpus.ts makes about two passages a file: fire once about half of them are stored. */
const FIRE_AT_CHUNKS = FILES;

/** One search a second, each answer's latency kept with the state it was sent in. */
function startProbe(started: number) {
  const answers: { sentAt: number; latency: number; state: string }[] = [];
  const waiting = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const sent = performance.now();
    const state = folderStatus()?.state ?? 'opening';
    const request: Promise<void> = connection
      .sendRequest(SearchRequest.type, { query: 'crane inspection report', limit: 10 })
      .then(
        () => void answers.push({ sentAt: sent - started, latency: performance.now() - sent, state }),
        () => void answers.push({ sentAt: sent - started, latency: Number.NaN, state }),
      )
      .finally(() => waiting.delete(request));
    waiting.add(request);
  }, PROBE_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await Promise.all(waiting);
    return answers;
  };
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
  const stopProbe = startProbe(started);

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

  const fired = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, n) => {
      const sent = performance.now();
      try {
        const { folders } = await connection.sendRequest(SearchRequest.type, { query: QUERIES[n % QUERIES.length]!, limit: 10 });
        const failed = folders.find((answer) => answer.error !== undefined);
        return {
          latency: performance.now() - sent,
          error: failed ? `folder error: ${failed.error}` : null,
          results: folders[0]?.response?.results.length ?? 0,
          indexing: folderStatus()?.state === 'indexing',
        };
      } catch (error) {
        return { latency: performance.now() - sent, error: (error as Error).message, results: 0, indexing: folderStatus()?.state === 'indexing' };
      }
    }),
  );
  const wall = performance.now() - fired;
  const after = await connection.sendRequest(StatusRequest.type, {});
  const status = after.folders[0]!;
  await Promise.race([indexingFinished, new Promise((resolve) => setTimeout(resolve, PROBE_AFTER_MS))]);
  const probe = await stopProbe();

  const errors = outcomes.filter((outcome) => outcome.error !== null);
  const latencies = outcomes.map((outcome) => outcome.latency).sort((a, b) => a - b);
  console.log(`\n${CONCURRENT} concurrent relata/search requests (${QUERIES.length} different queries), all sent at once:`);
  console.log(`  errors: ${errors.length}${errors.length ? ` (${[...new Set(errors.map((e) => e.error))].join('; ')})` : ''}`);
  console.log(`  latency: p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, max ${ms(latencies.at(-1)!)}; all answered ${ms(wall)} after the first was sent`);
  console.log(`  answers with results: ${outcomes.filter((outcome) => outcome.results > 0).length} of ${CONCURRENT}`);
  console.log(
    `  indexing still running when they completed: ${outcomes.every((outcome) => outcome.indexing) && status.state === 'indexing' ? 'yes' : 'no'} ` +
      `(then: ${status.state}, ${status.items.indexed} indexed, ${status.items.pending} pending, ${status.embeddedChunks} of ${status.chunks} chunks embedded, queue ${status.queueDepth})`,
  );
  const probed = probe.filter((answer) => !Number.isNaN(answer.latency)).sort((a, b) => a.latency - b.latency);
  const slowest = probed.at(-1);
  console.log(
    `\nprobe (one search a second for the first ${ms(performance.now() - started)}, ${probe.length} sent, ${probe.length - probed.length} errors): ` +
      `p50 ${ms(percentile(probed.map((answer) => answer.latency), 50))}, max ${slowest ? ms(slowest.latency) : 'n/a'}` +
      (slowest ? ` (sent at ${(slowest.sentAt / 1000).toFixed(1)} s, while ${slowest.state})` : ''),
  );
} finally {
  await connection.sendRequest('shutdown').catch(() => undefined);
  await connection.sendNotification('exit').catch(() => undefined);
  const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 20_000))]);
  if (code === 'timeout') child.kill();
  else if (code !== 0) console.error(`the server exited with ${code}:\n${stderr.slice(-2000)}`);
  connection.dispose();
  rmSync(root, { recursive: true, force: true });
}
