// npm run eval:relationships — what discovery proposes on folders nobody on the team wrote, judged
// against what their authors and annotators said (issues 26 and 27). Each folder is written once
// into .relata-eval/relationships/, indexed by the real pipeline (passages embedded by the default
// model, vectors cached by text so a later run or another branch embeds nothing again), then
// discovered afresh under every scoring version the build offers, one column each. Prints the
// machine and figures; asserts nothing.
//
//   npm run eval:relationships [-- --only NAME[,NAME]] [--split train] [--sample-labels]
//
//   --only            folders to run (opensource-guide-en, rust-book-en, scifact-claims-dev,
//                     cuad-60, docs-demo)
//   --split train     SciFact's tuning split instead of the reported, never-tuned `dev` split
//   --sample-labels   top test/bench/labels/<folder>.tsv up to 30 of the live version's proposals
//                     (seeded, no score; rows already labelled are kept)

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { createEmbedder, DEFAULT_EMBEDDING } from '../../server/src/embed/choice.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { relatedTo } from '../../server/src/engine/related.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { FileBlobStore } from '../../server/src/store/blobs.ts';
import { defaultPipelineSettings, type PipelineSettings } from '../../server/src/pipeline/settings.ts';
import { embed } from '../../server/src/pipeline/stages/embed.ts';
import { FolderRules } from '../../server/src/workspace/folderRules.ts';
import { StageThreads } from '../../server/src/pipeline/threads/stageThreads.ts';
import * as scoring from '../../server/src/scoring/index.ts';
import type { ItemRecord, WorkspaceStore } from '../../server/src/store/contract.ts';
import type { RelationshipView } from '../../shared/types.ts';
import { pairKey, readAuthorLinks, type AuthorLinks } from '../support/authorLinks.ts';
import { CachedEmbedder, GivenEmbedder } from '../support/cachedEmbedder.ts';
import {
  copiedFolder,
  cuadFolder,
  demoFolder,
  scifactFolder,
  type EvalFolder,
  type ScifactTruth,
  type SkippedFolder,
} from '../support/relationshipFolders.ts';
import { labelShares, labelsFile, proposalKey, readLabels, sampleMoreLabels } from '../support/relationshipLabels.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const args = process.argv.slice(2);
const valueOf = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const only = valueOf('--only')?.split(',');
const split = valueOf('--split') === 'train' ? 'train' : 'dev';
const sampleLabels = args.includes('--sample-labels');

const ROOT = path.join(REPO_ROOT, '.relata-eval', 'relationships');
const WORKSPACE = 'relationships-eval';
const RELATED_LIMIT = 5;

// ---------------------------------------------------------------------------------------------
// What the build offers: its scoring versions, and Related

/** The scoring versions to compare: one column per version discovery can score with, oldest first. */
function scoreVersions(): string[] {
  return scoring.SCORE_VERSIONS.map((version) => version.version);
}

interface RelatedEntry {
  path: string;
}

type RelatedFn = (store: WorkspaceStore, itemPath: string) => Promise<RelatedEntry[]>;

/** Related for one file, as `relata related` and the editor give it (server/src/engine/related.ts). */
const relatedFiles: RelatedFn = async (store, itemPath) =>
  (await relatedTo(store, itemPath, { limit: RELATED_LIMIT })).entries.map((entry) => ({ path: entry.item.path }));

// ---------------------------------------------------------------------------------------------
// Index once (vectors from the cache), then discover afresh under each scoring version

