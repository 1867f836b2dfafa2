// The engine's search: the direct paths (lexical items, lexical passages, vector, entity, title)
// run against the workspace, recency is added, the fused direct matches seed relationship
// expansion, and everything is fused once more under the chosen rank version. Each result says
// why it matched, carries its contributions, its best passage with a location the editor can
// open, and its semantic similarity as a field of its own. Copies of one document are one result
// naming the others (nearDuplicateGroups.ts). What each result matched is named (matchedTerms.ts),
// and a result set none of whose items is a strong match says so (`weak_match`).

import { namedWords, wordsAsWrittenIn, writtenForms } from '../../../shared/queryWords.ts';
import { searchedQuery } from '../../../shared/spellingText.ts';
import { ocrLabelOf } from '../../../shared/ocrLabel.ts';
import type { AlsoItem, Location, MatchedTerms, Passage, SearchPath, SearchResponse, SearchResultView } from '../../../shared/types.ts';
import type { Embedder } from '../embed/types.ts';
import type { ChunkRecord, SearchItemInfo, StoredClaim, WorkspaceStore } from '../store/contract.ts';
import { duplicateLinksAmong } from './duplicateLinks.ts';
import { entityPath } from './entityPath.ts';
import { expandFromSeeds } from './expansion.ts';
import { whyMatched, type SeenText } from './explain.ts';
import { fuse, fusionParameters, type FusedItem } from './fusion.ts';
import { lexicalChunksPath, lexicalItemsPath } from './lexicalPaths.ts';
import { isStrongMatch, matchedFigures } from './matchedTerms.ts';
import { nearDuplicateGroups } from './nearDuplicateGroups.ts';
import type { PathHit, PathResult } from './paths.ts';
import { recencyPath } from './recency.ts';
import { correctSpelling, type SpellingCheck } from './spelling.ts';
import { titlePath } from './titlePath.ts';
import { passagesReadByModel, readByModel, unreadLanguagesNotice, vectorPath } from './vectorPath.ts';
import {
  CANDIDATE_DEPTH,
  COLLAPSE_DEPTH,
  DEFAULT_RANK_VERSION,
  expansionSettingsFromEnv,
  type ExpansionSettings,
  type RankVersion,
} from './weights.ts';

export interface SearchOptions {
  /** Results returned (default 10). */
  limit?: number;
  /** Expand only through relationships a person confirmed. */
  confirmedOnly?: boolean;
  rankVersion?: RankVersion;
  /** Overrides RELATA_SEARCH_MAX_EXPANDED_ITEMS / RELATA_SEARCH_EXPANSION_MIN_SCORE. */
  expansion?: Partial<Omit<ExpansionSettings, 'confirmedOnly'>>;
  /** The clock recency is measured against (tests fix it). */
  now?: Date;
  /**
   * A request the editor cancelled (the person typed on) stops once its direct paths have run,
   * the first moment this thread is free to hear of it: fusion, expansion and passages are skipped.
   */
  signal?: AbortSignal;
}

export const DEFAULT_LIMIT = 10;

type Unavailable = SearchResponse['unavailable_paths'];

export interface DirectRetrieval {
  /** lexical_items, lexical_chunks, entity, title and, when available, vector. */
  paths: PathResult[];
  unavailable: Unavailable;
  modelId: string | null;
  queryVector: Float32Array | null;
}

/**
 * A path that fails (damaged pages under its tables, a vector index that cannot be read) costs
 * only itself: it is reported as unavailable, with the store's own words, and the search answers
 * from the paths that ran. When every direct path fails there is nothing to answer from, so the
 * first failure stands as the search's error.
 */
async function attempt<T>(path: SearchPath, unavailable: Unavailable, failures: unknown[], run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    failures.push(error);
    const message = error instanceof Error ? error.message : String(error);
    // The store's own damage errors already say what to do; sqlite-vec's and others' do not.
    unavailable.push({ path, reason: message.includes('relata check') ? `it failed: ${message}` : `it failed (${message}); \`relata check\` says whether the store is damaged` });
    return null;
  }
}

/** The embedder with this query's embedding already asked for: asking for the same text again gets that answer. */
function queryStarted(embedder: Embedder, query: string): Embedder {
  const early = embedder.embed([query]);
  // Answered, or failed, whether or not the vector path comes to ask for it.
  early.catch(() => {});
  return {
    descriptor: embedder.descriptor,
    countTokens: (text) => embedder.countTokens(text),
    close: () => embedder.close(),
    embed: (texts) => (texts.length === 1 && texts[0] === query ? early : embedder.embed(texts)),
  };
}

