// npm run bench:hostile — what one hostile file costs, as an editor meets it: for each input (a
// DOCX zip bomb, PDFs of 5k/30k/100k pages, one-line text files, 20 MB of prose,
// abbreviation-heavy text, a list nested 3,000 deep, JSON nested deeply), a folder holding it and one ordinary note is opened by
// the built `dist/cli.js serve --stdio`, and a search is sent every 200 ms until the folder is
// indexed. Prints, per input: the time until the folder was indexed, the server's peak RSS
// (Linux: VmHWM, worker threads included), each file's outcome (indexed / failed + reason) and
// the search latency p50/max while it was indexed. Runs under the default limits (512 MB, 60 s per
// file). Asserts nothing.
//
//   RELATA_BENCH_ONLY=pdf          run only the inputs whose name contains this

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InitializeRequest } from 'vscode-languageserver-protocol/node';
import { FileStatusRequest, SearchRequest, StatusNotification, type FolderStatus } from '../../shared/protocol.ts';
import { deeplyNestedJsonMarkdown, deeplyNestedList, docxBomb, manyPagePdf } from '../support/hugeInputs.ts';
import { startBenchServer } from '../support/benchServer.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const MB = 1024 * 1024;
const PROBE_EVERY_MS = 200;
/** A folder still indexing after this long is reported as such and the next input runs. */
const CASE_LIMIT_MS = 4 * 60_000;
const NOTE = '# Crane inspection\n\nThe crane in bay four passed its inspection on Monday; the gantry leak was repaired.\n';

interface HostileInput {
  name: string;
  file: string;
  make: () => Buffer | string;
}

const oneLine = (bytes: number) => 'crane inspection report for the gantry in bay four '.repeat(Math.ceil(bytes / 52)).slice(0, bytes);
const abbreviations = (bytes: number) =>
  'Dr. A. B. Smith, Ph.D., of Acme Corp. Ltd. met Mr. J. R. R. Doe at 10 a.m. on Jan. 5 re: the U.S.A. vs. E.U. deal, i.e. approx. 3 mi. from St. Mary St., etc. '
    .repeat(Math.ceil(bytes / 150))
    .slice(0, bytes);

/** Ordinary paragraphs naming companies, people, sums and dates, so every extractor has work. */
const prose = (bytes: number) =>
  ('The crane in bay four was inspected on Monday by the night shift, and the operator filed a report. ' +
    'Acme Holdings Ltd. paid $4.5 million to Dr. Jane Smith on 5 January 2024 for the gantry repairs. ' +
    'Revenue rose 12% in the third quarter, the board said, while the harbour authority expects 40 more cranes.\n\n')
    .repeat(Math.ceil(bytes / 300))
    .slice(0, bytes);

const INPUTS: HostileInput[] = [
  { name: 'DOCX zip bomb (inflates to 300 MB)', file: 'bomb.docx', make: () => docxBomb(300) },
  { name: 'PDF, 5,000 pages', file: 'pages-5k.pdf', make: () => manyPagePdf(5_000) },
  { name: 'PDF, 30,000 pages', file: 'pages-30k.pdf', make: () => manyPagePdf(30_000) },
  { name: 'PDF, 100,000 pages', file: 'pages-100k.pdf', make: () => manyPagePdf(100_000) },
  { name: 'text, one line of 1 MB', file: 'line-1mb.txt', make: () => oneLine(1 * MB) },
  { name: 'text, one line of 4 MB', file: 'line-4mb.txt', make: () => oneLine(4 * MB) },
  { name: 'text, one line of 49 MB', file: 'line-49mb.txt', make: () => oneLine(49 * MB) },
  { name: 'text, 20 MB of prose', file: 'prose-20mb.txt', make: () => prose(20 * MB) },
  { name: 'text, 512 KB of abbreviations', file: 'abbreviations.txt', make: () => abbreviations(512 * 1024) },
  { name: 'Markdown, list nested 3,000 deep (9 MB)', file: 'nested-list.md', make: () => deeplyNestedList(3_000, 9 * MB) },
  { name: 'Markdown, JSON nested 100,000 deep', file: 'nested-json.md', make: () => deeplyNestedJsonMarkdown(100_000) },
];

