// npm run bench:ingest — throughput of the parse + chunk stages (and the whole pipeline) on the
// real Markdown knowledge base and on 5,000 generated Markdown files, with peak RSS; then the peak
// memory of indexing one file just under the size cap (plain text and Markdown).
// Prints figures; asserts nothing (benchmarks are not tests).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { EXTRACTION_CAPS } from '../../server/src/extract/caps.ts';
import { SECTION_CHARS } from '../../server/src/parse/markdownSections.ts';
import { defaultPipelineSettings, MEBIBYTE } from '../../server/src/pipeline/settings.ts';
import { writeCorpus } from '../support/generateCorpus.ts';
import { largeDocument } from '../support/largeDocuments.ts';
import { EVAL_ROOT } from '../support/tempFolder.ts';

interface Measurement {
  corpus: string;
  files: number;
  megabytes: number;
  chunks: number;
  parseChunkSeconds: number;
  pipelineSeconds: number;
}

function folderBytes(folder: string): number {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(path.join(entry.parentPath, entry.name)).size, 0);
}

async function measure(corpus: string, folder: string): Promise<Measurement> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-'));
  // Parse and chunk only: embedding has its own benchmark (bench:embed).
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'bench', embedding: { kind: 'none' } });
  const stageMs = { ingest: 0, parse: 0, chunk: 0, embed: 0, extract: 0, discover: 0 };
  try {
    const started = performance.now();
    const report = await index.index({
      onProgress: ({ last }) => {
        if (last?.type === 'job-finished') stageMs[last.job.stage] += last.elapsedMs;
      },
    });
    return {
      corpus,
      files: report.items.indexed,
      megabytes: folderBytes(folder) / 1024 / 1024,
      chunks: report.chunks,
      parseChunkSeconds: (stageMs.parse + stageMs.chunk) / 1000,
      pipelineSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await index.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(result: Measurement): void {
  const rate = (n: number, s: number) => (n / s).toFixed(1);
  console.log(
    `${result.corpus}: ${result.files} files, ${result.megabytes.toFixed(2)} MB, ${result.chunks} chunks\n` +
      `  parse + chunk: ${result.parseChunkSeconds.toFixed(2)} s = ${rate(result.files, result.parseChunkSeconds)} files/s, ` +
      `${rate(result.megabytes, result.parseChunkSeconds)} MB/s\n` +
      `  whole pipeline (scan, hash, blob, store, FTS): ${result.pipelineSeconds.toFixed(2)} s = ` +
      `${rate(result.files, result.pipelineSeconds)} files/s, ${rate(result.megabytes, result.pipelineSeconds)} MB/s`,
  );
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);

const knowledgeBases = path.join(EVAL_ROOT, 'knowledge-bases');
if (existsSync(knowledgeBases)) print(await measure('knowledge-bases (Open Source Guides, EN + DE)', knowledgeBases));
else console.log(`skipped knowledge-bases: not found at ${knowledgeBases}`);

const generated = mkdtempSync(path.join(tmpdir(), 'relata-bench-corpus-'));
try {
  writeCorpus(generated, 5000, 7);
  print(await measure('5,000 generated files (Markdown, some text and JSON)', generated));
} finally {
  rmSync(generated, { recursive: true, force: true });
}

console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);

// One large file, each in a child process of its own (ingestOneFile.ts), so its peak memory is
// that file's alone: just under the default 50 MiB size cap, as plain text and as Markdown. The
// bound and what sets it are in docs/PERFORMANCE.md ("Memory for one large file").
const LARGE_FILE_BYTES = 48 * 2 ** 20;
const peaks: number[] = [];
for (const format of ['text', 'markdown'] as const) {
  const root = mkdtempSync(path.join(tmpdir(), 'relata-bench-large-'));
  try {
    const folder = path.join(root, 'folder');
    mkdirSync(folder);
    writeFileSync(path.join(folder, format === 'text' ? 'large.txt' : 'large.md'), largeDocument(LARGE_FILE_BYTES, format));
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'ingestOneFile.ts'), folder, path.join(root, 'data')], {
      encoding: 'utf8',
      // Extraction of 50 MB takes about a minute on a loaded 2-core machine: let it finish, so the peak includes it.
      env: { ...process.env, RELATA_PARSE_TIMEOUT_MS: String(10 * 60_000) },
      maxBuffer: 16 * 2 ** 20,
    });
    if (child.status !== 0) {
      console.log(`one ${format} file: the child failed (${child.status}): ${child.stderr.trim().split('\n').slice(-3).join(' ')}`);
      continue;
    }
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
    const stages = Object.entries(result.stageSeconds as Record<string, number>).map(([stage, s]) => `${stage} ${s.toFixed(1)} s`).join(', ');
    console.log(
      `one ${(LARGE_FILE_BYTES / 2 ** 20).toFixed(0)} MiB ${format} file: ${result.status}${result.reason ? ` (${result.reason})` : ''}, ${result.chunks} chunks\n` +
        `  peak RSS ${result.peakMb.toFixed(0)} MB (${result.beforeMb.toFixed(0)} MB before the file), store ${result.storeMb.toFixed(0)} MB, ` +
        `longest main-thread stall ${(result.longestStallMs / 1000).toFixed(1)} s; ${stages}`,
    );
    peaks.push(result.peakMb);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
// The documented bound (docs/PERFORMANCE.md, "Memory for one large file") and what sets it.
const settings = defaultPipelineSettings();
console.log(
  `one large file: peak RSS ${peaks.length ? Math.max(...peaks).toFixed(0) : '?'} MB at most over ${peaks.length} file(s); bounded by the file cap ` +
    `(${(settings.maxFileBytes / MEBIBYTE).toFixed(0)} MiB), ${settings.parseLanes} stage thread(s) × ${settings.parseMemoryMb} MB heap, ` +
    `the extraction caps (${EXTRACTION_CAPS.phrases.toLocaleString('en')} key phrases, ${EXTRACTION_CAPS.claims.toLocaleString('en')} claims, ` +
    `${EXTRACTION_CAPS.entities.toLocaleString('en')} entity mentions per item) and Markdown parsed in ${(SECTION_CHARS / MEBIBYTE).toFixed(0)} MiB sections`,
);
