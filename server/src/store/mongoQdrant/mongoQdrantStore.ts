// The MongoDB + Qdrant store: WorkspaceStore for one workspace and one folder on shared servers.
// This class owns what spans domains (an ingest decision drops passages, vectors and extraction
// and queues work; forgetting reaches every domain) and delegates the rest: items (items.ts),
// parse results (parsedTexts.ts), passages (chunks.ts), extraction (extraction.ts), look-ups
// (discoveryLookups.ts, searchLookups.ts, lexicalSearch.ts), vectors in Qdrant (vectorPoints.ts),
// the job queue (jobQueue.ts), relationships (relationships.ts) and aliases (aliases.ts).
//
// There are no multi-document transactions. Each contract operation is individually atomic where
// it writes one document and idempotent where it writes several, ordered so that a crash between
// two writes is harmless: what must go is removed before the write that decides (so nothing stale
// is served), and the write that says "done" (an item's status, an extraction's record, a parse's
// header) comes last, guarded by the bytes it is for. Each such order is stated where it is made.
//
// Across MongoDB and Qdrant: vectors are removed from Qdrant before the passages they describe
// are removed from MongoDB, so a crash leaves passages without vectors (re-embedded, since
// itemsNeedingVectors lists them), never vectors of passages that are gone.

import type { UnitMembers } from '../../../../shared/proposalPages.ts';
import type { EntityAliasView, ItemFlag, PipelineStage, RelationshipStatus } from '../../../../shared/types.ts';
import type { ModelDescriptor } from '../../embed/types.ts';
import type { EntityType, PhraseCount } from '../../records/extraction.ts';
import type { DocumentLink, MetadataEntry, MetadataValue } from '../../records/document.ts';
import type {
  AliasCandidate,
  ChunkRecord,
  DiscoveryFacts,
  EntityMentionContext,
  EntityMention,
  EntitySummary,
  FailOptions,
  FileObservation,
  IngestOutcome,
  IngestRun,
  ItemExtraction,
  ModelOutputEntry,
  FileCheck,
  FileStats,
  ItemRecord,
  ItemPath,
  ItemStateCounts,
  ListItemsOptions,
  PathRange,
  ProposalQuery,
  RelationshipGroup,
  ItemVersionRecord,
  JobFailure,
  JobRecord,
  LeaseView,
  LexicalHit,
  ModelUsage,
  ParsedText,
  ProposalOutcome,
  RelationshipDecision,
  RelationshipEvent,
  RelationshipFilter,
  RelationshipProposal,
  RelationshipRecord,
  ReviewRule,
  SearchItemInfo,
  StageCounts,
  StoreAccess,
  PassageRef,
  StoredClaim,
  StoredEntity,
  VectorEntry,
  VectorHit,
  WorkspaceStore,
} from '../contract.ts';
import type { ExchangeRecord, ImportCounts } from '../exchange/records.ts';
import type { MongoQdrantLocation } from '../location.ts';
import { Chunks } from './chunks.ts';
import { COLLECTIONS, type ChunkDocument, type ItemDocument, type ItemLexicalDocument, type MetaDocument, type ParsedTextDocument, type ParsedTextPartDocument } from './collections.ts';
import type { StoreConnection } from './connection.ts';
import { DiscoveryLookups } from './discoveryLookups.ts';
import { Extraction } from './extraction.ts';
import type { ItemStatusHooks, LiveItems, VectorItemHooks } from './hooks.ts';
import { Items } from './items.ts';
import { searchChunksLexical, searchItemsLexical } from './lexicalSearch.ts';
import { ItemMetadata } from './itemMetadata.ts';
import { ParsedTexts } from './parsedTexts.ts';
import { ScopedDb, type Scope } from './scope.ts';
import * as search from './searchLookups.ts';
import type { MongoStoreParts as Parts } from './storeParts.ts';
import { storeWideUnreferenced } from './storeWideQueries.ts';
// The other half of the backend (vectors, queue, relationships, aliases): see hooks.ts for the seams.
import { MongoAliases } from './aliases.ts';
import { MongoJobQueue } from './jobQueue.ts';
import { MongoRelationships } from './relationships.ts';
import { MongoVectorPoints } from './vectorPoints.ts';

const now = (): string => new Date().toISOString();

export class MongoQdrantStore implements WorkspaceStore {
  readonly workspace: string;
  private readonly scope: Scope;
  private partsReady: Promise<Parts> | null = null;
  private vectorsReady: Promise<MongoVectorPoints> | null = null;