/** Stores are kept per product source, so a changed build indexes afresh and an unchanged one reuses its store. */
function sourceHash(): string {
  const hash = createHash('sha1');
  for (const dir of ['server/src', 'shared']) {
    const files = (readdirSync(path.join(REPO_ROOT, dir), { recursive: true }) as string[]).filter((file) => file.endsWith('.ts')).sort();
    for (const file of files) hash.update(file).update(readFileSync(path.join(REPO_ROOT, dir, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

async function indexAndEmbed(folder: EvalFolder, dataDir: string, embedder: CachedEmbedder): Promise<void> {
  const index = await FolderIndex.open({ folder: folder.folder, dataDir, workspace: WORKSPACE, embedding: { kind: 'none' } });
  try {
    await index.index();
    const { store } = index;
    const context = {
      store,
      blobs: new FileBlobStore(path.join(dataDir, 'blobs')),
      folder: folder.folder,
      rules: new FolderRules(folder.folder, []),
      settings: defaultPipelineSettings(),
      embedder: new GivenEmbedder(embedder),
      threads: new StageThreads({ lanes: 1, memoryMb: 512, timeoutMs: 60_000 }), // never started: this context only embeds
    };
    const pending = await store.itemsNeedingVectors(embedder.descriptor.id);
    let done = 0;
    const total = pending.length;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
          await embed(context, next);
          done += 1;
          if (process.stderr.isTTY || done === total) process.stderr.write(`\r  embedding ${folder.name}: ${done}/${total} items, ${embedder.embedded} passages computed   `);
        }
      }),
    );
    if (total > 0) process.stderr.write('\n');
  } finally {
    await index.close();
  }
}

interface Snapshot {
  version: string;
  items: ItemRecord[];
  views: RelationshipView[];
  /** item path -> its Related list, when the build has Related. */
  related: Map<string, string[]> | null;
  /** item path -> the 5 nearest items by best window cosine (the baseline Related is measured against). */
  nearest: Map<string, string[]>;
  discoverSeconds: number;
}

async function discoverUnder(folder: EvalFolder, dataDir: string, version: string, related: RelatedFn | null, withNearest: boolean): Promise<Snapshot> {
  const settings: Partial<PipelineSettings> = { scoreVersion: scoring.scoreVersion(version)! };
  const index = await FolderIndex.open({ folder: folder.folder, dataDir, workspace: WORKSPACE, embedding: DEFAULT_EMBEDDING, settings });
  try {
    const started = performance.now();
    await index.reprocess(null);
    const discoverSeconds = (performance.now() - started) / 1000;
    const items = (await index.store.listItems()).filter((item) => item.status === 'indexed');
    const views = await listRelationshipViews(index.store, scoring.thresholdsFromEnv());
    const model = await index.embeddingModel();
    // All pairs of windows: cheap for short documents, hours for 60 long contracts, so only where it is reported.
    const nearest = model && withNearest ? await nearestByBestWindow(index.store, items, model.id) : new Map<string, string[]>();
    let relatedLists: Map<string, string[]> | null = null;
    if (related) {
      relatedLists = new Map();
      for (const item of items) relatedLists.set(item.path, (await related(index.store, item.path)).map((entry) => entry.path));
    }
    return { version, items, views, related: relatedLists, nearest, discoverSeconds };
  } finally {
    await index.close();
  }
}

/** For each item, the 5 others whose best window is closest (cosine) to any of its windows. */
async function nearestByBestWindow(store: WorkspaceStore, items: readonly ItemRecord[], modelId: string): Promise<Map<string, string[]>> {
  const facts = await store.discoveryFacts(
    items.map((item) => item.id),
    modelId,
    0,
  );
  const unit = (vector: Float32Array) => {
    let norm = 0;
    for (const value of vector) norm += value * value;
    norm = Math.sqrt(norm) || 1;
    return vector.map((value) => value / norm);
  };
  const vectors = items.map((item) => (facts.get(item.id)?.vectors ?? []).map(unit));
  const best = (a: Float32Array[], b: Float32Array[]) => {
    let top = -Infinity;
    for (const x of a)
      for (const y of b) {
        let dot = 0;
        for (let i = 0; i < x.length; i++) dot += x[i]! * y[i]!;
        if (dot > top) top = dot;
      }
    return top;
  };
  const result = new Map<string, string[]>();
  items.forEach((item, i) => {
    const scored = items
      .map((other, j) => ({ path: other.path, similarity: i === j || vectors[i]!.length === 0 || vectors[j]!.length === 0 ? -Infinity : best(vectors[i]!, vectors[j]!) }))
      .filter((entry) => entry.similarity > -Infinity)
      .sort((a, b) => b.similarity - a.similarity);
    result.set(item.path, scored.slice(0, RELATED_LIMIT).map((entry) => entry.path));
  });
  return result;
}

// ---------------------------------------------------------------------------------------------
// Figures, one column per scoring version

type Row = [label: string, ...values: string[]];

const share = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${part}/${whole} (${((100 * part) / whole).toFixed(1)}%)`);
const countBy = <T>(values: readonly T[], key: (value: T) => string) => {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(key(value), (counts.get(key(value)) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`).join(', ') || 'none';
};
const viewPair = (view: RelationshipView) => pairKey(view.from.path, view.to.path);

