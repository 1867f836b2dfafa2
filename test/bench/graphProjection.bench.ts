// npm run bench:graphProjection [-- --store FILE --windows N --dims 512,128,96] — what placing
// windows in the vector graph by their first principal components (store/sqlite/graphProjection.ts)
// costs in recall and saves in memory, on real windows: a store's stored vectors (the SciFact
// evaluation's by default, `npm run eval:scifact` writes it; a bench:folder run's
// data/folder-…/relata.sqlite for 100,000 notes). A seeded sample of N windows is the graph, 200
// other windows are the queries; the exact top 10 is computed by brute force. Each graph is built
// as the store builds its own (hnswlib, the store's M, efConstruction and efSearch, the components
// fitted on FITTED windows) and its candidates re-scored with the exact cosine, the leading k +
// rescoreBeyondK as the store does and 64 for comparison. Bytes a window are the saved graph's
// file size over N. Prints; asserts nothing.

import Database from 'better-sqlite3';
import hnswlib from 'hnswlib-node';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as sqliteVec from 'sqlite-vec';
import { fitProjection, FITTED, project } from '../../server/src/store/sqlite/graphProjection.ts';
import { VECTOR_INDEX_SETTINGS } from '../../server/src/store/sqlite/vectorIndex.ts';
import { seededRandom } from '../support/generateCorpus.ts';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: path.resolve('.relata-eval/scifact/data/relata.sqlite') },
    windows: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    dims: { type: 'string', default: `0,${VECTOR_INDEX_SETTINGS.graphDims},96` },
  },
});
const K = 10;
const QUERIES = Number(args.queries);
if (!existsSync(args.store)) {
  console.error(`${args.store}: no such store; run \`npm run eval:scifact\` first, or give --store a relata.sqlite with vectors (a bench:folder run's)`);
  process.exit(1);
}
const load = () => loadavg().map((value) => value.toFixed(1)).join(' ');
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load ${load()}`);

const db = new Database(args.store, { readonly: true });
sqliteVec.load(db);
const model = db.prepare('SELECT workspace, id, dims FROM embedding_models ORDER BY (SELECT COUNT(*) FROM vectors v WHERE v.workspace = embedding_models.workspace AND v.model_id = embedding_models.id) DESC LIMIT 1').get() as
  | { workspace: string; id: string; dims: number }
  | undefined;
if (!model) {
  console.error(`${args.store} holds no vectors`);
  process.exit(1);
}
const seqs = db.prepare('SELECT seq FROM vectors WHERE workspace = ? AND model_id = ? ORDER BY seq').pluck().all(model.workspace, model.id) as number[];
const random = seededRandom(32);
for (let i = seqs.length - 1; i > 0; i -= 1) {
  const j = Math.floor(random() * (i + 1));
  [seqs[i], seqs[j]] = [seqs[j]!, seqs[i]!];
}
const windows = Math.min(Number(args.windows), seqs.length - QUERIES);
const read = db.prepare(`SELECT embedding FROM vec_f32_${model.dims} WHERE rowid = ?`).pluck();
const vectorOf = (seq: number) => {
  const bytes = read.get(seq) as Buffer;
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};
const base = seqs.slice(0, windows).map(vectorOf);
const queries = seqs.slice(windows, windows + QUERIES).map(vectorOf);
db.close();
console.log(`${model.id} (${model.dims} dimensions), workspace ${model.workspace} of ${args.store}: ${windows} windows of ${seqs.length}, ${queries.length} other windows as queries`);

const norms = base.map((vector) => Math.hypot(...vector));
const cosine = (query: Float32Array, queryNorm: number, index: number) => {
  const vector = base[index]!;
  let dot = 0;
  for (let i = 0; i < vector.length; i += 1) dot += query[i]! * vector[i]!;
  return dot / (queryNorm * norms[index]!);
};
let started = performance.now();
const truth = queries.map((query) => {
  const norm = Math.hypot(...query);
  return base
    .map((_, index) => ({ index, similarity: cosine(query, norm, index) }))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, K)
    .map((hit) => hit.index);
});
console.log(`exact top ${K} by brute force: ${((performance.now() - started) / 1000).toFixed(1)} s; load ${load()}`);

const { m, efConstruction, efSearch, rescoreBeyondK } = VECTOR_INDEX_SETTINGS;
console.log(`graph: M ${m}, efConstruction ${efConstruction}, efSearch ${efSearch}; components fitted on ${Math.min(FITTED, windows)} windows`);
console.log('| graph dimensions | variance kept | fitted in | built in (windows/s) | bytes a window | recall@10, re-scoring k + ' + rescoreBeyondK + ' (the store) | recall@10, re-scoring 64 | ms a query |');
console.log('|---|---|---|---|---|---|---|---|');
for (const dims of args.dims.split(',').map(Number)) {
  started = performance.now();
  const projection = dims > 0 && dims < model.dims ? fitProjection(base.slice(0, FITTED), dims) : null;
  const fitMs = performance.now() - started;
  const pointOf = (vector: Float32Array) => (projection ? project(projection, vector) : Array.from(vector));
  const graph = projection ? new hnswlib.HierarchicalNSW('l2', projection.dims) : new hnswlib.HierarchicalNSW('cosine', model.dims);
  graph.initIndex(windows, m, efConstruction, 100, true);
  started = performance.now();
  base.forEach((vector, index) => graph.addPoint(pointOf(vector), index));
  const buildS = (performance.now() - started) / 1000;
  const scratch = mkdtempSync(path.join(tmpdir(), 'relata-bench-graph-'));
  graph.writeIndexSync(path.join(scratch, 'graph.hnsw'));
  const bytes = statSync(path.join(scratch, 'graph.hnsw')).size;
  rmSync(scratch, { recursive: true, force: true });
  graph.setEf(efSearch);
  const found = { store: 0, wide: 0 };
  started = performance.now();
  queries.forEach((query, n) => {
    const norm = Math.hypot(...query);
    const candidates = graph.searchKnn(pointOf(query), Math.min(efSearch, windows)).neighbors;
    const best = (count: number) =>
      candidates
        .slice(0, count)
        .map((index) => ({ index, similarity: cosine(query, norm, index) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, K)
        .map((hit) => hit.index);
    const wanted = new Set(truth[n]);
    found.store += best(K + rescoreBeyondK).filter((index) => wanted.has(index)).length;
    found.wide += best(64).filter((index) => wanted.has(index)).length;
  });
  const perQuery = (performance.now() - started) / queries.length;
  const label = projection ? `${projection.dims} of ${model.dims}` : `${model.dims} (every one)`;
  console.log(
    `| ${label} | ${projection ? `${(projection.varianceKept * 100).toFixed(1)}%` : '100%'} | ${(fitMs / 1000).toFixed(1)} s | ${buildS.toFixed(0)} s (${(windows / buildS).toFixed(0)}) | ` +
      `${(bytes / windows).toFixed(0)} | ${(found.store / (queries.length * K)).toFixed(4)} | ${(found.wide / (queries.length * K)).toFixed(4)} | ${perQuery.toFixed(2)} |`,
  );
}
console.log(`load ${load()}`);