  constructor(
    private readonly connection: StoreConnection,
    private readonly location: MongoQdrantLocation,
    workspace: string,
    private readonly access: StoreAccess,
  ) {
    this.workspace = workspace;
    this.scope = { workspace, folder: location.folder };
  }

  // Connecting ------------------------------------------------------------------------------

  private parts(): Promise<Parts> {
    const attempt = (this.partsReady ??= this.connection.db().then((database) => this.makeParts(new ScopedDb(database, this.scope))));
    // A server that was down is tried again by the next operation.
    attempt.catch(() => {
      if (this.partsReady === attempt) this.partsReady = null;
    });
    return attempt;
  }

  private makeParts(db: ScopedDb): Parts {
    const itemDocuments = db.collection<ItemDocument>(COLLECTIONS.items);
    const chunkDocuments = db.collection<ChunkDocument>(COLLECTIONS.chunks);
    const lexical = db.collection<ItemLexicalDocument>(COLLECTIONS.itemLexical);
    const chunks = new Chunks(chunkDocuments, lexical);
    const extraction = new Extraction(db);
    const metadata = new ItemMetadata(db);
    const discovery = new DiscoveryLookups(db, extraction, metadata, () => this.vectors());
    let jobs: MongoJobQueue | undefined;
    const items = new Items(itemDocuments, {
      dropContent: (itemId) => this.dropContent(itemId),
      enqueue: (stage, subject) => jobs!.enqueue(stage, subject),
      resetDiscovery: (itemIds) => discovery.resetDiscovery(itemIds),
    });
    const statusHooks: ItemStatusHooks = {
      failItem: (itemId, reason) => items.failItem(itemId, reason),
      failIngestPath: (path, reason) => items.failIngestPath(path, reason),
    };
    jobs = new MongoJobQueue(db, statusHooks);
    const liveItems: LiveItems = { liveItemIds: (ids) => items.liveIds(ids) };
    return {
      db,
      items,
      itemDocuments,
      texts: new ParsedTexts(db.collection<ParsedTextDocument>(COLLECTIONS.parsedTexts), db.collection<ParsedTextPartDocument>(COLLECTIONS.parsedTextParts)),
      chunks,
      chunkDocuments,
      lexical,
      extraction,
      metadata,
      discovery,
      meta: db.collection<MetaDocument>(COLLECTIONS.meta),
      jobs,
      relationships: new MongoRelationships(db, liveItems),
      aliases: new MongoAliases(db, { mentionedKeys: (keys) => extraction.mentionedKeys(keys) }),
    };
  }

  /** The vector side, made when Qdrant first answers: operations that touch no vector work while Qdrant is down. */
  private vectors(): Promise<MongoVectorPoints> {
    const attempt = (this.vectorsReady ??= (async () => {
      const [{ db, items, chunks }, qdrant] = await Promise.all([this.parts(), this.connection.qdrant()]);
      const hooks: VectorItemHooks = {
        currentHash: async (itemId) => {
          const item = await items.byId(itemId);
          return item && !item.deletedAt ? item.contentHash : null;
        },
        liveChunkIds: async (itemIds) => chunks.idsByItem(await items.liveIndexedIds(itemIds), itemIds === undefined),
        listChunks: (itemId) => chunks.list(itemId),
        chunksOfItem: (itemId, chunkIds) => chunks.ofItem(itemId, chunkIds),
      };
      return new MongoVectorPoints(qdrant, db, this.scope, hooks);
    })());
    attempt.catch(() => {
      if (this.vectorsReady === attempt) this.vectorsReady = null;
    });
    return attempt;
  }

  /** Runs an operation on the connected parts; a server lost meanwhile is named (connection.ts). */
  private async with<T>(operation: (parts: Parts) => Promise<T>): Promise<T> {
    try {
      return await operation(await this.parts());
    } catch (error) {
      throw this.connection.naming(error);
    }
  }

  /** As `with`, for a write: refused, before anything is sent, through a store opened to read. */
  private async writing<T>(what: string, operation: (parts: Parts) => Promise<T>): Promise<T> {
    this.requireWrite(what);
    return this.with(operation);
  }

  requireWrite(what: string): void {
    if (this.access === 'read') {
      throw new Error(`the store for workspace "${this.workspace}" on MongoDB at ${this.connection.mongoWhere} was opened to read: cannot ${what}`);
    }
  }

