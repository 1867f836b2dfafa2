// The store a store-level benchmark measures: built once from its generator into a folder named by
// its size (kept between runs when RELATA_BENCH_STORE names a folder, else a temporary one
// removed at the end), opened like the language server opens it, with the machine printed first
// so every figure after it says where it was measured.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';

export interface BenchStore {
  store: WorkspaceStore;
  /** Closes the store and removes it unless it is kept. */
  close(): Promise<void>;
}

export async function openBenchStore(
  name: string,
  size: { items: number; relationships: number },
  build: (dataDir: string) => Promise<void>,
): Promise<BenchStore> {
  const kept = process.env.RELATA_BENCH_STORE;
  const root = kept ?? mkdtempSync(path.join(tmpdir(), `relata-bench-${name}-`));
  const dataDir = path.join(root, `${size.items}-${size.relationships}`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load ${loadavg()[0]!.toFixed(1)}`);
  if (!existsSync(dataDir)) {
    const started = performance.now();
    await build(dataDir);
    console.log(`store of ${size.items.toLocaleString('en')} items and ${size.relationships.toLocaleString('en')} relationships built in ${((performance.now() - started) / 1000).toFixed(0)} s (${dataDir})`);
  } else console.log(`store of an earlier run: ${dataDir}`);
  const store = openSqliteStore({ dataDir, workspace: 'bench' });
  return {
    store,
    async close() {
      await store.close();
      if (!kept) rmSync(root, { recursive: true, force: true });
    },
  };
}
