// Related, for one item: what a person reading it may want next. First the item's relationships
// (what the evidence says about the pair, with a strength), then the items nearest in content
// ("more like this": the item's own window vectors against the vector index, and its most
// distinctive phrases as a full-text query, fused by reciprocal rank), each with why and whether
// the documents already link. The number beside a content neighbour is the cosine of the closest
// windows, a semantic similarity: never a relationship strength, never a probability.
//
// Rejected relationships are left out, and so are their pairs among the neighbours: a person said
// these two are not related, and Related is not the place to argue. When neither side finds
// anything (no vectors, no distinctive words) the list is filled, honestly labelled, with items
// sharing a name and then the items nearest in the folder tree, so a folder of two indexed
// documents never shows an empty list. The engine knows nothing of the editor; the CLI, the
// language server and the MCP tool all call relatedTo.

import path from 'node:path';
import {
  RELATED_SIMILARITY_LABEL,
  type ItemRef,
  type RelatedEntry,
  type RelatedRelationship,
  type RelatedView,
} from '../../../shared/types.ts';
import { signalName } from '../../../shared/wording.ts';
import { spreadOver } from '../discover/itemCosine.ts';
import { weightConcepts } from '../extract/concepts.ts';
import { RRF_K } from '../ranking/weights.ts';
import { DEFAULT_THRESHOLDS, scoreSignals } from '../scoring/index.ts';
import type { DiscoveryFacts, ItemRecord, RelationshipRecord, VectorHit, WorkspaceStore } from '../store/contract.ts';
import { viewedItem } from './itemViews.ts';
import { nearestInTree } from './treeRings.ts';

export const DEFAULT_RELATED_LIMIT = 10;
/** Windows of the item sent to the vector index: a long document is represented by windows spread over it. */
const QUERY_WINDOWS = 8;
/** Phrases read per item, and distinctive concepts turned into the full-text query. */
const PHRASES_READ = 40;
const QUERY_CONCEPTS = 8;
/** Counting how many items share a phrase stops here: past it the weight barely moves. */
const PHRASE_COUNT_CAP = 1000;
/** Names compared for "why", and looked up for the `nearby` fallback (rarest first). */
const NAMES_SHOWN = 3;
const WORDS_SHOWN = 3;
const FALLBACK_NAME_KEYS = 5;
/** Neighbours asked of each side at most, whatever the limit and however many relationships the item has. */
const MAX_DEPTH = 200;

/**
 * How the window pairs of an item and a neighbour become one closeness. 'best': the closest pair
 * (best chunk). 'mean_top2': the mean of the two closest pairs, which rewards a neighbour close in
 * more than one passage. Measured on SciFact's train claims (docs/SEARCH.md, Related).
 */
export type WindowAggregation = 'best' | 'mean_top2';
export const DEFAULT_AGGREGATION: WindowAggregation = 'best';
/** The vector list's weight in the fusion (the lexical list's is 1); measured on SciFact's train claims (docs/SEARCH.md). */
export const VECTOR_WEIGHT = 0.5;

export interface RelatedOptions {
  /** Entries shown in all (relationships first). Default 10. */
  limit?: number;
  /** Leave out what the documents already link ("not linked yet" only). */
  onlyUnlinked?: boolean;
  /** The embedding model whose vectors are compared; undefined: the model with the most vectors in the store; null: none. */
  modelId?: string | null;
  /** Pending relationships below this strength (evidence that weakened) are left out, as in `relata relationships`. */
  minPendingScore?: number;
  aggregation?: WindowAggregation;
  /** The vector list's weight in the fusion, against the lexical list's 1 (for the evaluation's grid). */
  vectorWeight?: number;
}

/** The path is not an item Related can answer for; the message names the path and why. */
export class RelatedItemError extends Error {}

interface Neighbour {
  itemId: string;
  similarity: number | null;
  /** The closeness the vector side ranks by (WindowAggregation). */
  closeness: number;
  vectorRank: number | null;
  lexicalRank: number | null;
  chunkId: string | null;
}

