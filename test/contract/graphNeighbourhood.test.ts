// The graph's neighbourhood read outward from the current file (engine/graphReads.ts, issue 32), on
// every backend: the graph it gives is the one the whole folder's items and relationships gave,
// node for node and edge for edge, from every item, 1 to 3 relationships out, with filters and with
// limits small enough to leave items out, while it reads only the neighbourhood. The fixture has a
// hub with many neighbours joined among themselves, relationships of several types, confirmed,
// rejected and pending ones under the storage threshold, and relationships through an item that is
// not indexed and one that was deleted: none of those may be a path outward.

import assert from 'node:assert/strict';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { neighbourhoodGraphInput, wholeFolderGraphInput } from '../../server/src/engine/graphReads.ts';
import { buildRelationshipGraph, graphNodeId } from '../../server/src/engine/relationshipGraph.ts';
import { decide } from '../../server/src/engine/relationships.ts';
import { DEFAULT_THRESHOLDS, documentLinkSignal, scoreSignals, SCORE_VERSION, sharedEntitySignal, similaritySignal } from '../../server/src/scoring/index.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { DEFAULT_GRAPH_STATUSES, GRAPH_STATUSES, type GraphFilter } from '../../shared/graph.ts';
import type { RelationshipType, SignalView } from '../../shared/types.ts';
import { seededRandom } from '../support/generateCorpus.ts';
import { forEachBackend } from './backends.ts';
import { indexDocument, ingest } from './documents.ts';

const FOLDER = 'file:///folder';

/** Root files, nested folders, upper case and names outside the Basic Multilingual Plane (UTF-16 and code-point order differ there). */
const PATHS = [
  'hub.md', 'A.md', 'a.md', 'z.md', 'a/one.md', 'a/b/two.md', 'a/b/c/three.md', 'a.b/four.md', 'a-z/five.md', 'a0/six.md',
  'ab/seven.md', 'Zeta/eight.md', '\u{1F600}/nine.md', '\uFF21/ten.md', 'x/y/eleven.md',
  ...Array.from({ length: 25 }, (_, n) => `notes/${2020 + (n % 4)}/note-${n}.md`),
];
const HUB_SPOKES = 18;
const TYPES: RelationshipType[] = ['similar_to', 'links_to', 'contradicts', 'supports', 'mentions', 'occurred_before'];

/** Evidence of several strengths; wording alone (every fourth, unless `listed`) is a pending proposal under the storage threshold. */
function evidence(n: number, listed: boolean): SignalView[] {
  const link = documentLinkSignal(`f${n}.md`, `f${n + 1}.md`, `line ${n}`, `[see](f${n + 1}.md)`);
  const similarity = similaritySignal(0.8 + (n % 20) / 100);
  const name = sharedEntitySignal(`Project ${n % 5} Ltd`, 'organisation', 2 + (n % 3));
  const kinds = [[link, similarity], [link, name], [similarity, name], [similarity]];
  return kinds[listed ? n % 3 : n % 4]!;
}

interface Fixture {
  ids: Map<string, string>;
  /** The hub's two spokes joined to each other: an edge between two items one step out. */
  spokesJoined: string;
}

async function fill(store: WorkspaceStore): Promise<Fixture> {
  const ids = new Map<string, string>();
  for (const filePath of PATHS) ids.set(filePath, (await indexDocument(store, filePath, `# ${filePath}\n\nNotes on ${filePath}.\n`)).itemId);
  const id = (n: number) => ids.get(PATHS[n]!)!;
  let n = 0;
  const relate = async (from: string, to: string, options: { listed?: boolean; score?: number } = {}): Promise<string> => {
    const signals = evidence(n, options.listed ?? false);
    const score = options.score;
    const stored = score ?? scoreSignals(signals).score;
    const type = TYPES[n % TYPES.length]!;
    n += 1;
    return (
      await store.upsertRelationship(
        { fromItemId: from, toItemId: to, type, score: stored, proposedScore: stored, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'test' },
        reviewAgainstDecision,
      )
    ).id;
  };

  // The hub and its spokes, every other pair of spokes joined.
  for (let spoke = 1; spoke <= HUB_SPOKES; spoke += 1) await relate(id(0), id(spoke), { listed: true });
  const spokesJoined = await relate(id(1), id(2), { listed: true });
  for (let spoke = 3; spoke < HUB_SPOKES; spoke += 2) await relate(id(spoke), id(spoke + 1), { listed: true });
  // The rest of the folder, joined at random, some of it only through the spokes (the pair of
  // spokes joined above left alone, so that it stays listed).
  const random = seededRandom(32);
  for (let k = 0; k < 60; k += 1) {
    const a = 1 + Math.floor(random() * (PATHS.length - 1));
    const b = 1 + Math.floor(random() * (PATHS.length - 1));
    if (a !== b && a + b !== 3) {
      const relationship = await relate(id(a), id(b));
      if (k % 7 === 3) await decide(store, relationship, { status: 'confirmed', by: 'ana' });
      if (k % 9 === 5) await decide(store, relationship, { status: 'rejected', by: 'ana' });
    }
  }
  // A pending proposal under the storage threshold is not listed, so not a path: from the hub to
  // the last note, and a rejected one from the hub to the one before it.
  await relate(id(0), id(PATHS.length - 1), { score: DEFAULT_THRESHOLDS.storeScore / 2 });
  await decide(store, await relate(id(0), id(PATHS.length - 2), { listed: true }), { status: 'rejected', by: 'ana' });
  // Items that are not drawn: one not indexed yet, one deleted, each between the hub and a note.
  const waiting = (await ingest(store, 'waiting.md', '# Waiting\n\nnot parsed yet\n')).itemId;
  const gone = (await indexDocument(store, 'gone.md', '# Gone\n\ndeleted\n')).itemId;
  for (const undrawn of [waiting, gone]) {
    await relate(id(0), undrawn, { listed: true });
    await relate(undrawn, id(PATHS.length - 3), { listed: true });
  }
  await store.tombstone('gone.md');
  return { ids, spokesJoined };
}

