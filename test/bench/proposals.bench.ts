// npm run bench:proposals — what the Proposals view costs to open on a folder of 100,000 notes
// (issue 32: "open in ≤ 1 s"), whole and in pages (shared/proposalPages.ts). The store holds
// 100,000 items and 60,000 relationships (0.6 an item, as bench:folder's 2,000 generated notes
// gave) of the types and review states discovery leaves: mostly similar_to and mentions, links
// the documents state, a few supports and contradictions, 1% confirmed and 0.5% rejected. Timed in
// one process: the server's part of the request (the relationships, their contributions and copy
// groups, the JSON the language server would send) and the client's tree built from the answer.
// The JSON-RPC transport and VS Code's rendering are not in the figures. The pages are built twice:
// as before issue 32's store paging (every relationship read and classified) and as now. The
// server's part is also given in CPU time, which a shared machine's load inflates less than the
// wall clock. Prints; asserts nothing.
//
//   RELATA_BENCH_ITEMS=100000 RELATA_BENCH_RELATIONSHIPS=60000   the store's size
//   RELATA_BENCH_STORE=DIR   keep the generated store in DIR and use it again next time

import { loadavg } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { proposalTree } from '../../client/src/proposals/proposalTree.ts';
import { NO_FILTER, PROPOSALS_PAGE_SIZE } from '../../shared/proposalPages.ts';
import type { FolderRelationships } from '../../shared/protocol.ts';
import type { RelationshipType, SignalView } from '../../shared/types.ts';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { copyGroupsAmong } from '../../server/src/engine/copyGroups.ts';
import { signalContributions } from '../../server/src/engine/relationshipDetail.ts';
import { relationshipPages } from '../../server/src/engine/relationshipPages.ts';
import { decide, listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { DEFAULT_THRESHOLDS, documentLinkSignal, scoreSignals, SCORE_VERSION, sharedEntitySignal, similaritySignal, temporalSignal } from '../../server/src/scoring/index.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { openBenchStore } from '../support/benchStore.ts';
import type { RelationshipView } from '../../shared/types.ts';
import { seededRandom } from '../support/generateCorpus.ts';
import { relationshipPagesByListing } from '../support/wholeFolderReads.ts';

const ITEMS = Number(process.env.RELATA_BENCH_ITEMS ?? 100_000);
const RELATIONSHIPS = Number(process.env.RELATA_BENCH_RELATIONSHIPS ?? 60_000);
const ROUNDS = 5;

const TYPES: [RelationshipType, number][] = [['similar_to', 0.6], ['mentions', 0.2], ['links_to', 0.1], ['supports', 0.05], ['contradicts', 0.03], ['occurred_before', 0.02]];

function evidence(type: RelationshipType, n: number, random: () => number, paths: [string, string]): SignalView[] {
  const similarity = similaritySignal(0.75 + random() * 0.2);
  if (type === 'links_to') return [documentLinkSignal(paths[0], paths[1], `line ${1 + (n % 40)}`, `[see also](${paths[1]})`), similarity];
  if (type === 'occurred_before') return [temporalSignal('2025-05-01', '2025-05-16')!, sharedEntitySignal('Carla Mendes', 'person', 3)];
  return [similarity, sharedEntitySignal(`Project ${n % 997} Ltd`, 'organisation', 2 + (n % 5))];
}

async function buildStore(dataDir: string): Promise<void> {
  const random = seededRandom(32);
  const store = openSqliteStore({ dataDir, workspace: 'bench' });
  const ids: string[] = [];
  const paths: string[] = [];
  for (let n = 0; n < ITEMS; n += 1) {
    const file = `notes/project-${n % 500}/${2020 + (n % 6)}/note-${n}.md`;
    ids.push((await store.recordIngest({ path: file, contentHash: n.toString(16).padStart(64, '0'), size: 3_400 }, () => true)).itemId);
    paths.push(file);
  }
  for (let n = 0; n < RELATIONSHIPS; n += 1) {
    const a = Math.floor(random() * ITEMS);
    const b = (a + 1 + Math.floor(random() * 50)) % ITEMS;
    let pick = random();
    const type = TYPES.find(([, share]) => (pick -= share) < 0)?.[0] ?? 'similar_to';
    const signals = evidence(type, n, random, [paths[a]!, paths[b]!]);
    const { score } = scoreSignals(signals);
    const { id } = await store.upsertRelationship(
      { fromItemId: ids[a]!, toItemId: ids[b]!, type, score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'bench' },
      reviewAgainstDecision,
    );
    const decision = random();
    if (decision < 0.01) await decide(store, id, { status: 'confirmed', by: 'bench' });
    else if (decision < 0.015) await decide(store, id, { status: 'rejected', by: 'bench' });
  }
  await store.close();
}

/** The server's answer for one folder, as requests.ts builds it, and its JSON. */
function answer(relationships: RelationshipView[], pages: Partial<FolderRelationships>): { folder: FolderRelationships; json: string } {
  const contributions = Object.fromEntries(relationships.map((relationship) => [relationship.id, signalContributions(relationship)]));
  const folder = { folder: 'file:///notes', name: 'notes', relationships, copyGroups: copyGroupsAmong(relationships), contributions, ...pages };
  return { folder, json: JSON.stringify({ folders: [folder] }) };
}

async function measure(label: string, store: WorkspaceStore, request: () => Promise<{ relationships: RelationshipView[]; pages: Partial<FolderRelationships> }>) {
  const server: number[] = [];
  const serverCpu: number[] = [];
  const client: number[] = [];
  let size = 0;
  let rows = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { relationships, pages } = await request();
    const { json } = answer(relationships, pages);
    const answered = performance.now();
    const used = process.cpuUsage(cpu);
    serverCpu.push((used.user + used.system) / 1000);
    // The client parses what it is sent and builds its tree from it.
    const tree = proposalTree(JSON.parse(json).folders, { filter: NO_FILTER });
    client.push(performance.now() - answered);
    server.push(answered - started);
    size = json.length;
    rows = relationships.length;
    void tree;
  }
  const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!.toFixed(0);
  const max = (values: number[]) => Math.max(...values).toFixed(0);
  console.log(`${label}: ${rows.toLocaleString('en')} relationships sent, ${(size / 1e6).toFixed(1)} MB of JSON; server p50 ${p50(server)} / max ${max(server)} ms (CPU p50 ${p50(serverCpu)} ms), client tree p50 ${p50(client)} / max ${max(client)} ms (load ${loadavg()[0]!.toFixed(1)})`);
  void store;
}

