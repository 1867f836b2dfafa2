// The store contract: everything the engine persists goes through this interface, so the
// embedded SQLite default and a MongoDB + Qdrant backend are interchangeable. A store is
// opened *for one workspace*; no method takes a workspace argument, so no caller can read or
// write across the privacy boundary by forgetting a filter.
//
// Operations are domain-level and individually atomic (an ingest decision, a parse result, a
// chunk replacement), because each pipeline stage must be idempotent and crash-safe on its own.

import type {
  ChangedSinceDecision,
  ItemStatus,
  JobStatus,
  PipelineStage,
  EntityAliasView,
  RelationshipStatus,
  RelationshipType,
  SignalView,
} from '../../../shared/types.ts';
import type { ProposalFilter, UnitMembers } from '../../../shared/proposalPages.ts';
import type { ModelDescriptor } from '../embed/types.ts';
import type { Entity, EntityType, PhraseCount } from '../records/extraction.ts';
import type { DocumentLink, MetadataEntry, MetadataValue, ParsedDocument } from '../records/document.ts';
import type { ExchangeRecord, ImportCounts } from './exchange/records.ts';
import type { FileCheck, FileStats, ItemRecord, ItemVersionRecord, ChunkRecord, StoredEntity, StoredClaim, RelationshipProposal, RelationshipRecord, DecisionBasis, RelationshipEvent } from './storedRecords.ts';

export * from './storedRecords.ts';

export interface ParsedText {
  contentHash: string;
  parserVersion: string;
  document: ParsedDocument;
}

/** What ingest observed on disk for one path. */
export interface FileObservation {
  path: string;
  contentHash: string;
  size: number;
  /** The file's modification time (ms), which decides among identical files first seen together. */
  modifiedMs?: number;
}

/** The run an ingest belongs to, so identical files first seen together get the same original whatever the read order. */
export interface IngestRun {
  /** When the run began (ISO): an original whose current bytes were recorded since then was first seen in this run. */
  startedAt: string;
  /** Modification time (ms) of the file at a folder-relative path; null when it cannot be read. */
  modifiedMs(path: string): number | null;
}

export type IngestOutcome =
  | { kind: 'created' | 'new_version'; itemId: string }
  | { kind: 'unchanged'; itemId: string }
  /** The same bytes moved to a new path: identity kept; `needsParse` when its chunks were dropped by a tombstone. */
  | { kind: 'renamed'; itemId: string; fromPath: string; needsParse: boolean }
  | { kind: 'duplicate'; itemId: string; duplicateOf: string };

export interface JobRecord {
  id: number;
  stage: PipelineStage;
  subject: string;
  status: JobStatus;
  generation: number;
  owner: string | null;
  leaseExpiresAt: number | null;
  /**
   * Claims that did not end with a lost lease: each failed attempt, plus the running one. A lease
   * handed back (the store could not be reached, the disk was full) or lost by its holder gives its
   * attempt back, so only the file's own failures bring it to the attempt cap.
   */
  attempts: number;
  /**
   * Times a holder lost the job's lease: it died (released by releaseLeases) or let the lease run
   * out (taken over by a claim). Reset when the job completes or is re-armed after finishing. A job
   * with a lost lease is run alone by the next worker (pipeline/worker.ts), which is how a file that
   * kills its indexer is told from one that was merely in hand when the indexer was killed.
   */
  lostLeases: number;
  lastError: string | null;
}

export interface StageCounts {
  stage: PipelineStage;
  status: JobStatus;
  count: number;
}

export interface LeaseView {
  jobId: number;
  stage: PipelineStage;
  subject: string;
  owner: string;
  expiresInMs: number;
}

export interface FailOptions {
  /** The failure will recur on retry (e.g. a malformed file): fail the item now. */
  permanent: boolean;
  maxAttempts: number;
  /**
   * Whether giving up marks the item failed (and drops its passages). False for stages that only
   * enrich an item, so their failure never costs the item itself. Default true.
   */
  failsItem?: boolean;
}

export interface JobFailure {
  /** True when the job gave up (and, unless the stage only enriches, its item is now marked failed). */
  gaveUp: boolean;
  itemId: string | null;
}

export interface VocabularyTerm {
  /** As the index keeps it: lower case, Porter-stemmed ("licens" for license, licenses, licensing). */
  term: string;
  /** Items holding it. */
  documents: number;
}