  /**
   * Everything derived from an item's bytes goes: its vectors first (Qdrant, then their MongoDB
   * records, in vectorPoints.ts), then its lexical entry, metadata and passages, then its extraction. Each
   * step is idempotent, so a crash part-way is finished by whatever decided the drop running again.
   */
  private async dropContent(itemId: string): Promise<void> {
    const { chunks, extraction, metadata } = await this.parts();
    await (await this.vectors()).dropItemVectors([itemId]);
    await chunks.removeLexical([itemId]);
    await metadata.drop([itemId]);
    await chunks.removeOfItems([itemId]);
    await extraction.drop([itemId], null);
  }

  // Items -------------------------------------------------------------------------------------

  getItem(id: string): Promise<ItemRecord | null> {
    return this.with(({ items }) => items.byId(id));
  }

  getItemByPath(path: string): Promise<ItemRecord | null> {
    return this.with(({ items }) => items.liveAt(path));
  }

  /** Items are written from many places here and no counter follows them: the list is read anew each time. */
  async itemsGeneration(): Promise<number | null> {
    return null;
  }

  listItems(options?: ListItemsOptions): Promise<ItemRecord[]> {
    return this.with(({ items }) => items.list(options));
  }

  indexedItemsInPathRange(range: PathRange, limit: number): Promise<ItemPath[]> {
    return this.with(({ items }) => items.inPathRange(range, limit));
  }

  deepestIndexedPath(): Promise<number | null> {
    return this.with(({ items }) => items.deepestIndexedPath());
  }

  countItemsByState(): Promise<ItemStateCounts> {
    return this.with(({ items }) => items.countByState());
  }

  listVersions(itemId: string): Promise<ItemVersionRecord[]> {
    return this.with(({ items }) => items.versions(itemId));
  }

  recordIngest(observation: FileObservation, isOnDisk: (path: string) => boolean, run?: IngestRun): Promise<IngestOutcome> {
    return this.writing('record an ingest', ({ items }) => items.recordIngest(observation, isOnDisk, run));
  }

  chooseOriginal(path: string): Promise<{ itemId: string; formerOriginalId: string }> {
    return this.writing('choose an original', ({ items }) => items.chooseOriginal(path));
  }

  recordSkipped(path: string, reason: string, size: number | null): Promise<void> {
    return this.writing('record a skipped file', ({ items }) => items.recordSkipped(path, reason, size));
  }

  recordFailed(path: string, reason: string): Promise<string[]> {
    return this.writing('record a failed file', ({ items }) => items.recordFailed(path, reason));
  }

  tombstone(path: string): Promise<string[]> {
    return this.writing('record a deleted file', ({ items }) => items.tombstone(path));
  }

  /**
   * Each item is refused, before anything changes, unless it is tombstoned. Then, item by item:
   * its content, parse, discovery record and jobs go, its relationships lose their quotes, and
   * last it is marked forgotten. A crash part-way leaves an item not yet marked, which forgetting
   * it again finishes (every step is idempotent). Only then is the store-wide question asked of
   * its bytes, so the item's own reference no longer counts.
   */
  forgetItems(itemIds: readonly string[]): Promise<{ forgotten: string[]; unreferencedHashes: string[] }> {
    return this.writing('forget items', async ({ db, items, texts, extraction, discovery, jobs, relationships, aliases }) => {
      const found: ItemRecord[] = [];
      for (const id of itemIds) {
        const item = await items.byId(id);
        if (!item) throw new Error(`no item ${id} in this workspace`);
        if (!item.deletedAt) throw new Error(`${item.path} is still in the folder; delete it first or exclude it`);
        found.push(item);
      }
      const hashes = new Set<string>();
      const stamp = now();
      for (const item of found) {
        for (const version of await items.versions(item.id)) hashes.add(version.contentHash);
        if (item.contentHash) hashes.add(item.contentHash);
        await this.dropContent(item.id);
        await texts.remove([item.id]);
        await extraction.forgetModelOutputsOf([item.id]);
        await discovery.resetDiscovery([item.id]);
        // A job's last error may quote the document (a parser's message); a job running now keeps its record.
        await jobs.dropJobsOf([item.id, item.path]);
        await relationships.redactItems([item.id]);
        await items.markForgotten(item.id, stamp);
      }
      if (found.length > 0) await aliases.dropUnmentioned();
      const unreferencedHashes = await storeWideUnreferenced(db.storeWide<ItemDocument>(COLLECTIONS.items), hashes);
      return { forgotten: found.map((item) => item.id), unreferencedHashes };
    });
  }