function commonRows(snapshot: Snapshot): Row[] {
  const { items, views } = snapshot;
  const related = new Set(views.flatMap((view) => [view.from.path, view.to.path]));
  const alone = items.filter((item) => !related.has(item.path));
  const nothingAtAll = snapshot.related ? alone.filter((item) => (snapshot.related!.get(item.path) ?? []).length === 0) : null;
  return [
    ['indexed files', String(items.length)],
    ['relationships (as listed: pending at or above the storage threshold, and decided)', String(views.length)],
    ['  by type', countBy(views, (view) => view.type)],
    ['  by status', countBy(views, (view) => view.status)],
    ['  flagged near-duplicate', String(views.filter((view) => view.near_duplicate).length)],
    ['files with no relationship', share(alone.length, items.length)],
    [
      'files with no relationship and nothing in Related',
      nothingAtAll ? share(nothingAtAll.length, items.length) : 'Related: not available in this build',
    ],
  ];
}

function linkRows(snapshot: Snapshot, truth: AuthorLinks): Row[] {
  const stored = new Set(snapshot.views.map(viewPair));
  const pairs = [...truth.pairs.keys()];
  const found = pairs.filter((key) => stored.has(key));
  const outsideToc = pairs.filter((key) => truth.pairs.get(key)!.some((link) => !/(^|\/)SUMMARY\.md$/i.test(link.from)));
  const linkTyped = snapshot.views.filter((view) => view.type === ('links_to' as RelationshipView['type']));
  const nearestHas = (key: string) => {
    const [a, b] = key.split('\t') as [string, string];
    return (snapshot.nearest.get(a) ?? []).includes(b) || (snapshot.nearest.get(b) ?? []).includes(a);
  };
  const relatedHas = (key: string) => {
    const [a, b] = key.split('\t') as [string, string];
    return (snapshot.related?.get(a) ?? []).includes(b) || (snapshot.related?.get(b) ?? []).includes(a);
  };
  const n = snapshot.items.length;
  const rows: Row[] = [
    ['author-linked pairs (unordered) found among relationships', share(found.length, pairs.length)],
  ];
  if (outsideToc.length !== pairs.length) rows.push(['  of them linked outside SUMMARY.md (the table of contents)', share(outsideToc.filter((key) => stored.has(key)).length, outsideToc.length)]);
  rows.push(
    ['  chance: a random pair is author-linked', share(pairs.length, (n * (n - 1)) / 2)],
    ['  relationships that are author-linked pairs', share(snapshot.views.filter((view) => truth.pairs.has(viewPair(view))).length, snapshot.views.length)],
    ['links_to relationships that are real links (precision)', linkTyped.length === 0 ? 'no links_to relationships' : share(linkTyped.filter((view) => truth.pairs.has(viewPair(view))).length, linkTyped.length)],
    ['author-linked pairs in Related (either end, top 5)', snapshot.related ? share(pairs.filter(relatedHas).length, pairs.length) : 'Related: not available in this build'],
    ['baseline: author-linked pairs in the nearest 5 by best window cosine (either end)', share(pairs.filter(nearestHas).length, pairs.length)],
  );
  return rows;
}