export interface LexicalHit {
  id: string;
  itemId: string;
  bm25: number;
}

/** One vector of a chunk: a window of its text fitted to the model's token limit. */
export interface VectorEntry {
  chunkId: string;
  window: number;
  /** Character offsets of the window in the chunk text. */
  start: number;
  end: number;
  vector: Float32Array;
}

export interface VectorHit {
  chunkId: string;
  itemId: string;
  window: number;
  /** Cosine similarity of the window to the query. */
  similarity: number;
}

export interface ModelUsage extends ModelDescriptor {
  vectors: number;
  chunks: number;
}

/** A passage named with its item: what look-ups by passage are given, so they go by the item's index. */
export interface PassageRef {
  itemId: string;
  chunkId: string;
}

export interface ItemExtraction {
  entities: Omit<StoredEntity, 'itemId'>[];
  claims: Omit<StoredClaim, 'itemId'>[];
  phrases: PhraseCount[];
  /** The extractor versions that produced this, e.g. "entities@1+claims@1+concepts@1". */
  versions: string;
  /** Set when a per-item cap left results out (extract/caps.ts): what was kept of how many. The item is flagged `extraction_capped`. */
  capped?: string;
  /** The language the item is written in (shared/languages.ts: ISO 639-1, 'und' when it could not be told). */
  language?: string;
  /** Passages (by chunk id) written in another language than the item's, each with its own (extract/passageLanguages.ts). */
  passageLanguages?: Record<string, string>;
}

/** A model's raw reply about one passage, cached so that an unchanged passage is never sent twice. */
export interface ModelOutputEntry {
  /** sha256 of the passage text the model was shown. */
  passageHash: string;
  modelId: string;
  promptVersion: string;
  output: string;
  /** The item whose passage it was: forgetting that item forgets the reply. */
  itemId: string;
}

/** One entity key across the workspace: its corpus frequency is the number of items mentioning it. */
export interface EntitySummary {
  key: string;
  type: Entity['type'];
  /** The most common surface form. */
  surface: string;
  frequency: number;
  itemIds: string[];
  /** No rule found this name anywhere: only the model stage named it. */
  byModelOnly: boolean;
}

/** A discovery proposal after the pair's standing decision has been applied to it. */
export interface ReviewedProposal extends RelationshipProposal {
  status: RelationshipStatus;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
  decisionBasis: DecisionBasis | null;
  changedSinceDecision: ChangedSinceDecision | null;
  /** What the history records for this write. */
  event: 'proposed' | 'updated' | 'returned_to_review' | 'evidence_changed';
}

/**
 * Applies the pair's current decision to discovery's evidence. Pure; the store evaluates it on
 * the row it reads inside the write, so a decision committed at any moment is the one applied.
 */
export type ReviewRule = (evidence: RelationshipProposal, current: RelationshipRecord | null) => ReviewedProposal;

export interface DiscoveryFacts {
  /** In document order (chunk, then offset). */
  entities: StoredEntity[];
  claims: StoredClaim[];
  /** The most frequent key phrases, most frequent first. */
  phrases: PhraseCount[];
  /** The window vectors of one model. */
  vectors: Float32Array[];
  /** The metadata the item gives itself (ItemMetadata), in the document's order. */
  metadata: MetadataEntry[];
}



/** One mention of an entity key and the text either side of it in its passage. */
export interface EntityMentionContext {
  itemId: string;
  before: string;
  after: string;
}

export interface AliasCandidate {
  keyA: string;
  keyB: string;
  surfaceA: string;
  surfaceB: string;
  reason: string;
}

export type ProposalOutcome = 'created' | 'updated' | 'unchanged' | 'kept_rejected';

export interface RelationshipDecision {
  status: 'confirmed' | 'rejected';
  by: string;
  note: string | null;
  /** The score after the decision's signal, computed by the scoring module. */
  score: number;
  /** The proposal's signals plus the decision's signal. */
  signals: SignalView[];
  /** The type and decisive evidence the person decided on. */
  basis: DecisionBasis;
}