  /**
   * Nothing to do on MongoDB: a deleted document's index entries go with it (there is no segment
   * to merge, as in SQLite's contentless FTS5 tables), and the storage engine reuses its space.
   * Qdrant removes deleted points from its segments when it optimizes them.
   */
  async refreshLexicalStatistics(): Promise<string[]> {
    return [];
  }

  async scrubForgotten(): Promise<boolean> {
    return true;
  }

  livePaths(): Promise<string[]> {
    return this.with(({ items }) => items.livePaths());
  }

  recordFileCheck(itemPath: string, check: FileStats & { checkedMs: number }): Promise<void> {
    return this.with(({ items }) => items.recordFileCheck(itemPath, check));
  }

  fileChecks(): Promise<FileCheck[]> {
    return this.with(({ items }) => items.fileChecks());
  }

  /**
   * The parse is stored (its parts, then its header: parsedTexts.ts), then the item takes its
   * title and flags in a write guarded by the bytes parsed, then `chunk` is queued. A crash
   * before the queueing leaves the parse job unfinished, so it runs again and queues it then.
   * When the guarded write finds the item changed, this stale parse may have replaced the parse of
   * its current bytes (it passed the first check, then a newer parse stored its header before this
   * one did): if its header still stands, the item is queued to be parsed again.
   */
  recordParse(itemId: string, parsed: ParsedText, title: string): Promise<boolean> {
    return this.writing('record a parse', async ({ items, texts, jobs }) => {
      const item = await items.byId(itemId);
      if (!item || item.deletedAt || item.contentHash !== parsed.contentHash || item.status === 'duplicate') return false;
      const writeId = await texts.write(itemId, parsed);
      const current = await items.update(
        itemId,
        { title, parserVersion: parsed.parserVersion, flags: [...parsed.document.flags], reason: null, updatedAt: now() },
        { contentHash: parsed.contentHash, live: true, status: { $ne: 'duplicate' } },
      );
      if (!current) {
        const latest = await items.byId(itemId);
        const parseable = latest && !latest.deletedAt && latest.contentHash !== null && latest.status !== 'duplicate' && latest.status !== 'skipped';
        if (parseable && (await texts.isCurrent(itemId, writeId))) await jobs.enqueue('parse', itemId);
        return false;
      }
      await jobs.enqueue('chunk', itemId);
      return true;
    });
  }

  getParsedText(itemId: string): Promise<ParsedText | null> {
    return this.with(({ texts }) => texts.get(itemId));
  }

  getStoredBlocks(itemId: string): Promise<{ contentHash: string; blocksJson: string } | null> {
    return this.with(({ texts }) => texts.storedBlocks(itemId));
  }

  listHeadings(itemId: string): Promise<string[]> {
    return this.with(({ texts }) => texts.headings(itemId));
  }

  listDocumentLinks(itemId: string): Promise<DocumentLink[]> {
    return this.with(({ texts }) => texts.links(itemId));
  }

  /**
   * The old content goes first, the new passages and lexical entry are written, and last the item
   * is marked indexed, only if it still holds these bytes. When it does not (a new version arrived
   * meanwhile), the passages written here are taken back and the answer is false. A crash before
   * the last write leaves the chunk job unfinished: it runs again and replaces them all.
   */
  replaceChunks(itemId: string, contentHash: string, chunks: ChunkRecord[]): Promise<boolean> {
    return this.writing('store passages', async ({ items, texts, chunks: passages, metadata, jobs }) => {
      const item = await items.byId(itemId);
      if (!item || item.deletedAt || item.contentHash !== contentHash || item.status === 'duplicate') return false;
      await this.dropContent(itemId);
      await passages.insert(contentHash, chunks);
      await passages.writeLexical(itemId, item.title ?? '', await texts.indexText(itemId));
      await metadata.write(itemId, await texts.metadata(itemId));
      const current = await items.update(itemId, { status: 'indexed', reason: null, updatedAt: now() }, { contentHash, live: true, status: { $ne: 'duplicate' } });
      if (!current) {
        await passages.removeLexical([itemId]);
        await metadata.drop([itemId]);
        await passages.removeWritten(itemId, contentHash);
        return false;
      }
      await jobs.enqueue('embed', itemId);
      await jobs.enqueue('extract', itemId);
      return true;
    });
  }