function scifactRows(snapshot: Snapshot, truth: ScifactTruth): Row[] {
  const rows: Row[] = [];
  const hitAt5 = (lists: Map<string, string[]>) => truth.claimPaths.filter((claim) => (lists.get(claim) ?? []).some((p) => truth.abstractsOf.get(claim)!.has(p))).length;
  rows.push(['Related@5: claims whose labelled abstract is among their 5 related', snapshot.related ? share(hitAt5(snapshot.related), truth.claimPaths.length) : 'Related: not available in this build']);
  rows.push(['baseline Related@5: nearest 5 by best window cosine (not Related)', share(hitAt5(snapshot.nearest), truth.claimPaths.length)]);
  const labelled = [...truth.labels.entries()];
  const stored = new Set(snapshot.views.map(viewPair));
  rows.push(['labelled pairs with any relationship', share(labelled.filter(([key]) => stored.has(key)).length, labelled.length)]);
  for (const [type, label] of [['supports', 'SUPPORT'], ['contradicts', 'CONTRADICT']] as const) {
    const typed = snapshot.views.filter((view) => view.type === type);
    const right = typed.filter((view) => truth.labels.get(viewPair(view)) === label);
    const ofLabel = labelled.filter(([, value]) => value === label).length;
    rows.push([`${type}: precision (typed ${type} on a pair labelled ${label})`, share(right.length, typed.length)]);
    rows.push([`${type}: recall (${label} pairs typed ${type})`, share(right.length, ofLabel)]);
  }
  // Two claims are opposite when one abstract supports one and contradicts the other.
  const labelOf = (claim: string, abstract: string) => truth.labels.get(pairKey(claim, abstract));
  const opposite = (a: string, b: string) =>
    [...(truth.abstractsOf.get(a) ?? [])].some((abstract) => {
      const [la, lb] = [labelOf(a, abstract), labelOf(b, abstract)];
      return la !== undefined && lb !== undefined && la !== lb;
    });
  const claimPairs = snapshot.views.filter((view) => view.near_duplicate && view.from.path.startsWith('claims/') && view.to.path.startsWith('claims/'));
  rows.push(['claim pairs flagged near-duplicate', String(claimPairs.length)]);
  rows.push(['  of them opposite claims (one abstract supports one, contradicts the other)', String(claimPairs.filter((view) => opposite(view.from.path, view.to.path)).length)]);
  // Claims that say opposite things about one abstract's finding should be typed contradicts (v2's directions).
  const claimContradictions = snapshot.views.filter((view) => view.type === 'contradicts' && view.from.path.startsWith('claims/') && view.to.path.startsWith('claims/'));
  rows.push(['claim pairs typed contradicts', String(claimContradictions.length)]);
  rows.push(['  of them opposite claims', String(claimContradictions.filter((view) => opposite(view.from.path, view.to.path)).length)]);
  return rows;
}

function cuadRows(snapshot: Snapshot, parties: Map<string, Set<string>>): Row[] {
  const contradictions = snapshot.views.filter((view) => view.type === 'contradicts');
  const strangers = contradictions.filter((view) => {
    const [a, b] = [parties.get(view.from.path), parties.get(view.to.path)];
    return a !== undefined && b !== undefined && ![...a].some((party) => b.has(party));
  });
  const rows: Row[] = [
    ['contradicts', String(contradictions.length)],
    ['contradicts between contracts with no party in common (goal 0)', String(strangers.length)],
  ];
  for (const view of strangers) {
    const detail = view.signals.find((signal) => signal.type === 'claim_contradiction')?.detail ?? '';
    rows.push([`  ${view.from.path.slice(0, 40)} / ${view.to.path.slice(0, 40)}`, `${view.score.toFixed(2)} ${detail.slice(0, 90)}`]);
  }
  return rows;
}