export async function relatedTo(store: WorkspaceStore, itemPath: string, options: RelatedOptions = {}): Promise<RelatedView> {
  const atPath = await store.getItemByPath(itemPath);
  if (!atPath) throw new RelatedItemError(`${itemPath}: not an item of this folder's index (paths are relative to the folder)`);
  const { item } = await viewedItem(store, atPath);
  if (item.status !== 'indexed') {
    throw new RelatedItemError(`${itemPath}: not indexed (${item.status}${item.reason ? `: ${item.reason}` : ''}), so nothing can be related to it yet`);
  }
  const limit = Math.max(1, options.limit ?? DEFAULT_RELATED_LIMIT);
  const modelId = options.modelId === undefined ? await modelWithMostVectors(store) : options.modelId;
  const notes: string[] = [];

  const records = await store.relationshipsTouching([item.id], { statuses: ['confirmed', 'pending'] });
  const rejected = await store.relationshipsTouching([item.id], { statuses: ['rejected'] });
  const minPending = options.minPendingScore ?? DEFAULT_THRESHOLDS.storeScore;
  const shown = records
    .filter((record) => record.status === 'confirmed' || record.score >= minPending)
    .sort((a, b) => statusOrder(a) - statusOrder(b) || b.score - a.score || a.id.localeCompare(b.id));
  const otherEnd = (record: RelationshipRecord) => (record.fromItemId === item.id ? record.toItemId : record.fromItemId);
  const linkedIds = new Set([...records, ...rejected].filter((record) => record.type === 'links_to').map(otherEnd));
  const excluded = new Set([item.id, ...shown.map(otherEnd), ...rejected.map(otherEnd)]);

  const [facts] = [...(await store.discoveryFacts([item.id], modelId, PHRASES_READ)).values()];
  const subject = facts ?? { entities: [], claims: [], phrases: [], vectors: [], metadata: [] };
  const queries = spreadOver(subject.vectors, QUERY_WINDOWS);
  if (!modelId) notes.push('no vectors: the embedding model is none, so content neighbours come from shared words only');
  else if (queries.length === 0) notes.push(`no vectors for this item from ${modelId} yet: content neighbours come from shared words only`);

  // Deep enough that the item's related and rejected pairs, left out here, do not empty the list; bounded all the same.
  const depth = Math.min(limit + excluded.size + 5, MAX_DEPTH);
  const byId = new Map<string, Neighbour>();
  const neighbour = (itemId: string): Neighbour => {
    let found = byId.get(itemId);
    if (!found) byId.set(itemId, (found = { itemId, similarity: null, closeness: 0, vectorRank: null, lexicalRank: null, chunkId: null }));
    return found;
  };

  if (modelId && queries.length > 0) {
    const hits = await store.searchVectorsMany(modelId, queries, depth);
    const ranked = aggregateWindows(hits, excluded, options.aggregation ?? DEFAULT_AGGREGATION);
    ranked.forEach((entry, index) => Object.assign(neighbour(entry.itemId), { ...entry, vectorRank: index + 1 }));
  }

  const concepts = await distinctiveConcepts(store, subject.phrases);
  const query = concepts.length > 0 ? concepts.join(' ') : (item.title ?? '');
  if (query.trim() !== '') {
    const hits = await store.searchChunksLexical(query, depth * 2);
    let rank = 0;
    for (const hit of hits) {
      if (excluded.has(hit.itemId) || byId.get(hit.itemId)?.lexicalRank != null) continue;
      const found = neighbour(hit.itemId);
      found.lexicalRank = ++rank;
      found.chunkId ??= hit.id;
    }
  }

  const fused = [...byId.values()]
    .map((entry) => ({ entry, fused: (options.vectorWeight ?? VECTOR_WEIGHT) * rrf(entry.vectorRank) + rrf(entry.lexicalRank) }))
    .sort((a, b) => b.fused - a.fused || a.entry.itemId.localeCompare(b.entry.itemId))
    .map(({ entry }) => entry);
  const neighbours = fused.filter((entry) => !(options.onlyUnlinked && linkedIds.has(entry.itemId))).slice(0, limit);
  await measureSimilarity(store, modelId, queries, neighbours);

  const relationships = shown.filter((record) => !(options.onlyUnlinked && record.type === 'links_to'));
  const refs = await refsOf(store, [...relationships.map(otherEnd), ...neighbours.map((entry) => entry.itemId)]);
  // Equal strengths by the other end's path: a relationship's id derives from its items' ids, which
  // are random, so ordering by it gave each store of the same folder its own order, and its own top
  // five (eval:relationships moved by up to six author-linked pairs between two stores of one build).
  const otherPath = (record: RelationshipRecord) => refs.get(otherEnd(record))?.path ?? '';
  relationships.sort((a, b) => statusOrder(a) - statusOrder(b) || b.score - a.score || otherPath(a).localeCompare(otherPath(b)) || a.id.localeCompare(b.id));
  const othersFacts = await store.discoveryFacts(neighbours.map((entry) => entry.itemId), null, PHRASES_READ);
  const locations = new Map(
    (await store.getChunks(neighbours.flatMap((entry) => (entry.chunkId ? [entry.chunkId] : [])))).map((chunk) => [chunk.id, chunk.location]),
  );

  const entries: RelatedEntry[] = relationships.flatMap((record) => {
    const ref = refs.get(otherEnd(record));
    return ref ? [relationshipEntry(record, item.id, ref)] : [];
  });
  for (const entry of neighbours) {
    const ref = refs.get(entry.itemId);
    if (!ref) continue; // Not live and indexed any more: the index is a moment behind.
    const location = entry.chunkId ? locations.get(entry.chunkId) : undefined;
    entries.push({
      item: ref,
      kind: 'similar_content',
      relationship: null,
      similarity: entry.similarity,
      why: whyNeighbour(subject, concepts, othersFacts.get(entry.itemId), entry, linkedIds.has(entry.itemId)),
      linked: linkedIds.has(entry.itemId),
      passage: location ? { location } : null,
    });
  }

  if (entries.length === 0 && byId.size === 0) {
    notes.push('nothing close in content was found: these share a name with it or sit near it in the folder');
    entries.push(...(await nearbyItems(store, item, subject, excluded, linkedIds, options.onlyUnlinked ?? false, limit)));
  }

  return { item: refOf(item), entries: entries.slice(0, limit), similarity_label: RELATED_SIMILARITY_LABEL, notes };
}

