// npm run eval:scifact — search quality on SciFact (../shared/eval/scifact): the 5,183 abstracts
// are written as Markdown files and indexed by the real pipeline into a cached data directory
// (.relata-eval/scifact/), their passages embedded once (vectors cached by text), then the 300
// test claims are searched and scored: nDCG@10 and Recall@100 for every retrieval path alone and
// for each fusion version. Weights are tuned only on the 809 train claims (--tune prints the grid).
//
//   npm run eval:scifact [-- --embedding-model DIR] [--tune]

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { createEmbedder, parseEmbeddingChoice, type EmbeddingChoice } from '../../server/src/embed/choice.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { defaultPipelineSettings } from '../../server/src/pipeline/settings.ts';
import { embed } from '../../server/src/pipeline/stages/embed.ts';
import { FileBlobStore } from '../../server/src/store/blobs.ts';
import type { SearchPath } from '../../shared/types.ts';
import { fuse, fusionParameters, type FusionParameters } from '../../server/src/ranking/fusion.ts';
import type { PathResult } from '../../server/src/ranking/paths.ts';
import { recencyPath } from '../../server/src/ranking/recency.ts';
import { retrieveDirect } from '../../server/src/ranking/search.ts';
import { RANK_VERSION_V1, RANK_VERSION_V2, RANK_VERSIONS, WEIGHTS_V2 } from '../../server/src/ranking/weights.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { StageThreads } from '../../server/src/pipeline/threads/stageThreads.ts';
import { FolderRules } from '../../server/src/workspace/folderRules.ts';
import { loadAbstracts, loadClaims, loadQrels, ndcgAt, recallAt, scifactAvailable, type Qrels } from '../support/scifact.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';
import { CachedEmbedder, GivenEmbedder } from '../support/cachedEmbedder.ts';

const args = process.argv.slice(2);
const modelArg = args.indexOf('--embedding-model');
const choice: EmbeddingChoice = parseEmbeddingChoice(modelArg >= 0 ? args[modelArg + 1] : undefined);

const ROOT = path.join(REPO_ROOT, '.relata-eval', 'scifact');
const CORPUS = path.join(ROOT, 'corpus');
const WORKSPACE = 'scifact-eval';

if (!scifactAvailable()) {
  console.log('SciFact is not at ../shared/eval/scifact: nothing to measure.');
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Index once: the corpus as files, the pipeline without embedding, then the embed stage per item

function writeCorpusFiles(): void {
  if (existsSync(path.join(CORPUS, 'done'))) return;
  mkdirSync(CORPUS, { recursive: true });
  for (const doc of loadAbstracts()) writeFileSync(path.join(CORPUS, `${doc.id}.md`), `# ${doc.title}\n\n${doc.text}\n`);
  writeFileSync(path.join(CORPUS, 'done'), '');
}

async function indexCorpus(embedder: CachedEmbedder): Promise<WorkspaceStore> {
  writeCorpusFiles();
  const dataDir = path.join(ROOT, 'data');
  const started = performance.now();
  const index = await FolderIndex.open({ folder: CORPUS, dataDir, workspace: WORKSPACE, embedding: { kind: 'none' } });
  const report = await index.index();
  const { store } = index;
  const context = {
    store,
    blobs: new FileBlobStore(path.join(dataDir, 'blobs')),
    folder: CORPUS,
    rules: new FolderRules(CORPUS, []),
    settings: defaultPipelineSettings(),
    embedder: new GivenEmbedder(embedder),
    threads: new StageThreads({ lanes: 1, memoryMb: 512, timeoutMs: 60_000 }), // never started: this context only embeds
  };
  const pending = await store.itemsNeedingVectors(embedder.descriptor.id);
  let done = 0;
  // A few items at a time keep every embedding thread busy (an abstract is one or two passages).
  const lanes = Array.from({ length: 8 }, async () => {
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
      await embed(context, next);
      done += 1;
      if (done % 100 === 0) process.stderr.write(`\rembedding: ${done} items, ${embedder.embedded} passages computed   `);
    }
  });
  await Promise.all(lanes);
  if (done > 0) process.stderr.write('\n');
  console.log(
    `index: ${report.items.indexed} abstracts, ${report.chunks} chunks in ${((performance.now() - started) / 1000).toFixed(0)} s ` +
      `(${embedder.embedded} windows embedded now, the rest from the cache)`,
  );
  return store;
}

// ---------------------------------------------------------------------------------------------
// Retrieve once per claim, then fuse under every version (and, with --tune, every grid point)

interface Retrieved {
  claimId: string;
  relevant: Set<string>;
  paths: PathResult[];
}