const FILTERS: [string, GraphFilter][] = [
  ['the default statuses', { statuses: DEFAULT_GRAPH_STATUSES, minStrength: 0 }],
  ['every status', { statuses: GRAPH_STATUSES, minStrength: 0 }],
  ['two types', { types: ['contradicts', 'supports'], statuses: GRAPH_STATUSES, minStrength: 0 }],
  ['a minimum strength', { statuses: DEFAULT_GRAPH_STATUSES, minStrength: 0.45 }],
];
const LIMITS = [undefined, { items: 7, relationships: 9 }];

forEachBackend((backend) => {
  backend.test('the neighbourhood read outward is the graph the whole folder gave, from every item, at every depth, filter and limit', async (t) => {
    const { store } = await backend.open(t);
    const { ids } = await fill(store);
    const whole = await wholeFolderGraphInput(store, FOLDER, DEFAULT_THRESHOLDS);
    assert.equal(whole.items.length, PATHS.length, 'the waiting and the deleted item are not drawn');

    let compared = 0;
    let cut = 0;
    let widest = 0;
    for (const itemId of ids.values()) {
      for (const depth of [1, 2, 3]) {
        for (const [label, filter] of FILTERS) {
          const focus = { folder: FOLDER, itemId, depth };
          const read = await neighbourhoodGraphInput(store, FOLDER, { itemId, depth }, filter, DEFAULT_THRESHOLDS);
          for (const limits of LIMITS) {
            const expected = buildRelationshipGraph([whole], { filter, focus, limits });
            const actual = buildRelationshipGraph([read], { filter, focus, limits });
            assert.deepEqual(actual, expected, `${itemId}, ${depth} out, ${label}, ${limits ? 'small limits' : 'default limits'}`);
            if (expected.leftOut) cut += 1;
            compared += 1;
          }
          // Only the neighbourhood was read: every item read is in it.
          const inScope = buildRelationshipGraph([whole], { filter, focus }).nodes.length;
          assert.equal(read.items.length, inScope, `${itemId}, ${depth} out, ${label}: the items read`);
          widest = Math.max(widest, inScope);
        }
      }
    }
    assert.equal(compared, PATHS.length * 3 * FILTERS.length * LIMITS.length);
    // The fixture reaches limits and large neighbourhoods, and never the whole folder from the hub at one step.
    assert.ok(cut > 50, `${cut} answers left something out`);
    assert.ok(widest > 20, `the widest neighbourhood held ${widest} items`);
  });

  backend.test('the relationships among the last ring reached are drawn, and nothing under the threshold, rejected or through an undrawn item leads further', async (t) => {
    const { store } = await backend.open(t);
    const { ids, spokesJoined } = await fill(store);
    const hub = ids.get('hub.md')!;
    const filter: GraphFilter = { statuses: DEFAULT_GRAPH_STATUSES, minStrength: 0 };
    const read = await neighbourhoodGraphInput(store, FOLDER, { itemId: hub, depth: 1 }, filter, DEFAULT_THRESHOLDS);
    const graph = buildRelationshipGraph([read], { filter, focus: { folder: FOLDER, itemId: hub, depth: 1 } });

    assert.ok(graph.edges.some((edge) => edge.relationship_id === spokesJoined), 'the edge between two spokes');
    const paths = new Set(graph.nodes.map((node) => node.path));
    assert.equal(paths.size, HUB_SPOKES + 1);
    for (const undrawn of [PATHS.at(-1)!, PATHS.at(-2)!, PATHS.at(-3)!, 'waiting.md', 'gone.md']) assert.ok(!paths.has(undrawn), undrawn);
    assert.equal(graph.scope.kind === 'neighbourhood' && graph.scope.node, graphNodeId(FOLDER, hub));
  });
});