const statusOrder = (record: RelationshipRecord) => (record.status === 'confirmed' ? 0 : 1);

const rrf = (rank: number | null) => (rank === null ? 0 : 1 / (RRF_K + rank));

const refOf = (item: Pick<ItemRecord, 'id' | 'path' | 'title'>): ItemRef => ({ item_id: item.id, path: item.path, title: item.title });

/**
 * The store's model with the most vectors: the one indexing used, unless the folder changed model
 * midway. Counting vectors costs a fifth of a Related at 10,000 items (bench:related), and the
 * answer changes only when the folder changes model, so it is kept a minute per store.
 */
async function modelWithMostVectors(store: WorkspaceStore): Promise<string | null> {
  const known = modelChoice.get(store);
  if (known && performance.now() - known.at < MODEL_CHOICE_MS) return known.modelId;
  const usage = await store.modelUsage();
  const modelId = usage.filter((model) => model.vectors > 0).sort((a, b) => b.vectors - a.vectors)[0]?.id ?? null;
  modelChoice.set(store, { modelId, at: performance.now() });
  return modelId;
}

const MODEL_CHOICE_MS = 60_000;
const modelChoice = new WeakMap<WorkspaceStore, { modelId: string | null; at: number }>();

/**
 * Per other item, every similarity between one of the item's query windows and one of its windows
 * that the index returned; then one closeness by `aggregation` (mean_top2 of what was returned, so
 * a one-window item is not penalised for being short), closest first.
 */
