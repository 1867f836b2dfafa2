// npm run bench:sharedGraph -- --dir DIR — what one vector graph per language server process saves
// (store/sqlite/sharedGraph.ts) on the store of a `npm run bench:folder -- --dir DIR` run, against
// a graph per connection as before: the server's five connections that look vectors up (the main
// thread's, two search threads', two discovery lanes') are opened in one process, each asks for
// stored windows' neighbours, and the process's resident memory and the look-ups' times are
// printed. Each way runs in a process of its own, so that one's memory is not counted in the other's.
// Only reads the store's vectors; the shared graph's thread may save its graph, as the server's does.
//
//   RELATA_BENCH_LOOKUPS=200   look-ups per connection after the first (k = 10, stored windows as queries)
//
// Prints figures; asserts nothing.

import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as sqliteVec from 'sqlite-vec';
import { dataDirFor } from '../../server/src/lsp/folderSession.ts';
import { DATABASE_FILE } from '../../server/src/store/dataDir.ts';
import { openSqliteStore, type SqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { SharedGraph } from '../../server/src/store/sqlite/sharedGraph.ts';
import { vectorTableName } from '../../server/src/store/sqlite/vectorTables.ts';
import type { ServerSettings } from '../../shared/protocol.ts';
import { statusBytes } from '../support/processMemory.ts';

const WORKSPACE = 'bench-folder';
const LOOKUPS = Number(process.env.RELATA_BENCH_LOOKUPS ?? 200);
/** As the language server opens them: the main thread's, two search threads', two discovery lanes'. */
const CONNECTIONS = [
  { name: 'main thread', access: 'write', exactWhileCatchingUp: false },
  { name: 'search thread 1', access: 'read', exactWhileCatchingUp: false },
  { name: 'search thread 2', access: 'read', exactWhileCatchingUp: false },
  { name: 'discovery lane 1', access: 'write', exactWhileCatchingUp: true },
  { name: 'discovery lane 2', access: 'write', exactWhileCatchingUp: true },
] as const;

const { values } = parseArgs({ options: { dir: { type: 'string' }, way: { type: 'string' } } });
if (!values.dir) {
  console.error('usage: npm run bench:sharedGraph -- --dir DIR (the --dir of a bench:folder run)');
  process.exit(2);
}
const root = path.resolve(values.dir);
const dataDir = dataDirFor(path.join(root, 'folder'), { dataLocation: path.join(root, 'data'), embeddingModel: 'default' } as ServerSettings);
if (!existsSync(path.join(dataDir, DATABASE_FILE))) {
  console.error(`no store in ${dataDir}: run \`npm run bench:folder -- --dir ${values.dir}\` first`);
  process.exit(2);
}

const mib = (bytes: number | null) => (bytes === null ? '?' : `${Math.round(bytes / 1024 ** 2)} MiB`);
const rss = () => statusBytes(process.pid, 'VmRSS');
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** The store's model and a few hundred of its stored windows, as queries. */
function storedQueries(count: number): { modelId: string; windows: number; queries: Float32Array[] } {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  sqliteVec.load(db);
  try {
    const model = db.prepare('SELECT id, dims FROM embedding_models WHERE workspace = ? ORDER BY id LIMIT 1').get(WORKSPACE) as { id: string; dims: number };
    const { n, top } = db.prepare('SELECT COUNT(*) AS n, MAX(seq) AS top FROM vectors WHERE workspace = ? AND model_id = ?').get(WORKSPACE, model.id) as { n: number; top: number };
    const read = db.prepare(`SELECT embedding FROM ${vectorTableName(model.dims)} WHERE rowid = (SELECT MIN(seq) FROM vectors WHERE workspace = ? AND model_id = ? AND seq >= ?)`);
    const queries: Float32Array[] = [];
    for (let i = 0; i < count; i += 1) {
      const row = read.get(WORKSPACE, model.id, Math.floor(((i + 0.5) / count) * top)) as { embedding: Buffer } | undefined;
      if (row) queries.push(new Float32Array(row.embedding.buffer.slice(row.embedding.byteOffset, row.embedding.byteOffset + row.embedding.byteLength)));
    }
    return { modelId: model.id, windows: n, queries };
  } finally {
    db.close();
  }
}

async function measure(way: 'own' | 'shared'): Promise<void> {
  const { modelId, windows, queries } = storedQueries(LOOKUPS);
  const before = rss();
  const graph = way === 'shared' ? new SharedGraph({ location: { backend: 'sqlite', dataDir }, workspace: WORKSPACE }) : null;
  const stores: SqliteStore[] = CONNECTIONS.map((connection) =>
    openSqliteStore({ dataDir, workspace: WORKSPACE, access: connection.access, exactWhileCatchingUp: connection.exactWhileCatchingUp, holdVectors: false, sharedGraph: graph?.connect() }),
  );
  const firsts: string[] = [];
  for (const [n, store] of stores.entries()) {
    const started = performance.now();
    await store.searchVectorsMany(modelId, [queries[0]!], 10);
    firsts.push(`${CONNECTIONS[n]!.name}: first look-up ${((performance.now() - started) / 1000).toFixed(1)} s, RSS then ${mib(rss())}`);
  }
  // Every connection asking at once, as the server's threads do.
  const times: number[] = [];
  const allStarted = performance.now();
  await Promise.all(
    stores.map(async (store) => {
      for (const query of queries) {
        const started = performance.now();
        await store.searchVectorsMany(modelId, [query], 10);
        times.push(performance.now() - started);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  const allMs = performance.now() - allStarted;
  times.sort((a, b) => a - b);
  console.log(`${way === 'own' ? 'a graph per connection' : 'one shared graph'} (${windows.toLocaleString('en')} windows):`);
  for (const line of firsts) console.log(`  ${line}`);
  console.log(`  RSS before ${mib(before)}, after ${mib(rss())}, peak ${mib(statusBytes(process.pid, 'VmHWM'))}`);
  // In one process a connection's own graph answers synchronously, so its time is the look-up's
  // alone; a shared graph's includes the wait for the look-ups asked before it: the wall time of
  // all of them is the figure to compare.
  console.log(
    `  look-ups, five connections at once: ${times.length} in ${(allMs / 1000).toFixed(2)} s (${Math.round((times.length / allMs) * 1000)}/s); ` +
      `each p50 ${quantile(times, 0.5).toFixed(1)} / p95 ${quantile(times, 0.95).toFixed(1)} ms`,
  );
  for (const store of stores) await store.close();
  await graph?.close();
}

if (values.way === 'own' || values.way === 'shared') {
  await measure(values.way);
} else {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}; load ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  for (const way of ['own', 'shared']) {
    execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--dir', root, '--way', way], { stdio: 'inherit' });
  }
  console.log(`load after: ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
}
