// Child process of `npm run bench:ingest` ("one large file"): indexes a folder holding one file,
// with embedding off, and prints one JSON line with the process's peak resident memory (VmHWM
// from /proc/self/status, which counts the stage threads too; resourceUsage().maxRSS elsewhere),
// the memory before the file was touched, the store's size, the main thread's longest stall and
// the time per stage. Run alone in
// its own process so the peak is this file's, not the benchmark's.
//   node --import tsx test/bench/ingestOneFile.ts <folder> <data dir>

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';

function statusMb(field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) / 1024;
  } catch {
    // Not Linux: the runtime's own figure, which is the peak.
  }
  return field === 'VmHWM' ? process.resourceUsage().maxRSS / 1024 : process.memoryUsage().rss / 2 ** 20;
}

const [folder, dataDir] = process.argv.slice(2) as [string, string];
const index = await FolderIndex.open({ folder, dataDir, workspace: 'bench', embedding: { kind: 'none' } });
const stageMs: Record<string, number> = {};
let report;
/** The main thread's longest stall: store writes of one huge item run on it. */
const stalls = monitorEventLoopDelay({ resolution: 20 });
let beforeMb: number;
try {
  await index.drain(); // starts the stage threads: their cost is the baseline, not the file's
  beforeMb = statusMb('VmRSS');
  stalls.enable();
  report = await index.index({
    onProgress: ({ last }) => {
      if (last?.type === 'job-finished') stageMs[last.job.stage] = (stageMs[last.job.stage] ?? 0) + last.elapsedMs;
    },
  });
} finally {
  await index.close();
}
const storeBytes = readdirSync(dataDir)
  .filter((name) => name.startsWith('relata.sqlite'))
  .reduce((sum, name) => sum + statSync(path.join(dataDir, name)).size, 0);
const file = report.files[0]!;
console.log(
  JSON.stringify({
    status: file.status,
    reason: file.reason,
    chunks: report.chunks,
    beforeMb,
    peakMb: statusMb('VmHWM'),
    storeMb: storeBytes / 2 ** 20,
    longestStallMs: stalls.max / 1e6,
    stageSeconds: Object.fromEntries(Object.entries(stageMs).map(([stage, ms]) => [stage, ms / 1000])),
  }),
);