export function aggregateWindows(
  hitsPerQuery: readonly VectorHit[][],
  excluded: ReadonlySet<string>,
  aggregation: WindowAggregation,
): { itemId: string; similarity: number; closeness: number; chunkId: string }[] {
  const perItem = new Map<string, VectorHit[]>();
  for (const hit of hitsPerQuery.flat()) {
    if (excluded.has(hit.itemId)) continue;
    perItem.set(hit.itemId, [...(perItem.get(hit.itemId) ?? []), hit]);
  }
  return [...perItem.entries()]
    .map(([itemId, hits]) => {
      const sorted = hits.sort((a, b) => b.similarity - a.similarity);
      const best = sorted[0]!;
      const top = sorted.slice(0, 2);
      const closeness = aggregation === 'best' ? best.similarity : top.reduce((sum, hit) => sum + hit.similarity, 0) / top.length;
      return { itemId, similarity: best.similarity, closeness, chunkId: best.chunkId };
    })
    .sort((a, b) => b.closeness - a.closeness || a.itemId.localeCompare(b.itemId));
}

/** The item's most distinctive phrases (tf-idf against the folder), as the words of a full-text query. */
async function distinctiveConcepts(store: WorkspaceStore, phrases: DiscoveryFacts['phrases']): Promise<string[]> {
  if (phrases.length === 0) return [];
  const counts = await store.phraseItemCounts(phrases.map((phrase) => phrase.key), PHRASE_COUNT_CAP);
  const itemCount = await store.countIndexedItems();
  // A phrase no other item uses finds nothing; it still says what the item is about, so it stays.
  return weightConcepts(phrases, (key) => counts.get(key) ?? 1, itemCount, QUERY_CONCEPTS).map((concept) => concept.key);
}

/** A lexical-only neighbour still gets its cosine, when the item has vectors: the number shown is always similarity. */
async function measureSimilarity(store: WorkspaceStore, modelId: string | null, queries: readonly Float32Array[], neighbours: Neighbour[]): Promise<void> {
  const unmeasured = neighbours.filter((entry) => entry.similarity === null);
  if (!modelId || queries.length === 0 || unmeasured.length === 0) return;
  const ids = unmeasured.map((entry) => entry.itemId);
  for (const query of queries) {
    for (const hit of await store.bestSimilarities(modelId, query, ids)) {
      const entry = unmeasured.find((candidate) => candidate.itemId === hit.itemId)!;
      if (entry.similarity === null || hit.similarity > entry.similarity) entry.similarity = hit.similarity;
    }
  }
}

async function refsOf(store: WorkspaceStore, itemIds: readonly string[]): Promise<Map<string, ItemRef>> {
  const info = await store.searchItemInfo([...new Set(itemIds)]);
  return new Map(info.map((entry) => [entry.itemId, { item_id: entry.itemId, path: entry.path, title: entry.title }]));
}

function relationshipEntry(record: RelationshipRecord, itemId: string, other: ItemRef): RelatedEntry {
  const direction = record.fromItemId === itemId ? 'outgoing' : 'incoming';
  const relationship: RelatedRelationship = {
    id: record.id,
    type: record.type,
    direction,
    status: record.status,
    strength: record.score,
    score_version: record.scoreVersion,
    evidence: evidenceLine(record),
  };
  const linked = record.type === 'links_to';
  return {
    item: other,
    kind: 'relationship',
    relationship,
    similarity: null,
    why: linked ? [direction === 'outgoing' ? 'links to it' : 'linked from it'] : [],
    linked,
    passage: null,
  };
}