interface Measured {
  seconds: number;
  peakRssMb: number | null;
  outcome: string;
  note: string;
  searches: number[];
  searchErrors: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

function peakRssMb(pid: number): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

async function measure(input: HostileInput, root: string): Promise<Measured> {
  const folder = path.join(root, input.file.replace(/\W/g, '-'));
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, input.file), input.make());
  writeFileSync(path.join(folder, 'note.md'), NOTE);

  const server = startBenchServer(CLI, { workspace: 'bench-hostile' });
  const { connection } = server;
  let settled: (status: FolderStatus) => void;
  const indexed = new Promise<FolderStatus>((resolve) => (settled = resolve));
  connection.onNotification(StatusNotification.type, (report) => {
    const status = report.folders[0];
    if (status && (status.state === 'watching' || status.state === 'failed')) settled(status);
  });
  connection.listen();

  const searches: number[] = [];
  let searchErrors = 0;
  const waiting = new Set<Promise<void>>();
  try {
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: { window: { workDoneProgress: true } },
      workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'folder' }],
      initializationOptions: { settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none' } },
    });
    const started = performance.now();
    await connection.sendNotification('initialized', {});
    const probe = setInterval(() => {
      const sent = performance.now();
      const request: Promise<void> = connection
        .sendRequest(SearchRequest.type, { query: 'crane inspection', limit: 10 })
        .then(
          () => void searches.push(performance.now() - sent),
          () => void (searchErrors += 1),
        )
        .finally(() => waiting.delete(request));
      waiting.add(request);
    }, PROBE_EVERY_MS);
    const limit = new Promise<null>((resolve) => setTimeout(() => resolve(null), CASE_LIMIT_MS).unref());
    const status = await Promise.race([indexed, limit]);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(probe);
    await Promise.all(waiting);
    const { folders } = await connection.sendRequest(FileStatusRequest.type, {});
    const files = folders[0]?.files ?? [];
    const describe = (file: string) => {
      const item = files.find((candidate) => candidate.path === file);
      if (!item) return 'no item';
      return item.status === 'failed' || item.status === 'skipped' ? `${item.status}: ${item.reason}` : item.status;
    };
    return {
      seconds,
      peakRssMb: peakRssMb(server.pid),
      outcome: status === null ? `still indexing after ${CASE_LIMIT_MS / 60_000} min (${describe(input.file)})` : describe(input.file),
      note: describe('note.md'),
      searches: searches.sort((a, b) => a - b),
      searchErrors,
    };
  } finally {
    await server.stop('  the server');
  }
}

if (!existsSync(CLI)) {
  console.error('dist/cli.js is missing: npm run bench:hostile builds it first (npm run build)');
  process.exit(1);
}

const only = process.env.RELATA_BENCH_ONLY;
const root = mkdtempSync(path.join(tmpdir(), 'relata-bench-hostile-'));
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GB, Node ${process.version}`);
console.log('each folder: the input + note.md; default limits (512 MB heap and 60 s per job, 2 stage-thread lanes); embedding off\n');
const started = performance.now();
try {
  for (const input of INPUTS.filter((candidate) => !only || candidate.name.toLowerCase().includes(only.toLowerCase()))) {
    const result = await measure(input, root);
    const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(0)} ms`);
    console.log(
      `${input.name}\n` +
        `  indexed in ${result.seconds.toFixed(1)} s, peak RSS ${result.peakRssMb === null ? 'n/a' : `${result.peakRssMb.toFixed(0)} MB`}\n` +
        `  ${input.file}: ${result.outcome}\n` +
        `  note.md: ${result.note}\n` +
        `  search meanwhile: ${result.searches.length} answered, ${result.searchErrors} errors, ` +
        `p50 ${ms(percentile(result.searches, 50))}, max ${ms(result.searches.at(-1) ?? NaN)}`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(`\ntotal ${((performance.now() - started) / 60_000).toFixed(1)} min`);