  markFailed(itemId: string, reason: string, parserVersion?: string): Promise<void> {
    return this.writing('mark an item failed', ({ items }) => items.markFailed(itemId, reason, parserVersion));
  }

  listChunks(itemId: string): Promise<ChunkRecord[]> {
    return this.with(({ chunks }) => chunks.list(itemId));
  }

  countChunks(): Promise<number> {
    return this.with(({ chunks }) => chunks.count());
  }

  searchItemsLexical(query: string, limit: number): Promise<LexicalHit[]> {
    return this.with(({ lexical }) => searchItemsLexical(lexical, query, limit));
  }

  searchChunksLexical(query: string, limit: number): Promise<LexicalHit[]> {
    return this.with(({ chunkDocuments }) => searchChunksLexical(chunkDocuments, query, limit));
  }

  // Vectors (vectorPoints.ts) -----------------------------------------------------------------------

  private async withVectors<T>(operation: (vectors: MongoVectorPoints) => Promise<T>): Promise<T> {
    return this.with(async () => operation(await this.vectors()));
  }

  registerModel(model: ModelDescriptor): Promise<void> {
    this.requireWrite('register an embedding model');
    return this.withVectors((vectors) => vectors.registerModel(model));
  }

  chunksWithoutVectors(itemId: string, modelId: string): Promise<ChunkRecord[]> {
    return this.withVectors((vectors) => vectors.chunksWithoutVectors(itemId, modelId));
  }

  storeVectors(itemId: string, contentHash: string, model: ModelDescriptor, entries: VectorEntry[]): Promise<boolean> {
    this.requireWrite('store vectors');
    return this.withVectors((vectors) => vectors.storeVectors(itemId, contentHash, model, entries));
  }

  itemsNeedingVectors(modelId: string): Promise<string[]> {
    return this.withVectors((vectors) => vectors.itemsNeedingVectors(modelId));
  }

  searchVectors(modelId: string, query: Float32Array, k: number): Promise<VectorHit[]> {
    return this.withVectors((vectors) => vectors.searchVectors(modelId, query, k));
  }

  searchVectorsMany(modelId: string, queries: readonly Float32Array[], k: number): Promise<VectorHit[][]> {
    return this.withVectors((vectors) => vectors.searchVectorsMany(modelId, queries, k));
  }

  /** Qdrant keeps its index on its server: there is nothing here to read first. */
  async vectorLookupReady(): Promise<boolean> {
    return true;
  }

  modelUsage(): Promise<ModelUsage[]> {
    return this.withVectors((vectors) => vectors.modelUsage());
  }

  hasVectors(modelId: string): Promise<boolean> {
    return this.withVectors((vectors) => vectors.hasVectors(modelId));
  }

  bestSimilarities(modelId: string, query: Float32Array, itemIds: readonly string[]): Promise<VectorHit[]> {
    return this.withVectors((vectors) => vectors.bestSimilarities(modelId, query, itemIds));
  }

  // Extraction -----------------------------------------------------------------------------------

  /**
   * Findings are replaced and their completion record written last (extraction.ts), then the
   * item's `extraction_capped` flag follows them in a write guarded by the bytes. If the item
   * changed meanwhile, what was written here is taken back and the answer is false.
   */
  storeExtraction(itemId: string, contentHash: string, extraction: ItemExtraction): Promise<boolean> {
    return this.writing('store an extraction', async ({ items, extraction: findings }) => {
      const item = await items.byId(itemId);
      if (!item || item.deletedAt || item.contentHash !== contentHash || item.status !== 'indexed') return false;
      await findings.store(itemId, contentHash, extraction);
      const flags: ItemFlag[] = item.flags.filter((flag) => flag !== 'extraction_capped');
      if (extraction.capped) flags.push('extraction_capped');
      const changed = flags.length !== item.flags.length || flags.some((flag, n) => flag !== item.flags[n]);
      const after = changed ? null : await items.byId(itemId);
      // Tombstoned or re-chunked meanwhile: its extraction was dropped, and must not come back with these findings.
      const current = changed
        ? await items.update(itemId, { flags }, { contentHash, live: true, status: 'indexed' })
        : after !== null && !after.deletedAt && after.status === 'indexed' && after.contentHash === contentHash;
      if (!current) {
        await findings.drop([itemId], 'deterministic');
        return false;
      }
      return true;
    });
  }