/** What docs/DEMO.md promises discovery finds on docs/demo: each by its pair and type. */
const DEMO_PROMISES = [
  { what: 'the contradiction (EUR 42,000 vs 51,500)', a: 'maintenance/gantry-crane-gc2-refurbishment-report.md', b: 'finance/q2-2025-capital-budget-review.md', types: ['contradicts'] },
  { what: 'the support (handover €42k agrees with the report)', a: 'notes/handover-gc2-2025-05-20.md', b: 'maintenance/gantry-crane-gc2-refurbishment-report.md', types: ['supports'] },
  { what: 'the copy (shared-drive duplicate, derived_from)', a: 'shared-drive/incidents-backup/incident-2025-03-14-forklift-collision.md', b: 'incidents/incident-2025-03-14-forklift-collision.md', types: ['derived_from'] },
  // Weak, and never a copy, support or contradiction: chronological under v1; under v2 `mentions`, since chronology needs a name
  // at most three files give and the reports share only names most of the demo gives (docs/DEMO.md).
  { what: 'the weak incident pair (below 0.45, no copy or claim)', a: 'incidents/incident-2025-03-14-forklift-collision.md', b: 'incidents/incident-2025-07-22-sprinkler-leak.md', types: ['occurred_before', 'occurred_after', 'mentions'], below: 0.45 },
];

function demoRows(snapshot: Snapshot): Row[] {
  return DEMO_PROMISES.map((promise) => {
    const view = snapshot.views.find((candidate) => viewPair(candidate) === pairKey(promise.a, promise.b));
    if (!view) return [promise.what, 'MISSING (no relationship)'];
    const typed = promise.types.includes(view.type);
    const weak = promise.below === undefined || view.score < promise.below;
    const agreeing = view.signals.some((signal) => signal.type === 'claim_support') ? ', claim_support signal' : '';
    return [promise.what, `${typed && weak ? 'kept' : 'CHANGED'}: ${view.type} ${view.score.toFixed(2)}${view.near_duplicate ? ' near-duplicate' : ''}${agreeing}`];
  });
}

function labelRows(folder: EvalFolder, snapshot: Snapshot): Row[] {
  const rows = readLabels(folder.name);
  const file = path.relative(REPO_ROOT, labelsFile(folder.name));
  if (!existsSync(labelsFile(folder.name))) return [['hand labels', `none (${file} absent; --sample-labels writes one)`]];
  if (rows.length === 0) return [['hand labels', `none: the folder had no proposal when ${file} was sampled (delete it and --sample-labels to sample again)`]];
  const proposed = new Set(snapshot.views.map((view) => proposalKey(view.from.path, view.to.path, view.type)));
  const shares = labelShares(rows, proposed);
  if (shares.labelled === 0) return [['hand labels', `${rows.length} sampled, none labelled yet`]];
  const { right, trivial, wrong } = shares.counts;
  return [
    ['hand labels still proposed (pair and type) / labelled', `${shares.current}/${shares.labelled}`],
    ['  right / trivial / wrong', shares.current === 0 ? 'n/a' : `${right} / ${trivial} / ${wrong} (${[right, trivial, wrong].map((n) => `${((100 * n) / shares.current).toFixed(0)}%`).join(' / ')})`],
  ];
}

/** One line per label, in the order labels first appear in any column; a version without a row shows a dash. */
function printTable(versions: readonly string[], columns: Row[][]): void {
  const labels = [...new Set(columns.flatMap((rows) => rows.map((row) => row[0])))];
  const width = Math.max(...labels.map((label) => label.length));
  console.log(`  ${''.padEnd(width)}  ${versions.join(' | ')}`);
  for (const label of labels) {
    const cells = columns.map((rows) => rows.find((row) => row[0] === label)?.slice(1).join(' ') ?? '–');
    console.log(`  ${label.padEnd(width)}  ${cells.join(' | ')}`);
  }
}

// ---------------------------------------------------------------------------------------------