export interface RelationshipFilter {
  status?: RelationshipStatus;
  /** Leave out pending proposals scoring below this (decided ones are always listed). */
  minPendingScore?: number;
  /** Only relationships with this item at either end. */
  itemId?: string;
  /**
   * Only relationships proposed, rescored or decided at or after this moment (an ISO time, as
   * `updatedAt`): what changed since a reader last looked, through an index, not the whole table.
   */
  writtenSince?: string;
}

/** An entity mention found by key, for the search path that matches what a query names. */
export interface EntityMention {
  itemId: string;
  chunkId: string;
  key: string;
  type: Entity['type'];
  surface: string;
  producer: Entity['producer'];
}

/** What a search result shows about its item. */
export interface SearchItemInfo {
  itemId: string;
  path: string;
  title: string | null;
  /** When the store first saw the item's current bytes: the date search's recency path uses. */
  versionSeenAt: string;
}

/**
 * How a store is opened. 'write' (what indexing, decisions and forgetting need) creates or upgrades
 * the store and its indexes, and waits a bounded time for another writer's lock, then fails with a
 * StoreBusyError (storeBusy.ts). 'read' (status, listings, search, ask) writes nothing: it takes no
 * write lock, never waits for a writer, works in a directory it may not write, and refuses a store
 * that would need upgrading first (`relata index` upgrades it). A write through a store opened to
 * read fails.
 */
export type StoreAccess = 'read' | 'write';

/** Live items per state; an unread file is counted there and not among the indexed. */
export type ItemStateCounts = Record<Exclude<ItemStatus, 'deleted'>, number> & { unread: number };

/**
 * The items of one stretch of the folder tree, for a walk outward from a file (engine/treeRings.ts):
 * paths from `from` (inclusive) to `to` (exclusive, null for no end) in code-point order, whose
 * folder is exactly `slashes` folders deep (a root file has none).
 */
export interface PathRange {
  from: string;
  to: string | null;
  slashes: number;
}

/** The relationships the Proposals view counts and pages: its threshold for pending ones and its filter. */
export interface ProposalQuery {
  /** Pending proposals under this score are not listed (decided ones always are). */
  minPendingScore: number;
  filter: ProposalFilter;
}

/** How many relationships between live items have this status and type and rest on a link alone or not. */
export interface RelationshipGroup {
  status: RelationshipStatus;
  type: RelationshipType;
  /** Resting on a link alone, whatever the status (shared/linkedInDocuments.ts restsOnLinks). */
  linked: boolean;
  count: number;
}

export interface ListItemsOptions {
  includeDeleted?: boolean;
  writtenSince?: string;
}

export interface ItemPath {
  id: string;
  path: string;
}

export interface WorkspaceStore {
  readonly workspace: string;

  // Items -----------------------------------------------------------------
  getItem(id: string): Promise<ItemRecord | null>;
  /** The live (not tombstoned) item at a path, relative to the folder root. */
  getItemByPath(path: string): Promise<ItemRecord | null>;
  /**
   * Live items by path (with `includeDeleted`, every item, tombstones too); with `writtenSince` (an
   * ISO time, as `updatedAt`), only the items written at or after it, through an index.
   */
  listItems(options?: ListItemsOptions): Promise<ItemRecord[]>;
  /**
   * How many live items are in each state, indexed files with (almost) no text read counted apart
   * as `unread` (shared/unreadFiles.ts): the status bar's figures, without reading every item.
   */
  countItemsByState(): Promise<ItemStateCounts>;
  /**
   * A number that changes whenever an item is added, removed, or changes its path, title, status,
   * duplicate, bytes or deletion, and whenever an item's extraction is stored or dropped: what the
   * whole folder's item list and its key phrases' counts say can be kept while it stands
   * (discover/folderView.ts, discover/phraseMemory.ts). Null for a store that cannot tell cheaply:
   * read them anew.
   */
  itemsGeneration(): Promise<number | null>;
  /**
   * Live indexed items in a stretch of the folder tree, in code-point path order, at most `limit`:
   * Related's nearby fallback reads the tree ring by ring with it instead of listing every item.
   */
  indexedItemsInPathRange(range: PathRange, limit: number): Promise<ItemPath[]>;
  /** The most slashes in a live indexed item's path (how deep the tree goes), null when there is none. */
  deepestIndexedPath(): Promise<number | null>;
  listVersions(itemId: string): Promise<ItemVersionRecord[]>;