  itemsNeedingExtraction(versions: string): Promise<string[]> {
    return this.with(({ extraction }) => extraction.itemsNeeding(versions));
  }

  cachedModelOutputs(passageHashes: readonly string[], modelId: string, promptVersion: string): Promise<Map<string, string>> {
    return this.with(({ extraction }) => extraction.cachedModelOutputs(passageHashes, modelId, promptVersion));
  }

  cacheModelOutput(entry: ModelOutputEntry): Promise<void> {
    return this.writing('cache a model reply', ({ extraction }) => extraction.cacheModelOutput(entry));
  }

  itemLanguages(itemIds: readonly string[]): Promise<Map<string, string>> {
    return this.with(({ extraction }) => extraction.languages(itemIds));
  }

  passageLanguages(itemIds: readonly string[]): Promise<Map<string, string>> {
    return this.with(({ extraction }) => extraction.passageLanguages(itemIds));
  }

  listEntities(itemId: string): Promise<StoredEntity[]> {
    return this.with(({ extraction }) => extraction.listEntities(itemId));
  }

  listClaims(itemId: string): Promise<StoredClaim[]> {
    return this.with(({ extraction }) => extraction.listClaims(itemId));
  }

  claimsInPassages(passages: readonly PassageRef[]): Promise<StoredClaim[]> {
    return this.with(({ extraction }) => extraction.claimsInPassages(passages));
  }

  entitySummaries(types?: readonly EntityType[]): Promise<EntitySummary[]> {
    return this.with(({ extraction }) => extraction.summaries(types));
  }

  listPhrases(itemId: string): Promise<PhraseCount[]> {
    return this.with(({ extraction }) => extraction.listPhrases(itemId));
  }

  listMetadata(itemId: string): Promise<MetadataEntry[]> {
    return this.with(({ metadata }) => metadata.list(itemId));
  }

  phraseDocumentFrequencies(keys: readonly string[]): Promise<Map<string, number>> {
    return this.with(({ extraction }) => extraction.phraseDocumentFrequencies(keys));
  }

  countIndexedItems(): Promise<number> {
    return this.with(({ items }) => items.countIndexed());
  }

  // Relationships (relationships.ts) ---------------------------------------------------------------

  upsertRelationship(proposal: RelationshipProposal, review: ReviewRule): Promise<{ id: string; outcome: ProposalOutcome }> {
    return this.writing('record a relationship', ({ relationships }) => relationships.upsertRelationship(proposal, review));
  }

  getRelationship(id: string): Promise<RelationshipRecord | null> {
    return this.with(({ relationships }) => relationships.getRelationship(id));
  }

  relationshipBetween(itemA: string, itemB: string): Promise<RelationshipRecord | null> {
    return this.with(({ relationships }) => relationships.relationshipBetween(itemA, itemB));
  }

  listRelationships(filter?: RelationshipFilter): Promise<RelationshipRecord[]> {
    return this.with(({ relationships }) => relationships.listRelationships(filter));
  }

  relationshipGroups(query: ProposalQuery): Promise<RelationshipGroup[]> {
    return this.with(({ relationships }) => relationships.groups(query));
  }

  relationshipsInViewOrder(query: ProposalQuery, members: UnitMembers, limit: number): Promise<RelationshipRecord[]> {
    return this.with(({ relationships }) => relationships.inViewOrder(query, members, limit));
  }

  relationshipsTouching(itemIds: readonly string[], options?: { minScore?: number; statuses?: readonly RelationshipStatus[] }): Promise<RelationshipRecord[]> {
    return this.with(({ relationships }) => relationships.relationshipsTouching(itemIds, options));
  }

  decideRelationship(id: string, decision: (current: RelationshipRecord) => RelationshipDecision): Promise<RelationshipRecord> {
    return this.writing('record a decision', ({ relationships }) => relationships.decideRelationship(id, decision));
  }

  relationshipHistory(id: string): Promise<RelationshipEvent[]> {
    return this.with(({ relationships }) => relationships.relationshipHistory(id));
  }

  restoreRelationship(carried: RelationshipRecord, history: readonly RelationshipEvent[], review: ReviewRule): Promise<'reattached' | 'recorded'> {
    return this.writing('restore a relationship', ({ relationships }) => relationships.restoreRelationship(carried, history, review));
  }

  // Search ---------------------------------------------------------------------------------------