/** The direct paths alone, each in its own order: what fusion works on (and what the eval re-fuses). */
export async function retrieveDirect(
  store: WorkspaceStore,
  embedder: Embedder | null,
  query: string,
  depth = CANDIDATE_DEPTH,
): Promise<DirectRetrieval> {
  // The query is embedded in the model's own thread, so the other paths run on this one meanwhile:
  // one turn of the event loop lets the vector path hand the query over before they start.
  const vectorUnavailable: Unavailable = [];
  const vectorFailures: unknown[] = [];
  const vectorRun = attempt('vector', vectorUnavailable, vectorFailures, () => vectorPath(store, embedder, query, depth));
  await new Promise((resolve) => setImmediate(resolve));
  const others: [SearchPath, () => Promise<PathResult>][] = [
    ['lexical_items', () => lexicalItemsPath(store, query, depth)],
    ['lexical_chunks', () => lexicalChunksPath(store, query, depth)],
    ['entity', () => entityPath(store, query)],
    ['title', () => titlePath(store, query, depth)],
  ];
  const paths: PathResult[] = [];
  const otherUnavailable: Unavailable = [];
  const otherFailures: unknown[] = [];
  for (const [name, run] of others) {
    const result = await attempt(name, otherUnavailable, otherFailures, run);
    if (result) paths.push(result);
  }
  const vector = await vectorRun;
  if (vector && !vector.available) vectorUnavailable.push({ path: 'vector', reason: vector.reason });
  // Reported in the paths' order, the vector path first, whichever finished first.
  const unavailable = [...vectorUnavailable, ...otherUnavailable];
  const failures = [...vectorFailures, ...otherFailures];
  if (failures.length === others.length + 1) throw failures[0];
  if (!vector?.available) return { paths, unavailable, modelId: null, queryVector: null };
  if (vector.unread) unavailable.unshift(unreadLanguagesNotice(vector.modelId, vector.unread));
  return {
    paths: [vector.result, ...paths],
    unavailable,
    modelId: vector.modelId,
    queryVector: vector.queryVector,
  };
}

function itemIdsOf(paths: readonly PathResult[]): string[] {
  return [...new Set(paths.flatMap((path) => path.hits.map((hit) => hit.itemId)))];
}

export async function searchWorkspace(
  store: WorkspaceStore,
  embedder: Embedder | null,
  query: string,
  options: SearchOptions = {},
): Promise<SearchResponse> {
  const version = options.rankVersion ?? DEFAULT_RANK_VERSION;
  const limit = options.limit ?? DEFAULT_LIMIT;
  const now = options.now ?? new Date();
  const settings = { ...expansionSettingsFromEnv(options.confirmedOnly ?? false), ...options.expansion };
  if (query.trim() === '') return { rank_version: version, query, results: [], unavailable_paths: [] };

  // The query goes to the model's thread before the spelling check reads the store, so its
  // embedding overlaps the check and the word paths; a corrected query is embedded again.
  const started = embedder ? queryStarted(embedder, query) : null;
  // The check reads the item index; a workspace without one yet (the lexical path says so) is searched as typed.
  const { corrections, missing } = await correctSpelling(store, query).catch((): SpellingCheck => ({ corrections: [], missing: [] }));
  const searched = searchedQuery(query, corrections);
  const direct = await retrieveDirect(store, started, searched, Math.max(CANDIDATE_DEPTH, limit));
  options.signal?.throwIfAborted();
  const info = new Map<string, SearchItemInfo>();
  const learn = async (ids: readonly string[]) => {
    const unknown = ids.filter((id) => !info.has(id));
    for (const item of await store.searchItemInfo(unknown)) info.set(item.itemId, item);
  };
  await learn(itemIdsOf(direct.paths));

  const parameters = fusionParameters(version);
  const directRanking = fuse(parameters, [...direct.paths, recencyPath([...info.values()], now)]).map((item) => item.itemId);
  const seeds = directRanking.slice(0, settings.maxSeeds);
  // Unreadable relationships cost the expansion, not the direct matches.
  const relationships =
    seeds.length === 0
      ? []
      : ((await attempt('expansion', direct.unavailable, [], () =>
          store.relationshipsTouching(seeds, {
            minScore: settings.minScore,
            statuses: settings.confirmedOnly ? ['confirmed'] : ['pending', 'confirmed'],
          }),
        )) ?? []);
  const { expansion, confirmed } = expandFromSeeds(directRanking, relationships, settings);
  await learn(itemIdsOf([expansion, confirmed]));
  const live = (result: PathResult): PathResult => ({ ...result, hits: result.hits.filter((hit) => info.has(hit.itemId)) });

  const paths = [...direct.paths, expansion, confirmed].map(live);
  paths.push(recencyPath([...info.values()], now));
  const { fused, also } = await collapseCopies(store, fuse(parameters, paths), limit, info);
  // A typed word that was corrected is in no document: its correction stands for it, so a result
  // holding the corrected words contains the query's words.
  const typos = new Set(corrections.map((correction) => correction.typed));
  const words = namedWords(searched).filter((word) => !typos.has(word));
  const results = await presentResults(store, direct, paths, fused, info, searched, words);
  for (const result of results) {
    const others = also.get(result.item_id);
    if (others && others.length > 0) result.also = others;
  }
  const weak = results.length > 0 && !results.some((result) => isStrongMatch(result, words, missing.length > 0));
  return {
    rank_version: version,
    query,
    results,
    unavailable_paths: direct.unavailable,
    ...(weak ? { weak_match: true as const } : {}),
    ...(corrections.length > 0 ? { also_searched: corrections } : {}),
  };
}