/** The strongest piece of evidence in one line, and how many more there are. */
export function evidenceLine(record: Pick<RelationshipRecord, 'signals'>): string {
  const evidence = scoreSignals(record.signals)
    .contributions.filter(({ signal }) => signal.type !== 'user_confirmation' && signal.type !== 'user_rejection')
    .sort((a, b) => b.contribution - a.contribution);
  const [top, ...rest] = evidence;
  if (!top) return 'no evidence recorded';
  const first = `${signalName(top.signal.type)}: ${oneLine(top.signal.value)}`;
  return rest.length === 0 ? first : `${first} (+${rest.length} more)`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function whyNeighbour(
  subject: DiscoveryFacts,
  concepts: readonly string[],
  other: DiscoveryFacts | undefined,
  entry: Neighbour,
  linked: boolean,
): string[] {
  const why: string[] = [];
  if (linked) why.push('the documents link to each other');
  const names = sharedNames(subject, other);
  if (names.length > 0) why.push(`shares names: ${names.join(', ')}`);
  const otherKeys = new Map((other?.phrases ?? []).map((phrase) => [phrase.key, phrase.phrase]));
  const words = concepts.filter((key) => otherKeys.has(key)).slice(0, WORDS_SHOWN);
  if (words.length > 0) why.push(`shares words: ${words.map((key) => otherKeys.get(key)).join(', ')}`);
  if (entry.vectorRank !== null && why.length === 0) why.push('close in meaning (its passages read alike)');
  if (why.length === 0) why.push('matches its distinctive words');
  return why;
}

function sharedNames(subject: DiscoveryFacts, other: DiscoveryFacts | undefined): string[] {
  if (!other) return [];
  const theirs = new Set(other.entities.filter((entity) => entity.type !== 'date').map((entity) => entity.key));
  const surfaces = new Map<string, string>();
  for (const entity of subject.entities) if (entity.type !== 'date' && theirs.has(entity.key) && !surfaces.has(entity.key)) surfaces.set(entity.key, entity.surface);
  return [...surfaces.values()].slice(0, NAMES_SHOWN);
}

/** The honest fallback: items sharing a name (rarest first), then the items nearest in the folder tree. */
async function nearbyItems(
  store: WorkspaceStore,
  item: ItemRecord,
  subject: DiscoveryFacts,
  excluded: ReadonlySet<string>,
  linkedIds: ReadonlySet<string>,
  onlyUnlinked: boolean,
  limit: number,
): Promise<RelatedEntry[]> {
  const chosen = new Map<string, string>();
  const keep = (itemId: string) => !excluded.has(itemId) && !chosen.has(itemId) && !(onlyUnlinked && linkedIds.has(itemId));
  const keys = [...new Set(subject.entities.filter((entity) => entity.type !== 'date').map((entity) => entity.key))];
  const counts = await store.entityItemCounts(keys, PHRASE_COUNT_CAP);
  const rarest = keys.filter((key) => (counts.get(key) ?? 0) > 1).sort((a, b) => counts.get(a)! - counts.get(b)! || a.localeCompare(b));
  for (const key of rarest.slice(0, FALLBACK_NAME_KEYS)) {
    const surface = subject.entities.find((entity) => entity.key === key)!.surface;
    for (const other of await store.itemsMentioning(key, item.id, limit)) if (keep(other)) chosen.set(other, `shares a name: ${surface}`);
  }
  if (chosen.size < limit) {
    const folder = path.posix.dirname(item.path);
    const blocked = excluded.size + chosen.size + (onlyUnlinked ? linkedIds.size : 0);
    for (const other of await nearestInTree(store, item.path, limit - chosen.size, (itemId) => !keep(itemId), blocked)) {
      chosen.set(other.id, path.posix.dirname(other.path) === folder ? 'in the same folder' : 'elsewhere in the folder tree');
    }
  }
  const refs = await refsOf(store, [...chosen.keys()]);
  return [...chosen.entries()].flatMap(([itemId, reason]) => {
    const ref = refs.get(itemId);
    return ref ? [{ item: ref, kind: 'nearby' as const, relationship: null, similarity: null, why: [reason], linked: linkedIds.has(itemId), passage: null }] : [];
  });
}
