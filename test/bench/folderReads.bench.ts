// npm run bench:folderReads — three reads that listed the whole folder per request before issue 32,
// timed before and after on a folder of 100,000 notes with 60,000 relationships (bench:proposals'
// shape): Related's nearby fallback (the items nearest in the folder tree, engine/treeRings.ts),
// the graph's neighbourhood of the current file (engine/graphReads.ts, with the graph built from
// it) and the language server's note on what a pass did to the proposals (lsp/proposalTracker.ts),
// after a pass that edited 10 files and proposed 10 pairs. "Before" is the reference the contract
// tests hold the new reads to (test/support/wholeFolderReads.ts; for the graph, the whole folder's
// read the "show all" view still makes), run on the same store; both answers are compared every round. Timed in one process, wall clock and CPU (which a shared
// machine's load inflates less). Prints; asserts nothing.
//
//   RELATA_BENCH_ITEMS=100000 RELATA_BENCH_RELATIONSHIPS=60000   the store's size
//   RELATA_BENCH_STORE=DIR   keep the generated store in DIR and use it again next time

import Database from 'better-sqlite3';
import { isDeepStrictEqual } from 'node:util';
import { loadavg } from 'node:os';
import path from 'node:path';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { neighbourhoodGraphInput, wholeFolderGraphInput } from '../../server/src/engine/graphReads.ts';
import { buildRelationshipGraph } from '../../server/src/engine/relationshipGraph.ts';
import { nearestInTree } from '../../server/src/engine/treeRings.ts';
import { ProposalTracker } from '../../server/src/lsp/proposalTracker.ts';
import { DEFAULT_THRESHOLDS, scoreSignals, SCORE_VERSION, sharedEntitySignal, similaritySignal } from '../../server/src/scoring/index.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { DATABASE_FILE } from '../../server/src/store/dataDir.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { DEFAULT_GRAPH_STATUSES, DEFAULT_NEIGHBOURHOOD_DEPTH, type GraphFilter } from '../../shared/graph.ts';
import { openBenchStore } from '../support/benchStore.ts';
import { seededRandom } from '../support/generateCorpus.ts';
import { ListingEverything, nearestByListing } from '../support/wholeFolderReads.ts';

const ITEMS = Number(process.env.RELATA_BENCH_ITEMS ?? 100_000);
const RELATIONSHIPS = Number(process.env.RELATA_BENCH_RELATIONSHIPS ?? 60_000);
const ROUNDS = 5;
const RELATED_LIMIT = 10;
/** A file alone in its folder, deep in a tree of its own: the walk goes up to the root for its neighbours. */
const LONE_FILE = 'archive/2019/misc/lone.md';

const notePath = (n: number) => `notes/project-${n % 500}/${2020 + (n % 6)}/note-${n}.md`;