/**
 * Near-duplicates are shown once: within the best `limit × COLLAPSE_DEPTH` results, each group of
 * copies keeps its best-ranked member, which names the others, so `limit` distinct documents
 * remain where there are that many. The best result always stays, so relevance, normalised to
 * it, is still relative to the results shown.
 */
async function collapseCopies(
  store: WorkspaceStore,
  ranked: readonly FusedItem[],
  limit: number,
  info: ReadonlyMap<string, SearchItemInfo>,
): Promise<{ fused: FusedItem[]; also: Map<string, AlsoItem[]> }> {
  const window = ranked.slice(0, limit * COLLAPSE_DEPTH);
  const ids = window.map((item) => item.itemId);
  const copies = await duplicateLinksAmong(store, ids, new Map(ids.map((id) => [id, info.get(id)!.path])));
  const groups = nearDuplicateGroups(ids, copies.links).slice(0, limit);
  const byId = new Map(window.map((item) => [item.itemId, item]));
  return {
    fused: groups.map((group) => byId.get(group.representative)!),
    also: new Map(groups.map((group) => [group.representative, copies.also(group)])),
  };
}

const round = (value: number, places: number) => Number(value.toFixed(places));

/** Paths whose hit names a passage, in the order their passage is preferred as the result's passage. */
const PASSAGE_PATHS: SearchPath[] = ['lexical_chunks', 'vector', 'entity'];

