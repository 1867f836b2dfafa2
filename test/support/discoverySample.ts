// Discovery per item on a finished store, in the calling process: a seeded sample of its indexed
// items, each discovered again as the pipeline's discover stage does, timed in wall clock and in
// process CPU (which a shared machine's load inflates less). bench:folder's last stage, and its
// --sample-discovery on a copy of a run's store taken while the run goes on.
//
// The process starts cold, as a restarted language server does: nothing a lane remembers across
// items (phrase choices, similarity baselines) is known yet, so the figure is what a fresh
// process pays, the same at every size.

import Database from 'better-sqlite3';
import path from 'node:path';
import { discoverItem } from '../../server/src/discover/discoverItem.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/index.ts';
import { DATABASE_FILE } from '../../server/src/store/dataDir.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { seededRandom } from './generateCorpus.ts';

export interface DiscoverySample {
  /** Indexed items in the store. */
  items: number;
  modelId: string | null;
  /** Per sampled item: wall clock, process CPU (ms) and candidates weighed. */
  wall: number[];
  cpu: number[];
  candidates: number[];
  /** The first item's wall clock, which also loads the vector index: not in the sample. */
  firstMs: number;
}

export async function sampleDiscovery(dataDir: string, workspace: string, size: number, seed: number): Promise<DiscoverySample> {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  const modelId = (db.prepare('SELECT model_id FROM vectors WHERE workspace = ? LIMIT 1').pluck().get(workspace) as string | undefined) ?? null;
  db.close();
  const store = openSqliteStore({ dataDir, workspace });
  try {
    const items = (await store.listItems()).filter((item) => item.status === 'indexed');
    const random = seededRandom(seed);
    const sample = items.sort(() => random() - 0.5).slice(0, size + 1);
    const first = performance.now();
    await discoverItem(store, sample[0]!.id, { modelId, thresholds: DEFAULT_THRESHOLDS });
    const result: DiscoverySample = { items: items.length, modelId, wall: [], cpu: [], candidates: [], firstMs: performance.now() - first };
    for (const item of sample.slice(1)) {
      const started = performance.now();
      const used = process.cpuUsage();
      const outcome = await discoverItem(store, item.id, { modelId, thresholds: DEFAULT_THRESHOLDS });
      const spent = process.cpuUsage(used);
      result.wall.push(performance.now() - started);
      result.cpu.push((spent.user + spent.system) / 1000);
      result.candidates.push(outcome.candidates);
    }
    return result;
  } finally {
    await store.close();
  }
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};

/** One line: the sample's wall clock and CPU per item (p50 / p95 / max) and its candidates. */
export function describeSample(sample: DiscoverySample): string {
  const spread = (values: readonly number[]) => `p50 ${percentile(values, 50).toFixed(0)} / p95 ${percentile(values, 95).toFixed(0)} / max ${Math.max(...values).toFixed(0)} ms`;
  return (
    `at ${sample.items} items (model ${sample.modelId ?? 'none'}), ${sample.wall.length} items: wall ${spread(sample.wall)}; CPU ${spread(sample.cpu)}; ` +
    `candidates p50 ${percentile(sample.candidates, 50)}, max ${Math.max(...sample.candidates)}; the first (vector index loaded) ${sample.firstMs.toFixed(0)} ms`
  );
}