const started = performance.now();
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
console.log(`load average at start: ${loadavg().map((load) => load.toFixed(1)).join(' ')}`);
const versions = scoreVersions();
const related = relatedFiles;
console.log(`scoring versions: ${versions.join(', ')}${versions.length === 1 ? ' (one column)' : ''}`);
console.log('Related: relatedTo (server/src/engine/related.ts), as `relata related` gives it');

const cacheFolders = path.join(ROOT, 'folders');
const dataRoot = path.join(ROOT, 'stores', sourceHash());
type Planned = { folder: EvalFolder; judge: (snapshot: Snapshot) => Row[]; withNearest?: boolean };
const planned: (Planned | SkippedFolder)[] = [];
for (const [name, source] of [
  ['opensource-guide-en', 'knowledge-bases/opensource-guide-en'],
  ['rust-book-en', 'linked-docs/rust-book-en'],
] as const) {
  const folder = copiedFolder(cacheFolders, name, source);
  if ('skipped' in folder) planned.push(folder);
  else {
    const truth = readAuthorLinks(folder.folder);
    planned.push({ folder, judge: (snapshot) => linkRows(snapshot, truth), withNearest: true });
  }
}
const scifact = scifactFolder(cacheFolders, split);
planned.push('skipped' in scifact ? scifact : { folder: scifact.folder, judge: (snapshot) => scifactRows(snapshot, scifact.truth), withNearest: true });
const cuad = cuadFolder(cacheFolders);
planned.push('skipped' in cuad ? cuad : { folder: cuad.folder, judge: (snapshot) => cuadRows(snapshot, cuad.parties) });
planned.push({ folder: demoFolder(), judge: demoRows });

const embedder = new CachedEmbedder((await createEmbedder(DEFAULT_EMBEDDING))!, ROOT);
try {
  for (const entry of planned) {
    const name = 'skipped' in entry ? entry.name : entry.folder.name;
    if (only && !only.includes(name)) continue;
    if ('skipped' in entry) {
      console.log(`\n== ${entry.name}: skipped: ${entry.skipped}`);
      continue;
    }
    const { folder, judge, withNearest = false } = entry;
    const folderStarted = performance.now();
    const dataDir = path.join(dataRoot, folder.name);
    const before = embedder.embedded;
    await indexAndEmbed(folder, dataDir, embedder);
    const snapshots: Snapshot[] = [];
    for (const version of versions) snapshots.push(await discoverUnder(folder, dataDir, version, related, withNearest));
    console.log(`\n== ${folder.name}: ${folder.sampling}`);
    printTable(
      versions,
      snapshots.map((snapshot) => {
        const offered = new Set(snapshot.views.map((view) => view.score_version));
        const honoured = offered.size === 0 || (offered.size === 1 && offered.has(snapshot.version));
        return [
          ...commonRows(snapshot),
          ...judge(snapshot),
          ...labelRows(folder, snapshot),
          ['score versions stored', honoured ? snapshot.version : `${[...offered].join(', ')} (the version was not selected: see RELATA_SCORE_VERSION)`],
          ['discovery (reprocess) time', `${snapshot.discoverSeconds.toFixed(1)} s`],
        ];
      }),
    );
    if (sampleLabels) {
      // The live version's proposals are what a person will review: the sample is topped up from them.
      const views = snapshots.at(-1)!.views;
      const { file, added } = sampleMoreLabels(folder.name, views.map((view) => ({ from: view.from.path, to: view.to.path, type: view.type })));
      console.log(`  labels: ${path.relative(REPO_ROOT, file)}: ${added} proposals of ${views.length} added to label`);
    }
    console.log(
      `  wall time: ${((performance.now() - folderStarted) / 1000).toFixed(0)} s (${embedder.embedded - before} passages embedded now, the rest from the cache); load average ${loadavg()[0]!.toFixed(1)}`,
    );
  }
} finally {
  await embedder.close();
}
console.log(`\ntotal wall time: ${((performance.now() - started) / 1000).toFixed(0)} s`);