  /**
   * Reconcile one file's bytes with the store: unchanged, a new version, a rename (same bytes,
   * old path gone from disk, identity kept) or an exact duplicate of another live item
   * (reported, not stored twice). Enqueues `parse` when there is parsing to do. Among identical
   * files first seen in `run`, the one store/preferredOriginal.ts prefers becomes the original.
   */
  recordIngest(observation: FileObservation, isOnDisk: (path: string) => boolean, run?: IngestRun): Promise<IngestOutcome>;
  /**
   * A person's choice: the live duplicate at this path becomes the original (its bytes are parsed
   * again), and the former original and its other duplicates become duplicates of it. Returns the
   * new original's id and the former one's; an error naming the path when it is not a duplicate.
   */
  chooseOriginal(path: string): Promise<{ itemId: string; formerOriginalId: string }>;
  recordSkipped(path: string, reason: string, size: number | null): Promise<void>;
  /**
   * The file at this path could not be read (no permission, an I/O error): its item, created if this
   * was the first ingest, is failed with the reason and serves nothing, but keeps its id, so its
   * relationships and decisions survive until the file is readable again. Returns paths of its
   * duplicates, which must be re-ingested (one of them becomes the original).
   */
  recordFailed(path: string, reason: string): Promise<string[]>;
  /** A file is gone: tombstone its item. Returns paths of duplicates that must be re-ingested. */
  tombstone(path: string): Promise<string[]>;
  /**
   * Forget deleted (tombstoned) items: remove their parsed text, title, passages, vectors, lexical
   * rows, entities, claims, phrases and jobs, and redact what their relationships quote from them,
   * keeping the item row (path, id, hash, dates, forgotten_at), its versions and the relationship
   * history. Refuses, before changing anything, an item whose file is still in the folder. Returns the
   * content hashes that no item or version of any workspace refers to any more: their bytes may go.
   */
  forgetItems(itemIds: readonly string[]): Promise<{ forgotten: string[]; unreferencedHashes: string[] }>;
  /**
   * Makes what was forgotten unrecoverable from the store's files: merges the lexical indexes so
   * deleted entries leave them, and checkpoints and truncates the write-ahead log. A no-op when
   * nothing was forgotten through this store since the last call. False when another process
   * reading the store kept the log from being truncated (it is truncated at a later checkpoint).
   */
  scrubForgotten(): Promise<boolean>;
  /**
   * Rebuilds a lexical index whose statistics drifted from its content (BM25 still counting
   * replaced and forgotten passages: sqlite/lexicalStatistics.ts), so a long-lived store ranks as
   * one restored or rebuilt from the same files. Returns the indexes rebuilt; none where the
   * backend's text index keeps no corpus statistics (MongoDB's text score reads the document alone).
   */
  refreshLexicalStatistics(): Promise<string[]>;
  /** Paths of live items, for finding files that disappeared while nobody watched. */
  livePaths(): Promise<string[]>;
  /** Records what ingest saw of the live item's file at this path when it read it; a later run reads it again only if that changed. */
  recordFileCheck(path: string, check: FileStats & { checkedMs: number }): Promise<void>;
  /** The checks of the live indexed items and copies (not those pending, failed or skipped, which are always read again). */
  fileChecks(): Promise<FileCheck[]>;

  /** Store a parse result if it is for the item's current bytes; enqueues `chunk`. False when stale. */
  recordParse(itemId: string, parsed: ParsedText, title: string): Promise<boolean>;
  getParsedText(itemId: string): Promise<ParsedText | null>;
  /**
   * The parsed blocks as stored (a JSON array of Block), for the chunk stage to hand to its thread
   * without parsing a 50 MB document on the main thread first; null when the item has no parse.
   */
  getStoredBlocks(itemId: string): Promise<{ contentHash: string; blocksJson: string } | null>;
  /** The item's headings in document order, from its parsed structure (for extraction, without reading the whole document); empty when it has none. */
  listHeadings(itemId: string): Promise<string[]>;
  /** The links its parsed document writes (parse/types.ts DocumentLink), without reading its blocks; empty when it has none. */
  listDocumentLinks(itemId: string): Promise<DocumentLink[]>;
  /** Replace the item's chunks (and their lexical index) if still current; marks it indexed. */
  replaceChunks(itemId: string, contentHash: string, chunks: ChunkRecord[]): Promise<boolean>;
  /** The item cannot be read; `parserVersion` records which parser said so, so an upgrade retries it. */
  markFailed(itemId: string, reason: string, parserVersion?: string): Promise<void>;
  listChunks(itemId: string): Promise<ChunkRecord[]>;
  countChunks(): Promise<number>;