async function presentResults(
  store: WorkspaceStore,
  direct: DirectRetrieval,
  paths: readonly PathResult[],
  fused: readonly FusedItem[],
  info: ReadonlyMap<string, SearchItemInfo>,
  query: string,
  words: readonly string[],
): Promise<SearchResultView[]> {
  /** The hits of the paths that contributed to an item's relevance. */
  const hitsOf = (item: FusedItem) =>
    new Map(
      paths
        .filter((path) => item.contributions[path.path] !== undefined)
        .flatMap((path) => path.hits.filter((hit) => hit.itemId === item.itemId).map((hit) => [path.path, hit] as [SearchPath, PathHit])),
    );

  // Similarity for results the vector path did not reach among its top hits: computed exactly.
  const similarity = new Map<string, { value: number; chunkId: string }>();
  for (const hit of paths.find((path) => path.path === 'vector')?.hits ?? []) similarity.set(hit.itemId, { value: hit.score, chunkId: hit.chunkId! });
  if (direct.modelId && direct.queryVector) {
    const { readable, unread } = await readByModel(store, direct.modelId, fused.map((item) => item.itemId).filter((id) => !similarity.has(id)));
    const missing = [...readable];
    if (unread && !direct.unavailable.some((entry) => entry.path === 'vector')) direct.unavailable.unshift(unreadLanguagesNotice(direct.modelId, unread));
    // Unreadable vectors leave these results without a similarity, which the response says.
    const exact = await attempt('vector', direct.unavailable, [], () => store.bestSimilarities(direct.modelId!, direct.queryVector!, missing));
    // A best window in a passage of another language the model does not read gives no similarity either.
    const { read: readExact, unread: unreadExact } = await passagesReadByModel(store, direct.modelId, exact ?? []);
    if (unreadExact && !direct.unavailable.some((entry) => entry.path === 'vector')) direct.unavailable.unshift(unreadLanguagesNotice(direct.modelId, unreadExact));
    for (const hit of readExact) similarity.set(hit.itemId, { value: hit.similarity, chunkId: hit.chunkId });
  }

  const passageChunk = new Map<string, string>();
  for (const item of fused) {
    const hits = hitsOf(item);
    const byContribution = PASSAGE_PATHS.filter((path) => hits.get(path)?.chunkId).sort(
      (a, b) => (item.contributions[b] ?? 0) - (item.contributions[a] ?? 0),
    );
    const chunkId = byContribution.length > 0 ? hits.get(byContribution[0]!)!.chunkId : similarity.get(item.itemId)?.chunkId;
    const first = chunkId ?? (await store.listChunks(item.itemId))[0]?.id;
    if (first) passageChunk.set(item.itemId, first);
  }
  // The passage that found the words, where it is not the one shown, is read too: the reasons quote it.
  const wordChunks = fused.flatMap((item) => hitsOf(item).get('lexical_chunks')?.chunkId ?? []);
  const chunks = new Map((await store.getChunks([...new Set([...passageChunk.values(), ...wordChunks])])).map((chunk) => [chunk.id, chunk]));

  // What each result's title and passages hold of the query's words; a passage shown for one
  // result and quoting the words for another is read once.
  const formsOf = new Map<string, ReadonlyMap<string, string>>();
  const forms = (chunk: ChunkRecord) => formsOf.get(chunk.id) ?? formsOf.set(chunk.id, writtenForms(chunk.text, words)).get(chunk.id)!;
  const read = fused.map((item) => {
    const hits = hitsOf(item);
    const wordChunk = chunks.get(hits.get('lexical_chunks')?.chunkId ?? '');
    const shown = chunks.get(passageChunk.get(item.itemId) ?? '');
    const passages = [wordChunk, shown].filter((chunk) => chunk !== undefined);
    const itemWords = wordsAsWrittenIn([writtenForms(info.get(item.itemId)!.title ?? '', words), ...passages.map(forms)], words);
    return { item, hits, wordChunk, passages, itemWords };
  });
  // The figures stated in the passages of the results that contain the query's words (or any
  // result, when the query gives a figure), read in one look-up.
  const givesFigure = words.some((word) => /^\d+$/.test(word));
  const stating = read.filter((result) => result.itemWords.length > 0 || givesFigure);
  const claimsOf = new Map<string, StoredClaim[]>();
  const passageRefs = stating.flatMap(({ item, passages }) => passages.map((chunk) => ({ itemId: item.itemId, chunkId: chunk.id })));
  for (const claim of passageRefs.length > 0 ? await store.claimsInPassages(passageRefs) : []) {
    const list = claimsOf.get(claim.itemId);
    if (list) list.push(claim);
    else claimsOf.set(claim.itemId, [claim]);
  }

  const matched = new Map<string, MatchedTerms>();
  const seen = new Map<string, SeenText>();
  for (const { item, hits, wordChunk, passages, itemWords } of read) {
    const figures =
      itemWords.length > 0 || givesFigure ? matchedFigures(claimsOf.get(item.itemId) ?? [], new Set(passages.map((chunk) => chunk.id)), words) : [];
    const names = (hits.get('entity')?.entities ?? []).map((entity) => `${entity.surface} (${entity.type})`);
    seen.set(item.itemId, { passageWords: wordChunk ? wordsAsWrittenIn([forms(wordChunk)], words) : [], itemWords, figures });
    if (itemWords.length > 0 || names.length > 0 || figures.length > 0) matched.set(item.itemId, { words: itemWords, names, figures });
  }

  const top = fused[0]?.total ?? 0;
  return fused.map((item): SearchResultView => {
    const hits = hitsOf(item);
    const about = info.get(item.itemId)!;
    const chunk = chunks.get(passageChunk.get(item.itemId) ?? '');
    const expansion = hits.get('expansion');
    const terms = matched.get(item.itemId);
    return {
      item_id: item.itemId,
      title: about.title,
      path: about.path,
      query_relevance: round(item.relevance, 4),
      semantic_similarity: similarity.has(item.itemId) ? round(similarity.get(item.itemId)!.value, 4) : null,
      why_matched: whyMatched(hits, query, seen.get(item.itemId)),
      contributions: Object.fromEntries(
        Object.entries(item.contributions).map(([path, value]) => [path, round(top > 0 ? value / top : 0, 4)]),
      ),
      expanded_via: expansion?.relationship
        ? {
            relationship_id: expansion.relationship.id,
            type: expansion.relationship.type,
            score: expansion.relationship.score,
            status: expansion.relationship.status,
          }
        : null,
      passage: chunk ? passageOf(chunk) : null,
      ...(terms ? { matched: terms } : {}),
    };
  });
}

/** A result's passage, labelled when OCR read it. */
function passageOf(chunk: { text: string; location: Location; id: string; headingPath: string[] }): Passage {
  const label = ocrLabelOf(chunk.headingPath);
  return { text: chunk.text, location: chunk.location, chunk_id: chunk.id, ...(label ? { read_by_ocr: label } : {}) };
}