  searchTitles(text: string, limit: number): Promise<string[]> {
    return this.with(({ itemDocuments }) => search.titleMatches(itemDocuments, text, limit));
  }

  entityMentions(keys: readonly string[]): Promise<EntityMention[]> {
    return this.with(({ extraction, itemDocuments }) => search.entityMentions(extraction.entities, itemDocuments, keys));
  }

  entityKeysStartingWith(prefixes: readonly string[]): Promise<string[]> {
    return this.with(({ extraction }) => search.entityKeysStartingWith(extraction.entities, prefixes));
  }

  searchItemInfo(itemIds: readonly string[]): Promise<SearchItemInfo[]> {
    return this.with(({ itemDocuments }) => search.searchItemInfo(itemDocuments, itemIds));
  }

  getChunks(chunkIds: readonly string[]): Promise<ChunkRecord[]> {
    return this.with(({ chunks }) => chunks.byIds(chunkIds));
  }

  // Entity aliases (aliases.ts) -------------------------------------------------------------------

  proposeAliases(candidates: readonly AliasCandidate[]): Promise<number> {
    return this.writing('propose aliases', ({ aliases }) => aliases.proposeAliases(candidates));
  }

  listAliases(status?: RelationshipStatus): Promise<EntityAliasView[]> {
    return this.with(({ aliases }) => aliases.listAliases(status));
  }

  restoreAlias(alias: EntityAliasView): Promise<void> {
    return this.writing('restore an alias', ({ aliases }) => aliases.restoreAlias(alias));
  }

  decideAlias(id: string, decision: { status: 'confirmed' | 'rejected'; by: string; note: string | null }): Promise<EntityAliasView> {
    return this.writing('decide an alias', ({ aliases }) => aliases.decideAlias(id, decision));
  }

  confirmedAliases(keys: readonly string[]): Promise<Map<string, { key: string; surface: string }[]>> {
    return this.with(({ aliases }) => aliases.confirmedAliases(keys));
  }

  // Discovery look-ups (discoveryLookups.ts) ---------------------------------------------------------

  itemsNeedingDiscovery(basis: string): Promise<string[]> {
    return this.with(({ discovery }) => discovery.itemsNeedingDiscovery(basis));
  }

  recordDiscovery(itemId: string, contentHash: string, basis: string): Promise<void> {
    return this.writing('record a discovery', ({ discovery }) => discovery.recordDiscovery(itemId, contentHash, basis, now()));
  }

  resetDiscovery(itemIds: readonly string[] | null): Promise<void> {
    return this.writing('reset discovery', ({ discovery }) => discovery.resetDiscovery(itemIds));
  }

  itemsWithContentHash(contentHash: string, exceptItemId: string, limit: number): Promise<string[]> {
    return this.with(({ discovery }) => discovery.itemsWithContentHash(contentHash, exceptItemId, limit));
  }

  entityItemCounts(keys: readonly string[], cap: number): Promise<Map<string, number>> {
    return this.with(({ discovery }) => discovery.entityItemCounts(keys, cap));
  }

  phraseItemCounts(keys: readonly string[], cap: number): Promise<Map<string, number>> {
    return this.with(({ discovery }) => discovery.phraseItemCounts(keys, cap));
  }

  itemsMentioning(entityKey: string, exceptItemId: string, limit: number): Promise<string[]> {
    return this.with(({ discovery }) => discovery.itemsMentioning(entityKey, exceptItemId, limit));
  }

  itemsWithClaimsOn(kind: string, attribute: string, unit: string | null, exceptItemId: string, limit: number): Promise<string[]> {
    return this.with(({ discovery }) => discovery.itemsWithClaimsOn(kind, attribute, unit, exceptItemId, limit));
  }

  metadataItemCounts(values: readonly MetadataValue[], cap: number): Promise<Map<string, number>> {
    return this.with(({ metadata }) => metadata.itemCounts(values, cap));
  }

  itemsWithMetadata(value: MetadataValue, exceptItemId: string, limit: number): Promise<string[]> {
    return this.with(({ metadata }) => metadata.itemsWith(value, exceptItemId, limit));
  }

  entityMentionContexts(key: string, itemIds: readonly string[] | null, reach: number, limit: number): Promise<EntityMentionContext[]> {
    return this.with(({ discovery }) => discovery.entityMentionContexts(key, itemIds, reach, limit));
  }