const bench = await openBenchStore('proposals', { items: ITEMS, relationships: RELATIONSHIPS }, buildStore);
const { store } = bench;
await measure('whole (before paging)', store, async () => ({ relationships: await listRelationshipViews(store, DEFAULT_THRESHOLDS), pages: {} }));
const firstPages = { filter: NO_FILTER, pageSize: PROPOSALS_PAGE_SIZE, moreRows: new Map<string, number>() };
await measure(`in pages of ${PROPOSALS_PAGE_SIZE}, every relationship read and classified (before the store paged)`, store, async () => {
  const paged = await relationshipPagesByListing(store, DEFAULT_THRESHOLDS, firstPages);
  return { relationships: paged.relationships, pages: { unitTotals: paged.unitTotals, awaitingReview: paged.awaitingReview } };
});
await measure(`in pages of ${PROPOSALS_PAGE_SIZE}, counted and paged by the store (the view now)`, store, async () => {
  const paged = await relationshipPages(store, DEFAULT_THRESHOLDS, firstPages);
  return { relationships: paged.relationships, pages: { unitTotals: paged.unitTotals, awaitingReview: paged.awaitingReview } };
});
const [before, now] = [await relationshipPagesByListing(store, DEFAULT_THRESHOLDS, firstPages), await relationshipPages(store, DEFAULT_THRESHOLDS, firstPages)];
console.log(`the two pages ${isDeepStrictEqual(before, now) ? 'are identical' : 'DIFFER'}`);
await bench.close();