  /** BM25 over item title + text (FTS5 or the backend's equivalent), best first. */
  searchItemsLexical(query: string, limit: number): Promise<LexicalHit[]>;
  /**
   * Whether any live item matches the query lexically, without ranking the matches (a word common
   * in a large folder matches thousands): what spelling tolerance asks of every query word. A
   * backend without it is asked searchItemsLexical(query, 1).
   */
  lexicalMatchExists?(query: string): Promise<boolean>;
  /** BM25 over chunk text, best first. */
  searchChunksLexical(query: string, limit: number): Promise<LexicalHit[]>;
  /**
   * The lexical index's own vocabulary (its stemmed terms) that starts with `prefix`, each with
   * the number of items that hold it: what spelling tolerance corrects towards. A backend without
   * one leaves it out, and its search takes words as typed.
   */
  lexicalVocabulary?(prefix: string): Promise<VocabularyTerm[]>;

  // Vectors -----------------------------------------------------------------
  /** Record a model before its first vectors are stored (its descriptor is kept for `status`). */
  registerModel(model: ModelDescriptor): Promise<void>;
  /** The item's chunks that have no vector from this model yet. */
  chunksWithoutVectors(itemId: string, modelId: string): Promise<ChunkRecord[]>;
  /**
   * Store the vectors of whole chunks, replacing every earlier vector of those chunks (from any
   * model), if the item still holds these bytes. False when stale. A chunk never ends with
   * vectors from two models.
   */
  storeVectors(itemId: string, contentHash: string, model: ModelDescriptor, entries: VectorEntry[]): Promise<boolean>;
  /** Indexed items with at least one chunk lacking a vector from this model. */
  itemsNeedingVectors(modelId: string): Promise<string[]>;
  /** Nearest windows by cosine similarity, among this model's vectors only. */
  searchVectors(modelId: string, query: Float32Array, k: number): Promise<VectorHit[]>;
  /**
   * False while the look-ups would first wait to read a saved index of the vectors (the embedded
   * store's search threads after a restart: seconds at 100,000 notes), which this starts reading;
   * a search then answers from its other paths and says so.
   */
  vectorLookupReady(modelId: string): Promise<boolean>;
  /** searchVectors for several queries at once (e.g. every window of an item), in query order. */
  searchVectorsMany(modelId: string, queries: readonly Float32Array[], k: number): Promise<VectorHit[][]>;
  /** Vectors and chunks covered per model. */
  modelUsage(): Promise<ModelUsage[]>;

  // Extraction --------------------------------------------------------------
  /**
   * Replace the item's entities, claims (every producer's: the extract stage hands over the model
   * stage's results with the rules', or none when the model stage is off) and phrase counts, if it
   * still holds these bytes. False when stale.
   */
  storeExtraction(itemId: string, contentHash: string, extraction: ItemExtraction): Promise<boolean>;
  /** Indexed items not yet extracted with these extractor versions (new, changed, or older extractors). */
  itemsNeedingExtraction(versions: string): Promise<string[]>;
  listEntities(itemId: string): Promise<StoredEntity[]>;
  listClaims(itemId: string): Promise<StoredClaim[]>;
  /**
   * The claims stated in these passages, in one read: grouped by item, each item's in listClaims'
   * order. What a search result names of its figures comes from its shown passages alone, so a
   * search reads those, not every claim of every result.
   */
  claimsInPassages(passages: readonly PassageRef[]): Promise<StoredClaim[]>;
  /**
   * Every entity key of the workspace with its frequency, most frequent first; only keys of the
   * given types when they are given (the alias pass reads people and e-mail addresses alone, a
   * small part of a large folder's names).
   */
  entitySummaries(types?: readonly EntityType[]): Promise<EntitySummary[]>;
  listPhrases(itemId: string): Promise<PhraseCount[]>;
  /** The language each item's current extraction detected (shared/languages.ts), for the items that have one. */
  itemLanguages(itemIds: readonly string[]): Promise<Map<string, string>>;
  /** The passages of these items written in another language than their item's (chunk id → language), from their current extractions. */
  passageLanguages(itemIds: readonly string[]): Promise<Map<string, string>>;
  /** The metadata the item's current parse gives it, in the document's order; empty while it has no passages. */
  listMetadata(itemId: string): Promise<MetadataEntry[]>;
  /** Items whose phrases include each key (document frequency), for weighting concepts. */
  phraseDocumentFrequencies(keys: readonly string[]): Promise<Map<string, number>>;
  /** Live indexed items. */
  countIndexedItems(): Promise<number>;

