// npm run bench:folderSearch -- --dir DIR — where a search's time goes in the store of a
// `npm run bench:folder -- --dir DIR` run (100,000 notes: names shared by thousands of notes,
// identifiers in most titles, the folder's real text), which bench:search's synthetic store does
// not have. The run's own queries are searched as the language server's search threads open the
// store (to read; graphs answer while they catch up), each store call timed; the query is not
// embedded, so the vector path is left out (bench:search measures it). Only reads: it may run
// beside the benchmark that is indexing the folder, whose load it then shares (printed).
//
//   RELATA_BENCH_BASELINE=DIR   a checkout of another commit (its node_modules linked) searching
//                               the same store in the same loop, alternating query by query
//   RELATA_BENCH_ROUNDS=3       rounds of the run's first 20 queries (the first round is not counted)
//
// Prints figures; asserts nothing.

import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { dataDirFor } from '../../server/src/lsp/folderSession.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openStore, type OpenStoreOptions } from '../../server/src/store/index.ts';
import type { ServerSettings } from '../../shared/protocol.ts';
import { timedStore, type StoreCallTimes } from '../support/timedStore.ts';

const { values } = parseArgs({ options: { dir: { type: 'string' } } });
if (!values.dir) {
  console.error('usage: npm run bench:folderSearch -- --dir DIR (the --dir of a bench:folder run)');
  process.exit(2);
}
const root = path.resolve(values.dir);
const statePath = path.join(root, 'bench-state.json');
if (!existsSync(statePath)) {
  console.error(`${statePath} is missing: run \`npm run bench:folder -- --dir ${values.dir}\` first`);
  process.exit(2);
}
const queries = (JSON.parse(readFileSync(statePath, 'utf8')) as { written?: { queries: string[] } }).written?.queries.slice(0, 20) ?? [];
const ROUNDS = Number(process.env.RELATA_BENCH_ROUNDS ?? 3);
// The same settings bench:folder gives its server, so the same data directory.
const dataDir = dataDirFor(path.join(root, 'folder'), { dataLocation: path.join(root, 'data'), embeddingModel: 'default' } as ServerSettings);

/** As the language server's search thread opens it (ranking/searchThread.ts). */
const asSearchThread = (): OpenStoreOptions => ({
  location: { backend: 'sqlite', dataDir },
  workspace: 'bench-folder',
  access: 'read',
  exactWhileCatchingUp: false,
  holdVectors: false,
});

interface Build {
  name: string;
  search: typeof searchWorkspace;
  store: WorkspaceStore;
  spent: StoreCallTimes;
  wall: number[];
}

const builds: Build[] = [{ name: 'this build', search: searchWorkspace, store: openStore(asSearchThread()), spent: new Map(), wall: [] }];
const baseline = process.env.RELATA_BENCH_BASELINE;
if (baseline) {
  const from = (file: string) => pathToFileURL(path.join(path.resolve(baseline), file)).href;
  const { searchWorkspace: search } = (await import(from('server/src/ranking/search.ts'))) as typeof import('../../server/src/ranking/search.ts');
  const { openStore: open } = (await import(from('server/src/store/index.ts'))) as typeof import('../../server/src/store/index.ts');
  builds.push({ name: `baseline (${baseline})`, search, store: open(asSearchThread()), spent: new Map(), wall: [] });
}

const load = () => loadavg().map((value) => value.toFixed(1)).join(' ');
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; store ${dataDir}`);
console.log(`${queries.length} queries of the run, ${ROUNDS} rounds (the first not counted), load average ${load()}`);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const query of queries) {
    for (const build of builds) {
      const spent: StoreCallTimes = round === 0 ? new Map() : build.spent;
      const started = performance.now();
      await build.search(timedStore(build.store, spent), null, query);
      if (round > 0) build.wall.push(performance.now() - started);
    }
  }
}
console.log(`load average after: ${load()}`);

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
for (const build of builds) {
  const wall = [...build.wall].sort((a, b) => a - b);
  const searches = build.wall.length;
  console.log(`${build.name}: search without the query's embedding p50 ${percentile(wall, 0.5).toFixed(0)} ms, p95 ${percentile(wall, 0.95).toFixed(0)} ms over ${searches}`);
  for (const [name, { ms, calls }] of [...build.spent].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`    ${name.padEnd(24)} ${(ms / searches).toFixed(1).padStart(7)} ms a search (${(calls / searches).toFixed(1)} calls)`);
  }
  await build.store.close();
}
