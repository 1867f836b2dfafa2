// npm run bench:ingest — throughput of the parse + chunk stages (and the whole pipeline) on the
// real Markdown knowledge base and on 5,000 generated Markdown files, with peak RSS.
// Prints figures; asserts nothing (benchmarks are not tests).

import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { writeCorpus } from '../support/generateCorpus.ts';
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