  // Model extraction cache (extract/model/): replies, not knowledge ------------------
  /** Cached model replies for these passage hashes under one model and prompt version, by passage hash. */
  cachedModelOutputs(passageHashes: readonly string[], modelId: string, promptVersion: string): Promise<Map<string, string>>;
  /**
   * Keep a model's reply for its (passage hash, model, prompt version), replacing an older one. Not
   * exported (a cache is not knowledge); forgetting the item that asked removes it.
   */
  cacheModelOutput(entry: ModelOutputEntry): Promise<void>;

  // Relationships -----------------------------------------------------------
  /**
   * Record discovery's proposal for a pair. One relationship per unordered pair (the dedupe key),
   * so reprocessing updates rather than duplicates. `proposal` is the evidence alone; `review`
   * applies the pair's decision to it, evaluated on the row as it stands inside this one atomic
   * write (a rejected pair is never re-proposed; a confirmation holds while what was confirmed does).
   */
  upsertRelationship(proposal: RelationshipProposal, review: ReviewRule): Promise<{ id: string; outcome: ProposalOutcome }>;
  getRelationship(id: string): Promise<RelationshipRecord | null>;
  /** The relationship of a pair, in either direction, whatever its status. */
  relationshipBetween(itemA: string, itemB: string): Promise<RelationshipRecord | null>;
  /** Relationships between live items, strongest first. */
  listRelationships(filter?: RelationshipFilter): Promise<RelationshipRecord[]>;
  /**
   * The Proposals view's counts: the relationships between live items that `query` lists, counted
   * by status, type and resting on a link alone, from an index, without reading one relationship.
   */
  relationshipGroups(query: ProposalQuery): Promise<RelationshipGroup[]>;
  /**
   * The first `limit` relationships `query` lists among a unit's members (shared/proposalPages.ts
   * membersOf), in the view's order (shared/proposalPages.ts inViewOrder; ids in code-point order).
   */
  relationshipsInViewOrder(query: ProposalQuery, members: UnitMembers, limit: number): Promise<RelationshipRecord[]>;
  /** Relationships with any of these items at either end (e.g. for search expansion), strongest first. */
  relationshipsTouching(
    itemIds: readonly string[],
    options?: { minScore?: number; statuses?: readonly RelationshipStatus[] },
  ): Promise<RelationshipRecord[]>;
  /**
   * A person's decision: status, who, when, note, the rescored signals and the basis. `decision`
   * is evaluated on the row as it stands inside the write, so it is bound to the evidence it
   * replaces even when discovery updated the pair a moment before. Nothing is removed.
   */
  decideRelationship(id: string, decision: (current: RelationshipRecord) => RelationshipDecision): Promise<RelationshipRecord>;

  // Search ------------------------------------------------------------------
  /** Live indexed items whose title contains the text (case-insensitive for ASCII), shortest title first. */
  searchTitles(text: string, limit: number): Promise<string[]>;
  /** Mentions in live items of entities whose key is one of `keys`. */
  entityMentions(keys: readonly string[]): Promise<EntityMention[]>;
  /** The distinct entity keys of the workspace that start with one of `prefixes`, in no set order. */
  entityKeysStartingWith(prefixes: readonly string[]): Promise<string[]>;
  /** Path, title and version date of the live indexed items among these ids. */
  searchItemInfo(itemIds: readonly string[]): Promise<SearchItemInfo[]>;
  getChunks(chunkIds: readonly string[]): Promise<ChunkRecord[]>;
  /** Whether any passage has a vector from this model. */
  hasVectors(modelId: string): Promise<boolean>;
  /** Each listed item's best window by cosine to the query, among this model's vectors. */
  bestSimilarities(modelId: string, query: Float32Array, itemIds: readonly string[]): Promise<VectorHit[]>;

