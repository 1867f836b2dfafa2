// npm run bench:formats — what reading the formats people keep costs: for each format of
// documents-more (HTML, PPTX, ODP, XLSX, ODS, CSV, EPUB, ODT), a fresh Node process parses every
// file of it (REPEAT rounds, as the stage thread does: parseFile under the default limits) and
// reports files/s, MB/s and its peak RSS (Linux VmHWM: the process's high-water mark, baseline
// included; the baseline, a process that only loads the parsers, is printed first). Two
// generated inputs show the bounds: a CSV and an XLSX sheet of a million rows, each read up to
// the cell cap (each built by a process of its own, so the peak is the reader's). Asserts nothing.
//
//   node --import tsx test/bench/formats.bench.ts [format]   one format only

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { DOCUMENTS_MORE_DIR } from '../unit/parse-eval.ts';

const FORMATS = ['html', 'pptx', 'odp', 'xlsx', 'ods', 'csv', 'epub', 'odt'];
const REPEAT = 5;
const SELF = import.meta.filename;

function peakRssMb(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb > 0 ? kb / 1024 : process.resourceUsage().maxRSS / 1024;
}

/** Runs in a child of its own, so that building it costs the measured process nothing: a generated input, written to `file`. */
async function make(format: string, file: string): Promise<void> {
  if (format === 'million-row csv') {
    const lines = ['Item,Cost'];
    for (let i = 1; i <= 1_000_000; i++) lines.push(`Item ${i},${i}`);
    return writeFileSync(file, lines.join('\n'));
  }
  const { makeXlsx } = await import('../support/zipBuilders.ts');
  const rows: string[] = [];
  for (let i = 1; i <= 1_000_000; i++) rows.push(`<row r="${i}"><c><v>${i}</v></c><c><v>${i % 97}</v></c></row>`);
  writeFileSync(file, await makeXlsx([{ name: 'Huge', rowsXml: rows.join('') }]));
}

/** Runs in the child: parses one format's files (or the generated `file`) and prints one JSON line. */
async function measure(format: string, file?: string): Promise<void> {
  const { parseFile } = await import('../../server/src/parse/registry.ts');
  if (format === 'baseline') return void console.log(JSON.stringify({ format, peakMb: peakRssMb() }));
  let inputs: { name: string; bytes: Uint8Array }[];
  if (file !== undefined) {
    inputs = [{ name: path.basename(file), bytes: new Uint8Array(readFileSync(file)) }];
  } else {
    const folder = path.join(DOCUMENTS_MORE_DIR, format);
    inputs = readdirSync(folder)
      .sort()
      .map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(folder, name))) }));
  }
  const repeat = format.startsWith('million') ? 1 : REPEAT;
  let failed = 0;
  let blocks = 0;
  const started = performance.now();
  for (let round = 0; round < repeat; round++) {
    for (const input of inputs) {
      try {
        blocks += (await parseFile(input.bytes, input.name)).blocks.length;
      } catch {
        failed += 1;
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const bytes = inputs.reduce((sum, input) => sum + input.bytes.length, 0) * repeat;
  console.log(
    JSON.stringify({ format, files: inputs.length, failed: failed / repeat, blocks: blocks / repeat, filesPerSecond: (inputs.length * repeat) / seconds, mbPerSecond: bytes / 1e6 / seconds, peakMb: peakRssMb() }),
  );
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') return measure(process.argv[3]!, process.argv[4]);
  if (process.argv[2] === '--make') return make(process.argv[3]!, process.argv[4]!);
  if (!existsSync(DOCUMENTS_MORE_DIR)) {
    console.log(`documents-more not found at ${DOCUMENTS_MORE_DIR}: nothing to measure`);
    return;
  }
  const only = process.argv[2];
  const formats = only ? [only] : ['baseline', ...FORMATS, 'million-row csv', 'million-row xlsx'];
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; ${REPEAT} rounds per format`);
  console.log(['format'.padEnd(18), 'files', 'failed', 'files/s'.padStart(9), 'MB/s'.padStart(7), 'peak RSS MB'.padStart(12)].join('  '));
  const scratch = mkdtempSync(path.join(tmpdir(), 'relata-bench-formats-'));
  for (const format of formats) {
    const generated = format.startsWith('million-row') ? [path.join(scratch, format.endsWith('csv') ? 'huge.csv' : 'huge.xlsx')] : [];
    if (generated.length > 0) execFileSync(process.execPath, ['--import', 'tsx', SELF, '--make', format, generated[0]!]);
    const output = execFileSync(process.execPath, ['--import', 'tsx', SELF, '--child', format, ...generated], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const row = JSON.parse(output.trim().split('\n').pop()!) as { format: string; files?: number; failed?: number; filesPerSecond?: number; mbPerSecond?: number; peakMb: number };
    console.log(
      [
        row.format.padEnd(18),
        String(row.files ?? '').padStart(5),
        String(row.failed ?? '').padStart(6),
        (row.filesPerSecond?.toFixed(1) ?? '').padStart(9),
        (row.mbPerSecond?.toFixed(2) ?? '').padStart(7),
        row.peakMb.toFixed(0).padStart(12),
      ].join('  '),
    );
  }
  rmSync(scratch, { recursive: true, force: true });
}

await main();