  discoveryFacts(itemIds: readonly string[], modelId: string | null, phraseLimit: number): Promise<Map<string, DiscoveryFacts>> {
    return this.with(({ discovery }) => discovery.facts(itemIds, modelId, phraseLimit));
  }

  // Leased job queue (jobQueue.ts) -------------------------------------------------------------------

  enqueue(stage: PipelineStage, subject: string): Promise<void> {
    return this.writing('queue a job', ({ jobs }) => jobs.enqueue(stage, subject));
  }

  enqueueMany(stage: PipelineStage, subjects: readonly string[]): Promise<void> {
    return this.writing('queue jobs', ({ jobs }) => jobs.enqueueMany(stage, subjects));
  }

  claimFirst(owner: string, leaseMs: number, stagesInOrder: readonly PipelineStage[], subjects?: readonly string[]): Promise<JobRecord | null> {
    return this.writing('claim a job', ({ jobs }) => jobs.claimFirst(owner, leaseMs, stagesInOrder, subjects));
  }

  claim(owner: string, leaseMs: number, stages?: readonly PipelineStage[], subjects?: readonly string[]): Promise<JobRecord | null> {
    return this.writing('claim a job', ({ jobs }) => jobs.claim(owner, leaseMs, stages, subjects));
  }

  hasClaimableJob(stages: readonly PipelineStage[], subjects?: readonly string[]): Promise<boolean> {
    return this.with(({ jobs }) => jobs.hasClaimableJob(stages, subjects));
  }

  renew(jobId: number, owner: string, leaseMs: number): Promise<boolean> {
    return this.writing('renew a lease', ({ jobs }) => jobs.renew(jobId, owner, leaseMs));
  }

  complete(job: JobRecord, owner: string): Promise<void> {
    return this.writing('complete a job', ({ jobs }) => jobs.complete(job, owner));
  }

  fail(job: JobRecord, owner: string, error: string, options: FailOptions): Promise<JobFailure> {
    return this.writing('fail a job', ({ jobs }) => jobs.fail(job, owner, error, options));
  }

  handBack(job: JobRecord, owner: string): Promise<boolean> {
    return this.writing('hand back a job', ({ jobs }) => jobs.handBack(job, owner));
  }

  releaseLeases(isDeadOwner: (owner: string) => boolean): Promise<number> {
    return this.writing('release leases', ({ jobs }) => jobs.releaseLeases(isDeadOwner));
  }

  handBackLeases(owner: string): Promise<number> {
    return this.writing('hand back leases', ({ jobs }) => jobs.handBackLeases(owner));
  }

  pendingJobs(subjects?: readonly string[]): Promise<number> {
    return this.with(({ jobs }) => jobs.pendingJobs(subjects));
  }

  jobCounts(): Promise<StageCounts[]> {
    return this.with(({ jobs }) => jobs.jobCounts());
  }

  leases(): Promise<LeaseView[]> {
    return this.with(({ jobs }) => jobs.leases());
  }

  listJobs(): Promise<JobRecord[]> {
    return this.with(({ jobs }) => jobs.listJobs());
  }

  // Metadata ---------------------------------------------------------------------------------------

  getMeta(key: string): Promise<string | null> {
    return this.with(async ({ meta }) => (await meta.findOne(meta.filter({ key })))?.value ?? null);
  }

  setMeta(key: string, value: string): Promise<void> {
    return this.writing('set a setting', async ({ meta }) => {
      await meta.updateOne(meta.filter({ key }), { $set: { value } }, { upsert: true });
    });
  }

  // Export and import (exchange.ts, loaded when asked for: its record schemas are zod's) ----------

  exportRecords(): AsyncIterable<ExchangeRecord> {
    const store = this;
    return {
      async *[Symbol.asyncIterator]() {
        const parts = await store.parts();
        const { exportDocumentRecords } = await import('./exchange.ts');
        yield* exportDocumentRecords(parts, () => store.vectors());
      },
    };
  }

  importRecords(records: AsyncIterable<ExchangeRecord>): Promise<ImportCounts> {
    return this.writing('import records', async (parts) => {
      const { importDocumentRecords } = await import('./exchange.ts');
      return importDocumentRecords(parts, () => this.vectors(), records, this.describe());
    });
  }

  /** Where this store is, for messages. */
  describe(): string {
    return `MongoDB at ${this.connection.mongoWhere} (folder ${this.location.folder})`;
  }

  async close(): Promise<void> {
    this.partsReady = null;
    this.vectorsReady = null;
    await this.connection.close();
  }
}