  /** Every proposal, update and decision of a relationship, oldest first. */
  relationshipHistory(id: string): Promise<RelationshipEvent[]>;
  /**
   * A decision and its history carried from a damaged store into this rebuilt one
   * (`relata index --rebuild`), with this store's item ids for the pair. If discovery proposed the
   * pair here, `review` applies the carried decision to that evidence ('reattached': a
   * confirmation whose evidence changed returns to review); otherwise it is recorded as it stood
   * ('recorded'). The history keeps its times.
   */
  restoreRelationship(carried: RelationshipRecord, history: readonly RelationshipEvent[], review: ReviewRule): Promise<'reattached' | 'recorded'>;

  // Entity aliases ------------------------------------------------------------
  /** Record candidate aliases not seen before (a pair already proposed, confirmed or rejected is left alone). Returns how many are new. */
  proposeAliases(candidates: readonly AliasCandidate[]): Promise<number>;
  listAliases(status?: RelationshipStatus): Promise<EntityAliasView[]>;
  /** A decided alias carried from a damaged store (`relata index --rebuild`), kept as it was decided. */
  restoreAlias(alias: EntityAliasView): Promise<void>;
  decideAlias(id: string, decision: { status: 'confirmed' | 'rejected'; by: string; note: string | null }): Promise<EntityAliasView>;
  /** For each key, the keys a person confirmed as its aliases. */
  confirmedAliases(keys: readonly string[]): Promise<Map<string, { key: string; surface: string }[]>>;

  // Discovery look-ups: each bounded by an index and a limit ---------------------
  /** Live items (indexed or duplicate) not yet discovered for their current bytes under this basis. */
  itemsNeedingDiscovery(basis: string): Promise<string[]>;
  recordDiscovery(itemId: string, contentHash: string, basis: string): Promise<void>;
  /** Forget discovery for these items (all when null), so the next run recomputes them. */
  resetDiscovery(itemIds: readonly string[] | null): Promise<void>;
  itemsWithContentHash(contentHash: string, exceptItemId: string, limit: number): Promise<string[]>;
  /**
   * Live items mentioning each entity key, counted up to `cap`: past a point the exact frequency
   * barely moves the discount, and counting further would make one item's discovery cost grow
   * with the workspace.
   */
  entityItemCounts(keys: readonly string[], cap: number): Promise<Map<string, number>>;
  /** Items whose key phrases include each phrase key, counted up to `cap`. */
  phraseItemCounts(keys: readonly string[], cap: number): Promise<Map<string, number>>;
  itemsMentioning(entityKey: string, exceptItemId: string, limit: number): Promise<string[]>;
  itemsWithClaimsOn(kind: string, attribute: string, unit: string | null, exceptItemId: string, limit: number): Promise<string[]>;
  /**
   * Items giving themselves each metadata value, counted up to `cap`, keyed by metadataValueKey (parse/metadata.ts).
   * An item has metadata rows exactly while it has passages, so the index alone answers.
   */
  metadataItemCounts(values: readonly MetadataValue[], cap: number): Promise<Map<string, number>>;
  /** Live items giving themselves this metadata value. */
  itemsWithMetadata(value: MetadataValue, exceptItemId: string, limit: number): Promise<string[]>;
  /**
   * Mentions of an entity key with the text either side of each (at most `reach` characters, within
   * its passage), for telling a template's text from an item's own (discover/templateText.ts): only
   * the mentions in `itemIds`, or, when null, any items'; at most `limit` mentions either way.
   */
  entityMentionContexts(key: string, itemIds: readonly string[] | null, reach: number, limit: number): Promise<EntityMentionContext[]>;
  /** What discovery weighs for each of these items, read in a few queries for the whole batch. */
  discoveryFacts(itemIds: readonly string[], modelId: string | null, phraseLimit: number): Promise<Map<string, DiscoveryFacts>>;

