// npm run bench:related — warm latency of Related (engine/related.ts) at about 10,000 items in the
// embedded store: the item's relationships, its window vectors against the vector index, its
// distinctive phrases as a full-text query, fusion, why, and the fallbacks. Vectors are SYNTHETIC
// and clustered like USE-lite's windows (test/support/clusteredVectors.ts: 1 to 3 windows per
// item); passages come from a Zipf-distributed made-up vocabulary, and each item's phrase counts
// are its own most frequent rare words, so the lexical side matches a realistic share of items.
// One relationship per item for the first 2,000 items. The approximate vector index is built
// before measuring, as a language server's would be by then. Prints figures; asserts nothing.
// Goal (issue 26): p95 ≤ 150 ms.

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { relatedTo } from '../../server/src/engine/related.ts';
import { scoreSignals, SCORE_VERSION, similaritySignal } from '../../server/src/scoring/index.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { clusteredVectors } from '../support/clusteredVectors.ts';
import { seededRandom } from '../support/generateCorpus.ts';

const DIMS = 512;
const VECTORS = 20_000;
const VOCABULARY = 20_000;
const ROUNDS = 200;
const MODEL = { id: 'bench-synthetic', dims: DIMS, version: '1', maxTokens: 128 };

const random = seededRandom(26);
const word = (rank: number) => `w${rank.toString(36)}`;
/** Zipf(1.07)-ish ranks by inverse transform of a continuous approximation. */
const zipfRank = () => Math.min(VOCABULARY - 1, Math.floor(Math.pow(VOCABULARY, random()) - 1));
const passage = (words: number) => Array.from({ length: words }, () => word(zipfRank())).join(' ');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function buildStore(dataDir: string): Promise<{ store: WorkspaceStore; paths: string[]; buildS: number }> {
  const started = performance.now();
  const writer = openSqliteStore({ dataDir, workspace: 'bench' });
  await writer.registerModel(MODEL);
  const vectors = clusteredVectors({ count: VECTORS, dims: DIMS, seed: 26, windowsPerDocument: 2 });
  const windowsOf = new Map<number, Float32Array[]>();
  vectors.documentOf.forEach((document, n) => windowsOf.set(document, [...(windowsOf.get(document) ?? []), vectors.vectors[n]!]));
  const paths: string[] = [];
  const ids: string[] = [];
  for (const [document, windows] of windowsOf) {
    const hash = document.toString(16).padStart(64, '0');
    const file = `group-${document % 50}/doc-${document}.md`;
    const { itemId } = await writer.recordIngest({ path: file, contentHash: hash, size: 1 }, () => true);
    const texts = windows.map(() => passage(120 + Math.floor(random() * 120)));
    const document_ = { title: `Report ${document}`, text: texts.join('\n\n'), blocks: [], structure: { headings: [], tables: [] }, flags: [] };
    await writer.recordParse(itemId, { contentHash: hash, parserVersion: 'bench', document: document_ }, `Report ${document}`);
    const chunks = texts.map((text, ordinal) => ({
      id: `${document}-${ordinal}`, itemId, ordinal, text, headingPath: [], location: { kind: 'lines', start: ordinal * 10 + 1, end: ordinal * 10 + 9 } as const,
      wordCount: text.split(' ').length,
    }));
    await writer.replaceChunks(itemId, hash, chunks);
    await writer.storeVectors(itemId, hash, MODEL, chunks.map((chunk, n) => ({ chunkId: chunk.id, window: 0, start: 0, end: chunk.text.length, vector: windows[n]! })));
    const counts = new Map<string, number>();
    for (const token of texts.join(' ').split(' ')) counts.set(token, (counts.get(token) ?? 0) + 1);
    const phrases = [...counts].filter(([token]) => parseInt(token.slice(1), 36) > 100).sort((a, b) => b[1] - a[1]).slice(0, 30);
    await writer.storeExtraction(itemId, hash, { entities: [], claims: [], phrases: phrases.map(([key, count]) => ({ key, phrase: key, count })), versions: 'bench' });
    paths.push(file);
    ids.push(itemId);
  }
  for (let n = 0; n + 1 < Math.min(2000, ids.length); n += 1) {
    const signals = [similaritySignal(0.95)];
    const { score } = scoreSignals(signals);
    await writer.upsertRelationship(
      { fromItemId: ids[n]!, toItemId: ids[n + 1]!, type: 'similar_to', score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'bench' },
      reviewAgainstDecision,
    );
  }
  await writer.close();
  const builder = openSqliteStore({ dataDir, workspace: 'bench', vectorIndex: { inlineCatchUp: Number.MAX_SAFE_INTEGER, log: () => {} } });
  await builder.searchVectors(MODEL.id, vectors.query(), 20);
  await builder.close();
  return { store: openSqliteStore({ dataDir, workspace: 'bench' }), paths, buildS: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-bench-related-'));
  try {
    const { store, paths, buildS } = await buildStore(dataDir);
    const pick = seededRandom(7);
    const subject = () => paths[Math.floor(pick() * paths.length)]!;
    for (let n = 0; n < 10; n += 1) await relatedTo(store, subject()); // warm: caches, prepared statements, the loaded index
    for (const [label, options] of [
      ['default (model found by the store)', {}],
      ['model given by the caller', { modelId: MODEL.id }],
      ['--only-unlinked', { modelId: MODEL.id, onlyUnlinked: true }],
    ] as const) {
      const times: number[] = [];
      let entries = 0;
      for (let n = 0; n < ROUNDS; n += 1) {
        const started = performance.now();
        const view = await relatedTo(store, subject(), options);
        times.push(performance.now() - started);
        entries += view.entries.length;
      }
      console.log(
        `Related, ${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms ` +
          `over ${ROUNDS} items (${(entries / ROUNDS).toFixed(1)} entries each)`,
      );
    }
    console.log(`${paths.length.toLocaleString('en')} items, ${VECTORS.toLocaleString('en')} windows of ${DIMS} dims; stored and indexed in ${buildS.toFixed(0)} s; ${cpus().length} cores`);
    await store.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