async function buildStore(dataDir: string): Promise<void> {
  const random = seededRandom(32);
  const store = openSqliteStore({ dataDir, workspace: 'bench' });
  const ids: string[] = [];
  for (let n = 0; n < ITEMS; n += 1) {
    ids.push((await store.recordIngest({ path: notePath(n), contentHash: n.toString(16).padStart(64, '0'), size: 3_400 }, () => true)).itemId);
  }
  await store.recordIngest({ path: LONE_FILE, contentHash: 'f'.repeat(64), size: 3_400 }, () => true);
  for (let n = 0; n < RELATIONSHIPS; n += 1) {
    const a = Math.floor(random() * ITEMS);
    const b = (a + 1 + Math.floor(random() * 50)) % ITEMS;
    const signals = [similaritySignal(0.75 + random() * 0.2), sharedEntitySignal(`Project ${n % 997} Ltd`, 'organisation', 2 + (n % 5))];
    const { score } = scoreSignals(signals);
    await store.upsertRelationship(
      { fromItemId: ids[a]!, toItemId: ids[b]!, type: 'similar_to', score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'bench' },
      reviewAgainstDecision,
    );
  }
  await store.close();
  // Setup only, not what is timed: every item indexed (parsing 100,000 notes is bench:folder's
  // work, not this one's), and everything written yesterday, as a folder indexed before today's edits.
  const db = new Database(path.join(dataDir, DATABASE_FILE));
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  db.prepare(`UPDATE items SET status = 'indexed', updated_at = ?`).run(yesterday);
  db.prepare('UPDATE relationships SET updated_at = ?').run(yesterday);
  db.close();
}

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return { value, wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

function report(label: string, wall: number[], cpu: number[], same: boolean): void {
  console.log(`${label}: p50 ${ms(p50(wall))} / max ${ms(Math.max(...wall))} ms (CPU p50 ${ms(p50(cpu))} ms)${same ? '' : ' — ANSWERS DIFFER'} (load ${loadavg()[0]!.toFixed(1)})`);
}

async function nearby(store: WorkspaceStore): Promise<void> {
  const random = seededRandom(7);
  const subjects = [...Array.from({ length: ROUNDS }, () => notePath(Math.floor(random() * ITEMS))), LONE_FILE];
  for (const [label, picks] of [
    [`a note among its folder’s ~${Math.round(ITEMS / 3_000)}`, subjects.slice(0, ROUNDS)],
    ['a file alone in its tree', [LONE_FILE, LONE_FILE, LONE_FILE]],
  ] as const) {
    const before = { wall: [] as number[], cpu: [] as number[] };
    const after = { wall: [] as number[], cpu: [] as number[] };
    let same = true;
    for (const subject of picks) {
      const self = (await store.getItemByPath(subject))!.id;
      const isBlocked = (id: string) => id === self;
      const listed = await timed(() => nearestByListing(store, subject, RELATED_LIMIT, isBlocked));
      const walked = await timed(() => nearestInTree(store, subject, RELATED_LIMIT, isBlocked, 1));
      before.wall.push(listed.wall);
      before.cpu.push(listed.cpu);
      after.wall.push(walked.wall);
      after.cpu.push(walked.cpu);
      same &&= isDeepStrictEqual(listed.value, walked.value);
    }
    report(`Related's nearby fallback, ${label}, before (every item listed and sorted)`, before.wall, before.cpu, same);
    report(`Related's nearby fallback, ${label}, after (ring by ring)`, after.wall, after.cpu, same);
  }
}

/** Relationships of the hub, the item a neighbourhood is widest around: a note tied to notes all over the folder. */
const HUB_RELATIONSHIPS = 300;

/** The graph request's server part for the current file's neighbourhood (the default view), without the JSON. */
async function graphNeighbourhood(store: WorkspaceStore): Promise<void> {
  const folder = 'file:///bench';
  const filter: GraphFilter = { statuses: DEFAULT_GRAPH_STATUSES, minStrength: 0 };
  // Setup, not timed (and after the proposal note's rounds, which it would otherwise feed): the hub's
  // relationships, written again on a kept store with the same evidence.
  const hub = (await store.getItemByPath(notePath(1)))!.id;
  for (let k = 1; k <= HUB_RELATIONSHIPS; k += 1) {
    const other = (await store.getItemByPath(notePath((1 + k * 331) % ITEMS)))!.id;
    const signals = [similaritySignal(0.9), sharedEntitySignal('Hub Project Ltd', 'organisation', 3)];
    const { score } = scoreSignals(signals);
    await store.upsertRelationship(
      { fromItemId: hub, toItemId: other, type: 'similar_to', score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'bench' },
      reviewAgainstDecision,
    );
  }
  const random = seededRandom(5);
  const notes: string[] = [];
  while (notes.length < ROUNDS) {
    const item = await store.getItemByPath(notePath(Math.floor(random() * ITEMS)));
    if (item?.status === 'indexed') notes.push(item.id);
  }
  for (const [label, picks] of [
    [`a note, ${DEFAULT_NEIGHBOURHOOD_DEPTH} relationships out`, notes],
    [`a hub of ${HUB_RELATIONSHIPS} relationships, ${DEFAULT_NEIGHBOURHOOD_DEPTH} out`, [hub, hub, hub]],
  ] as const) {
    const before = { wall: [] as number[], cpu: [] as number[] };
    const after = { wall: [] as number[], cpu: [] as number[] };
    let same = true;
    let shown = 0;
    for (const itemId of picks) {
      const focus = { folder, itemId, depth: DEFAULT_NEIGHBOURHOOD_DEPTH };
      const whole = await timed(async () => buildRelationshipGraph([await wholeFolderGraphInput(store, folder, DEFAULT_THRESHOLDS)], { filter, focus }));
      const walked = await timed(async () => buildRelationshipGraph([await neighbourhoodGraphInput(store, folder, focus, filter, DEFAULT_THRESHOLDS)], { filter, focus }));
      before.wall.push(whole.wall);
      before.cpu.push(whole.cpu);
      after.wall.push(walked.wall);
      after.cpu.push(walked.cpu);
      same &&= isDeepStrictEqual(whole.value, walked.value);
      shown = Math.max(shown, walked.value.nodes.length);
    }
    report(`graph neighbourhood, ${label} (up to ${shown} items), before (every item and relationship read)`, before.wall, before.cpu, same);
    report(`graph neighbourhood, ${label} (up to ${shown} items), after (walked out from the item)`, after.wall, after.cpu, same);
  }
}

async function proposalNote(store: WorkspaceStore): Promise<void> {
  const reference = new ListingEverything();
  const tracker = new ProposalTracker();
  const first = [await timed(() => reference.look(store)), await timed(() => tracker.look(store, DEFAULT_THRESHOLDS.storeScore))];
  console.log(`proposal note, first look after the session opens: before ${ms(first[0]!.wall)} ms, after ${ms(first[1]!.wall)} ms (both read everything once)`);
  const random = seededRandom(11);
  const before = { wall: [] as number[], cpu: [] as number[] };
  const after = { wall: [] as number[], cpu: [] as number[] };
  let same = true;
  for (let round = 0; round < ROUNDS; round += 1) {
    // A pass: 10 files edited, 10 pairs among them proposed.
    const edited: string[] = [];
    for (let n = 0; n < 10; n += 1) {
      const file = notePath(Math.floor(random() * ITEMS));
      const outcome = await store.recordIngest({ path: file, contentHash: `${round}-${n}`.padStart(64, 'e'), size: 3_500 }, () => true);
      edited.push(outcome.itemId);
    }
    for (let n = 0; n < 10; n += 1) {
      const signals = [similaritySignal(0.99), sharedEntitySignal(`Round ${round} Ltd`, 'organisation', 2)];
      const { score } = scoreSignals(signals);
      const [from, to] = [edited[n]!, edited[(n + 1) % edited.length]!];
      if (from === to) continue;
      await store.upsertRelationship(
        { fromItemId: from, toItemId: to, type: 'similar_to', score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'bench' },
        reviewAgainstDecision,
      );
    }
    const listed = await timed(() => reference.look(store));
    const tracked = await timed(() => tracker.look(store, DEFAULT_THRESHOLDS.storeScore));
    before.wall.push(listed.wall);
    before.cpu.push(listed.cpu);
    after.wall.push(tracked.wall);
    after.cpu.push(tracked.cpu);
    same &&= isDeepStrictEqual(listed.value, tracked.value);
  }
  report('proposal note after a pass of 10 edits, before (every relationship and item read)', before.wall, before.cpu, same);
  report('proposal note after a pass of 10 edits, after (what was written since)', after.wall, after.cpu, same);
}

const bench = await openBenchStore('folder-reads', { items: ITEMS, relationships: RELATIONSHIPS }, buildStore);
const { store } = bench;
await nearby(store);
await proposalNote(store);
await graphNeighbourhood(store);
await bench.close();