  // Leased job queue ------------------------------------------------------
  /** Queue a stage for a subject (a path for ingest, an item id otherwise). Re-queuing an existing job bumps its generation. */
  enqueue(stage: PipelineStage, subject: string): Promise<void>;
  /** Many subjects (a folder scan) in a few transactions, letting the calling thread answer others between them. */
  enqueueMany(stage: PipelineStage, subjects: readonly string[]): Promise<void>;
  /**
   * Atomically lease the oldest claimable job: queued, or leased with an expired lease. With
   * `stages`, only a job of one of them: `relata worker` never takes ingest (which must run where
   * the files are) and `relata index --ingest-only` takes nothing else. Each stage's oldest job is
   * found by index, so jobs of other stages waiting ahead of it cost nothing. Claiming a queued job
   * counts an attempt; taking over an expired lease counts a lost lease instead (see JobRecord).
   * With `subjects`, only a job of one of them (a file's path, its item's id): a file re-indexed on
   * request is run ahead of a folder's queue, its jobs found by the (stage, subject) key.
   */
  claim(owner: string, leaseMs: number, stages?: readonly PipelineStage[], subjects?: readonly string[]): Promise<JobRecord | null>;
  /**
   * As `claim`, with the stages in order of preference: the oldest claimable job of the first stage
   * that has one. The worker's loop asks this for every free lane's stages at once; one claim per
   * stage in turn was up to six write transactions a job (8% of the language server's main thread
   * while a restart re-checked 100,000 files).
   */
  claimFirst(owner: string, leaseMs: number, stagesInOrder: readonly PipelineStage[], subjects?: readonly string[]): Promise<JobRecord | null>;
  /**
   * Whether `claim` with these stages (and subjects) would find a job now, without leasing it: a
   * worker starts its stage threads only once a job of their stages is waiting.
   */
  hasClaimableJob(stages: readonly PipelineStage[], subjects?: readonly string[]): Promise<boolean>;
  renew(jobId: number, owner: string, leaseMs: number): Promise<boolean>;
  /** Done, unless the job was re-queued while it ran (then it is queued again). */
  complete(job: JobRecord, owner: string): Promise<void>;
  fail(job: JobRecord, owner: string, error: string, options: FailOptions): Promise<JobFailure>;
  /**
   * Return leases held by owners that are known to be dead (e.g. a killed local process): each
   * job's attempt is given back and its lost leases counted (see JobRecord).
   */
  releaseLeases(isDeadOwner: (owner: string) => boolean): Promise<number>;
  /**
   * Return every lease this living owner still holds, attempts given back and nothing counted
   * against the jobs: a drain that stopped part-way (a full disk, a busy store). Returns how many.
   */
  handBackLeases(owner: string): Promise<number>;
  /**
   * Return a leased job to the queue without spending its attempt: it never reached an outcome
   * because the store itself could not be reached (a busy lock, a server that did not answer), so
   * the document was not at fault. False when the job is no longer this owner's lease.
   */
  handBack(job: JobRecord, owner: string): Promise<boolean>;
  /** Jobs queued or leased (of these subjects only, when given). */
  pendingJobs(subjects?: readonly string[]): Promise<number>;
  jobCounts(): Promise<StageCounts[]>;
  leases(): Promise<LeaseView[]>;
  listJobs(): Promise<JobRecord[]>;

  // Metadata --------------------------------------------------------------
  getMeta(key: string): Promise<string | null>;
  setMeta(key: string, value: string): Promise<void>;

  // Export and import (exchange/records.ts, docs/EXPORT_FORMAT.md) ------------------
  /**
   * Every record this store holds for its workspace (not the job queue, which is work, not
   * knowledge; not the original bytes, which are in the BlobStore), grouped by kind in
   * EXCHANGE_KINDS order so an import can replay them (items before what refers to them), and
   * within a kind in the store's own insertion order. Streamed: the store is never held in memory.
   */
  exportRecords(): AsyncIterable<ExchangeRecord>;
  /**
   * Load records in EXCHANGE_KINDS order into this store, which must hold nothing for its
   * workspace: otherwise it refuses with ImportTargetNotEmptyError before taking the first record
   * (the importer puts the original bytes back when the first is taken) or writing anything. Ids,
   * times, statuses and decisions are kept verbatim (no event is added to any history), and the
   * backend's own indexes (lexical, vector graphs) are built for what was loaded. Nothing is
   * queued: `relata index` afterwards queues what the imported items still need.
   */
  importRecords(records: AsyncIterable<ExchangeRecord>): Promise<ImportCounts>;

  close(): Promise<void>;
}