async function retrieveClaims(store: WorkspaceStore, qrels: Qrels, label: string): Promise<Retrieved[]> {
  const claims = loadClaims();
  const corpusId = new Map((await store.listItems()).map((item) => [item.id, path.basename(item.path, '.md')]));
  const now = new Date();
  const retrieved: Retrieved[] = [];
  const started = performance.now();
  for (const [claimId, relevant] of qrels) {
    const direct = await retrieveDirect(store, embedder, claims.get(claimId)!.text);
    const info = await store.searchItemInfo([...new Set(direct.paths.flatMap((p) => p.hits.map((hit) => hit.itemId)))]);
    // Item ids become corpus ids once, so scoring compares like with like.
    const paths = [...direct.paths, recencyPath(info, now)].map((result) => ({
      ...result,
      hits: result.hits.map((hit) => ({ ...hit, itemId: corpusId.get(hit.itemId)! })),
    }));
    retrieved.push({ claimId, relevant, paths });
  }
  console.log(`${label}: ${retrieved.length} claims retrieved in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return retrieved;
}

interface Figures {
  ndcg10: number;
  recall100: number;
}

function score(retrieved: readonly Retrieved[], rank: (paths: PathResult[]) => string[]): Figures {
  let ndcg = 0;
  let recall = 0;
  for (const claim of retrieved) {
    const ranked = rank(claim.paths);
    ndcg += ndcgAt(10, ranked, claim.relevant);
    recall += recallAt(100, ranked, claim.relevant);
  }
  return { ndcg10: ndcg / retrieved.length, recall100: recall / retrieved.length };
}

const fused = (parameters: FusionParameters) => (paths: PathResult[]) => fuse(parameters, paths).map((item) => item.itemId);
const alone = (path: SearchPath) => (paths: PathResult[]) => fuse(fusionParameters(RANK_VERSION_V1), paths.filter((p) => p.path === path)).map((item) => item.itemId);

function tune(train: readonly Retrieved[]): void {
  const grid: { label: string; figures: Figures }[] = [];
  for (const chunks of [0, 0.25, 0.5, 1]) {
    for (const vector of [0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.7, 1]) {
      for (const floor of [0, 0.2, 0.3, 0.4, 0.5]) {
        if (vector === 0 && floor > 0) continue;
        const weights = { ...WEIGHTS_V2, lexical_items: 1, lexical_chunks: chunks, vector };
        const figures = score(train, fused({ version: RANK_VERSION_V2, weights, vectorFloor: floor }));
        grid.push({ label: `chunks ${chunks}, vector ${vector}, floor ${floor}`, figures });
      }
    }
  }
  grid.sort((a, b) => b.figures.ndcg10 - a.figures.ndcg10);
  console.log(`\ntuning on the ${train.length} train claims (v2 shape, lexical items at 1.0), best 15 of ${grid.length}:`);
  for (const { label, figures } of grid.slice(0, 15)) console.log(`  ${label.padEnd(36)} nDCG@10 ${figures.ndcg10.toFixed(3)}  R@100 ${figures.recall100.toFixed(3)}`);
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
const embedder = new CachedEmbedder((await createEmbedder(choice))!, ROOT);
const store = await indexCorpus(embedder);
try {
  const train = await retrieveClaims(store, loadQrels('train'), 'train');
  const test = await retrieveClaims(store, loadQrels('test'), 'test');
  if (args.includes('--tune')) tune(train);
  const rows: [string, (paths: PathResult[]) => string[]][] = [
    ...(['lexical_items', 'lexical_chunks', 'vector', 'entity', 'title'] as SearchPath[]).map(
      (path): [string, (paths: PathResult[]) => string[]] => [`${path} alone`, alone(path)],
    ),
    ...RANK_VERSIONS.map((version): [string, (paths: PathResult[]) => string[]] => [`${version} (all paths)`, fused(fusionParameters(version))]),
  ];
  console.log(`\nmodel ${embedder.descriptor.id}; ${test.length} test claims (reported), ${train.length} train claims (tuning only)`);
  console.log(`${'run'.padEnd(28)} ${'test nDCG@10'.padStart(12)} ${'test R@100'.padStart(10)} ${'train nDCG@10'.padStart(13)} ${'train R@100'.padStart(11)}`);
  for (const [label, rank] of rows) {
    const onTest = score(test, rank);
    const onTrain = score(train, rank);
    console.log(
      `${label.padEnd(28)} ${onTest.ndcg10.toFixed(3).padStart(12)} ${onTest.recall100.toFixed(3).padStart(10)} ` +
        `${onTrain.ndcg10.toFixed(3).padStart(13)} ${onTrain.recall100.toFixed(3).padStart(11)}`,
    );
  }
} finally {
  await store.close();
  await embedder.close();
}
