// The embedded default store: one SQLite file in WAL mode (better-sqlite3), FTS5 for BM25.
// The connection is opened for one workspace and every statement binds that workspace, so the
// privacy boundary lives here rather than in callers. better-sqlite3 is synchronous; methods
// return promises only to honour the contract shared with networked backends.

import { indexedText } from '../../../../shared/words.ts';
import type { UnitMembers } from '../../../../shared/proposalPages.ts';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { randomUUID } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { preparePrivateDataDir, privateFile } from '../privateFiles.ts';
import type { EntityAliasView, ItemFlag, ItemStatus, JobStatus, PipelineStage, RelationshipStatus } from '../../../../shared/types.ts';
import type { ModelDescriptor } from '../../embed/types.ts';
import type { EntityType, PhraseCount } from '../../records/extraction.ts';
import type { DocumentLink, HeadingEntry, MetadataEntry, MetadataValue } from '../../records/document.ts';
import type {
  ChunkRecord,
  EntityMention,
  PassageRef,
  EntitySummary,
  SearchItemInfo,
  ItemExtraction,
  ModelOutputEntry,
  StoredClaim,
  StoredEntity,
  ModelUsage,
  VectorEntry,
  VectorHit,
  FailOptions,
  FileCheck,
  FileObservation,
  FileStats,
  IngestOutcome,
  IngestRun,
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
  VocabularyTerm,
  ParsedText,
  AliasCandidate,
  DiscoveryFacts,
  EntityMentionContext,
  ProposalOutcome,
  RelationshipDecision,
  RelationshipEvent,
  RelationshipFilter,
  RelationshipProposal,
  RelationshipRecord,
  ReviewRule,
  StageCounts,
  StoreAccess,
  WorkspaceStore,
} from '../contract.ts';
import { compareOriginals } from '../preferredOriginal.ts';
import { summariseMentions } from '../entitySummaries.ts';
import { migrate, PATH_SLASHES_SQL, requireCurrentSchema, SchemaOutdatedError } from './migrations.ts';
import { namingDamage } from '../storeErrors.ts';
import { ftsPhrases, toFtsQuery } from './ftsQuery.ts';
import * as search from './searchQueries.ts';
import { ensureWorkspaceIndexes, workspaceIndexesExist, workspaceIndexNames, type WorkspaceIndexNames } from './workspaceIndexes.ts';
import { rebuildDriftedIndexes } from './lexicalStatistics.ts';
import { BUSY_WAIT_MS, isSqliteBusy, namingBusy, namingBusyIn } from '../storeBusy.ts';
import { writeLockHolder } from './lockHolder.ts';
import { openToRead } from './readConnection.ts';
import { AliasTables } from './aliasTables.ts';
import { DiscoveryQueries } from './discoveryQueries.ts';
import { passageLanguagesColumn, toChunk, toClaim, toEntity, toItem, type ChunkRow, type ClaimRow, type EntityRow, type ItemRow } from './rows.ts';
import { BoundedRanking, ITEM_ROWS, PASSAGE_ROWS } from './boundedRanking.ts';
import { RelationshipTables } from './relationshipTables.ts';
import { ScopedSql } from './scopedSql.ts';
import { createVectorTableSql, vectorTableName } from './vectorTables.ts';
import { itemIndexTextSql, loadedDocument, registerIndexedText, storedDocument } from './itemText.ts';
import { dropItemMetadata, indexItemMetadata, listItemMetadata } from './metadataIndex.ts';
import { blobReferences } from './storeWideSql.ts';
import { checkpointInThread, type WalCheckpoints } from './walCheckpoints.ts';
import { VECTOR_INDEX_SETTINGS, WorkspaceVectorIndex, type VectorIndexOptions, type VectorIndexSettings } from './vectorIndex.ts';
import { SharedGraphClient, SharedGraphStoppedError } from './sharedGraphClient.ts';
import type { ExchangeRecord, ImportCounts } from '../exchange/records.ts';
import { DATABASE_FILE } from '../dataDir.ts';
import { settleInterruptedRebuild } from './rebuildFiles.ts';
import { insertClaim, insertEntity } from './extractionRows.ts';

/** Named in dataDir.ts, where the command line finds a store without loading SQLite. */
export { DATABASE_FILE };

/** A jobs row: the record's fields under their column names, the ones of one word as they are. */
interface JobRow extends Pick<JobRecord, 'id' | 'stage' | 'subject' | 'status' | 'generation' | 'owner' | 'attempts'> {
  lease_expires_at: number | null;
  lost_leases: number;
  last_error: string | null;
}

const toJob = (row: JobRow): JobRecord => ({
  id: row.id,
  stage: row.stage,
  subject: row.subject,
  status: row.status,
  generation: row.generation,
  owner: row.owner,
  leaseExpiresAt: row.lease_expires_at,
  attempts: row.attempts,
  lostLeases: row.lost_leases,
  lastError: row.last_error,
});

const now = (): string => new Date().toISOString();

export interface SqliteStoreOptions {
  dataDir: string;
  workspace: string;
  /** Page cache size in MiB; vector and FTS look-ups are much faster with a warm cache. */
  cacheMiB?: number;
  /** Approximate vector search (vectorIndex.ts): settings other than the measured defaults, e.g. for tests. */
  vectorIndex?: Partial<VectorIndexSettings> & Partial<Pick<VectorIndexOptions, 'log' | 'onLookup'>>;
  /** 'write' (the default) or 'read': see StoreAccess in contract.ts. */
  access?: StoreAccess;
  /** The database file's name in the data directory: relata.sqlite unless a rebuild builds another beside it. */
  databaseFile?: string;
  /** Where a line about an interrupted rebuild settled on opening goes (default: standard error). */
  log?: (message: string) => void;
  /**
   * Copy the write-ahead log into the database from a thread of its own rather than at the end of
   * this connection's transactions (walCheckpoints.ts): for a writer whose thread also answers
   * requests, the language server's.
   */
  checkpointInThread?: boolean;
  /**
   * Keep a copy of the vectors beside the vector graph, so re-scoring a look-up's candidates reads
   * memory rather than the database (true unless given): a search's milliseconds against 2 KiB a
   * window (vectorIndex.ts, VectorIndexOptions.holdVectors).
   */
  holdVectors?: boolean;
  /**
   * Vector look-ups exact while a graph catches up in the background (true unless given), so that
   * what they find does not depend on how far it got: discovery's, which wait for the catch-up
   * rather than search every vector exactly meanwhile (caughtUp); false for the language server's
   * searches and Related (vectorIndex.ts, VectorIndexOptions.exactWhileCatchingUp).
   */
  exactWhileCatchingUp?: boolean;
  /** Opened to read, still save the vector graphs it builds, to their files only (VectorIndexOptions.saveWhenReading). */
  saveGraphsWhenReading?: boolean;
  /** Saved vector graphs read off the thread, `vectorLookupReady` false meanwhile (VectorIndexOptions.loadInBackground). */
  loadGraphsInBackground?: boolean;
  /** Opened to write, still save the vector graphs off the thread (VectorIndexOptions.saveInBackground). */
  saveGraphsInBackground?: boolean;
  /**
   * Vector look-ups asked of the process's shared graph through this port (sharedGraph.ts), so that
   * this connection keeps no graph of its own; if that graph's thread stops, it looks up on its own.
   */
  sharedGraph?: MessagePort;
}

/** The SQLite store, with what the shared graph's thread asks of it beside the contract. */
export interface SqliteStore extends WorkspaceStore {
  /** searchVectorsMany, exact or not while the graph catches up as the asker's own store would be (VectorIndexOptions.exactWhileCatchingUp). */
  lookUpVectors(modelId: string, queries: readonly Float32Array[], k: number, exactWhileCatchingUp: boolean): Promise<VectorHit[][]>;
}

/**
 * Jobs queued in one transaction, at most: ~7 µs each, so a batch holds the calling thread ~15 ms,
 * where one transaction for a 100,000-file folder's scan held the language server's main thread
 * (and every request) for 0.7 s.
 */
const ENQUEUE_BATCH = 2_000;

/** Every stage, for look-ups by the jobs' (stage, subject) key. */
const EVERY_STAGE: readonly PipelineStage[] = ['ingest', 'parse', 'chunk', 'embed', 'extract', 'discover'];

export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const file = path.join(options.dataDir, options.databaseFile ?? DATABASE_FILE);
  if (options.databaseFile === undefined) {
    const log = options.log ?? ((message: string) => console.error(`relata: ${message}`));
    try {
      // Before the file is opened: an interrupted rebuild may have left the swap half done.
      for (const line of settleInterruptedRebuild(options.dataDir, { remove: options.access !== 'read' })) log(line);
    } catch (error) {
      // A reader that may not rename in the data directory reads what is there; a writer must settle first.
      if (options.access !== 'read') throw error;
    }
  }
  try {
    try {
      return openSqliteStoreFile(options, file);
    } catch (error) {
      // The first read after Relata was upgraded: a reader cannot migrate, so a writer does it once
      // (taking the write lock briefly), unless the store is busy or may not be written here.
      if (!(error instanceof SchemaOutdatedError) || !upgradeForReaders(options.dataDir, error.file)) throw error;
      return openSqliteStoreFile(options, file);
    }
  } catch (error) {
    // A header or schema page SQLite cannot read fails here, before any statement of the store's own.
    throw namingDamage(error, file);
  }
}

function openSqliteStoreFile(options: SqliteStoreOptions, file: string): SqliteStore {
  if (!options.workspace.trim()) throw new Error('a workspace name is required to open the store');
  const reading = options.access === 'read';
  const holder = () => writeLockHolder(file);
  let db: Database.Database;
  try {
    db = reading ? openToRead(file) : openToWrite(options.dataDir, file);
  } catch (error) {
    throw namingBusy(error, file, holder);
  }
  try {
    db.pragma('foreign_keys = ON');
    db.pragma(`cache_size = -${(options.cacheMiB ?? 64) * 1024}`);
    sqliteVec.load(db);
    registerIndexedText(db);
    const sql = new ScopedSql(db, options.workspace);
    // A reader cannot migrate or build a missing lexical index; without one, only its lexical search is unavailable.
    if (reading) {
      requireCurrentSchema(db, file);
    } else {
      migrate(db);
      ensureWorkspaceIndexes(sql);
    }
    const lexicalIndexReady = workspaceIndexesExist(sql);
    const { log = (message: string) => console.error(`relata: ${message}`), onLookup, ...settings } = options.vectorIndex ?? {};
    const vectorIndex = new WorkspaceVectorIndex(sql, path.join(options.dataDir, 'vector-index'), { ...VECTOR_INDEX_SETTINGS, ...settings }, {
      log,
      persist: !reading,
      holdVectors: options.holdVectors,
      exactWhileCatchingUp: options.exactWhileCatchingUp,
      saveWhenReading: reading && options.saveGraphsWhenReading,
      saveInBackground: options.saveGraphsInBackground,
      loadInBackground: options.loadGraphsInBackground,
      onLookup,
    });
    const checkpoints =
      options.checkpointInThread && !reading ? checkpointInThread(db, { file, busyMs: BUSY_WAIT_MS }, log) : null;
    const sharedGraph = options.sharedGraph ? new SharedGraphClient(options.sharedGraph) : null;
    const vectors = { own: vectorIndex, shared: sharedGraph, exactWhileCatchingUp: options.exactWhileCatchingUp ?? true };
    const store = new SqliteWorkspaceStore(db, options.workspace, workspaceIndexNames(options.workspace), vectors, reading, lexicalIndexReady, checkpoints);
    return namingBusyIn(store, file, holder);
  } catch (error) {
    db.close();
    throw namingBusy(error, file, holder);
  }
}

/** Migrates an older store so readers can open it; false when this process cannot write it or it is busy. */
function upgradeForReaders(dataDir: string, file: string): boolean {
  try {
    accessSync(dataDir, constants.W_OK);
    accessSync(file, constants.W_OK);
  } catch {
    return false;
  }
  let db: Database.Database | undefined;
  try {
    db = openToWrite(dataDir, file);
    sqliteVec.load(db);
    migrate(db);
    return true;
  } catch (error) {
    if (isSqliteBusy(error)) return false;
    throw error;
  } finally {
    db?.close();
  }
}

/** A writer's connection: the data directory made private, the file created if missing, WAL mode. */
function openToWrite(dataDir: string, file: string): Database.Database {
  preparePrivateDataDir(dataDir);
  // SQLite creates its -wal and -shm files with the database file's mode, so that one comes first.
  privateFile(file);
  // `timeout` is SQLite's busy timeout: how long a write waits for another process's lock (storeBusy.ts).
  const db = new Database(file, { timeout: BUSY_WAIT_MS });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Deleted rows are overwritten, not just unlinked: a forgotten document's text must not survive
    // in free pages. Its cost was within the noise of indexing, re-indexing and deleting 400 files.
    db.pragma('secure_delete = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Where a connection's vector look-ups are answered. */
interface VectorLookups {
  /** Approximate nearest-neighbour graphs over this workspace's vectors, one per model (built only if it looks up on its own). */
  own: WorkspaceVectorIndex;
  /** The process's shared graph, while its thread answers. */
  shared: SharedGraphClient | null;
  /** This connection's choice (VectorIndexOptions.exactWhileCatchingUp), told to the shared graph with each look-up. */
  exactWhileCatchingUp: boolean;
}

class SqliteWorkspaceStore implements SqliteStore {
  constructor(
    private readonly db: Database.Database,
    readonly workspace: string,
    /** This workspace's own FTS5 tables. */
    private readonly fts: WorkspaceIndexNames,
    private readonly vectors: VectorLookups,
    /** Opened to read (StoreAccess): SQLite refuses every write; nothing here creates a table either. */
    private readonly readOnly = false,
    /** False only when a store opened to read has no lexical index for this workspace yet. */
    private readonly lexicalIndexReady = true,
    /** The thread that checkpoints for this connection, when it does not itself. */
    private readonly checkpoints: WalCheckpoints | null = null,
  ) {
    this.scoped = new ScopedSql(db, workspace);
    this.relationships = new RelationshipTables(this.scoped);
    this.discovery = new DiscoveryQueries(this.scoped);
    this.aliases = new AliasTables(this.scoped);
    this.passageRanking = new BoundedRanking(this.scoped, fts.chunks, PASSAGE_ROWS);
    this.itemRanking = new BoundedRanking(this.scoped, fts.items, ITEM_ROWS);
  }

  private readonly vectorTables = new Set<string>();
  /** The temp fts5vocab table over the item index exists on this connection (lexicalVocabulary). */
  private vocabularyReady = false;
  /** Set by forgetItems, cleared by scrubForgotten. */
  private forgottenSinceScrub = false;
  private readonly scoped: ScopedSql;
  private readonly relationships: RelationshipTables;
  private readonly discovery: DiscoveryQueries;
  private readonly aliases: AliasTables;
  private readonly passageRanking: BoundedRanking;
  private readonly itemRanking: BoundedRanking;

  /** Every statement goes through the workspace-scoped helper (scopedSql.ts), which refuses SQL not bound to `@ws`. */
  private row<T>(text: string, params: Record<string, unknown> = {}): T | undefined {
    return this.scoped.row<T>(text, params);
  }

  private rows<T>(text: string, params: Record<string, unknown> = {}): T[] {
    return this.scoped.rows<T>(text, params);
  }

  private run(text: string, params: Record<string, unknown> = {}): Database.RunResult {
    return this.scoped.run(text, params);
  }

  // Items -------------------------------------------------------------------

  async getItem(id: string): Promise<ItemRecord | null> {
    return this.itemById(id);
  }

  private itemById(id: string): ItemRecord | null {
    const row = this.row<ItemRow>('SELECT * FROM items WHERE workspace = @ws AND id = @id', { id });
    return row ? toItem(row) : null;
  }

  private liveItemAt(itemPath: string): ItemRecord | null {
    const row = this.row<ItemRow>(
      'SELECT * FROM items WHERE workspace = @ws AND path = @path AND deleted_at IS NULL',
      { path: itemPath },
    );
    return row ? toItem(row) : null;
  }

  async getItemByPath(itemPath: string): Promise<ItemRecord | null> {
    return this.liveItemAt(itemPath);
  }

  async listItems(options: ListItemsOptions = {}): Promise<ItemRecord[]> {
    const live = options.includeDeleted ? '' : 'AND deleted_at IS NULL';
    const rows = options.writtenSince !== undefined
      ? this.rows<ItemRow>(`SELECT * FROM items WHERE workspace = @ws AND updated_at >= @since ${live} ORDER BY path, created_at`, { since: options.writtenSince })
      : options.includeDeleted
      ? this.rows<ItemRow>('SELECT * FROM items WHERE workspace = @ws ORDER BY path, created_at')
      : this.rows<ItemRow>('SELECT * FROM items WHERE workspace = @ws AND deleted_at IS NULL ORDER BY path');
    return rows.map(toItem);
  }

  async indexedItemsInPathRange(range: PathRange, limit: number): Promise<ItemPath[]> {
    return this.rows<ItemPath>(
      `SELECT id, path FROM items
       WHERE workspace = @ws AND status = 'indexed' AND deleted_at IS NULL AND ${PATH_SLASHES_SQL} = @slashes
         AND path >= @from ${range.to === null ? '' : 'AND path < @to'}
       ORDER BY path LIMIT @limit`,
      { slashes: range.slashes, from: range.from, ...(range.to === null ? {} : { to: range.to }), limit },
    );
  }

  async deepestIndexedPath(): Promise<number | null> {
    const row = this.row<{ slashes: number }>(
      `SELECT ${PATH_SLASHES_SQL} AS slashes FROM items WHERE workspace = @ws AND status = 'indexed' AND deleted_at IS NULL
       ORDER BY ${PATH_SLASHES_SQL} DESC LIMIT 1`,
    );
    return row ? row.slashes : null;
  }

  async countItemsByState(): Promise<ItemStateCounts> {
    const counts: ItemStateCounts = { pending: 0, indexed: 0, failed: 0, skipped: 0, duplicate: 0, unread: 0 };
    const rows = this.rows<{ status: ItemStatus; unread: number; n: number }>(
      // An item without flags ('[]', nearly all of them) is not parsed as JSON: at 100,000 items
      // that took this count, which every status report makes on the editor's thread, from 84 to 56 ms.
      `SELECT status,
              CASE WHEN status <> 'indexed' OR flags = '[]' THEN 0
                   ELSE EXISTS (SELECT 1 FROM json_each(flags) WHERE value = 'little_text') END AS unread,
              COUNT(*) AS n
       FROM items WHERE workspace = @ws AND deleted_at IS NULL GROUP BY 1, 2`,
    );
    for (const row of rows) {
      if (row.unread) counts.unread += row.n;
      else if (row.status !== 'deleted') counts[row.status] += row.n;
    }
    return counts;
  }

  async itemsGeneration(): Promise<number | null> {
    return this.row<{ n: number }>('SELECT n FROM items_generation WHERE workspace = @ws')?.n ?? 0;
  }

  async listVersions(itemId: string): Promise<ItemVersionRecord[]> {
    return this.rows<{ version: number; content_hash: string; size: number; created_at: string }>(
      'SELECT version, content_hash, size, created_at FROM item_versions WHERE workspace = @ws AND item_id = @itemId ORDER BY version',
      { itemId },
    ).map((row) => ({ version: row.version, contentHash: row.content_hash, size: row.size, createdAt: row.created_at }));
  }

  async livePaths(): Promise<string[]> {
    return this.rows<{ path: string }>('SELECT path FROM items WHERE workspace = @ws AND deleted_at IS NULL').map(
      (row) => row.path,
    );
  }

  async recordFileCheck(itemPath: string, check: FileStats & { checkedMs: number }): Promise<void> {
    this.run(
      `UPDATE items SET checked_size = @size, checked_mtime_ms = @mtimeMs, checked_ctime_ms = @ctimeMs, checked_at_ms = @checkedMs
       WHERE workspace = @ws AND path = @path AND deleted_at IS NULL`,
      { path: itemPath, size: check.size, mtimeMs: check.mtimeMs, ctimeMs: check.ctimeMs, checkedMs: check.checkedMs },
    );
  }

  async fileChecks(): Promise<FileCheck[]> {
    return this.rows<{ path: string; size: number; mtime: number; ctime: number; checked: number; parser_version: string | null; status: ItemStatus }>(
      `SELECT path, checked_size AS size, checked_mtime_ms AS mtime, checked_ctime_ms AS ctime, checked_at_ms AS checked, parser_version, status
       FROM items WHERE workspace = @ws AND deleted_at IS NULL AND status IN ('indexed', 'duplicate') AND checked_at_ms IS NOT NULL`,
    ).map((row) => ({
      path: row.path,
      size: row.size,
      mtimeMs: row.mtime,
      ctimeMs: row.ctime,
      checkedMs: row.checked,
      parserVersion: row.parser_version,
      duplicate: row.status === 'duplicate',
    }));
  }

  async recordIngest(observation: FileObservation, isOnDisk: (path: string) => boolean, run?: IngestRun): Promise<IngestOutcome> {
    return this.db.transaction(() => this.decideIngest(observation, isOnDisk, run)).immediate();
  }

  private decideIngest(observation: FileObservation, isOnDisk: (path: string) => boolean, run?: IngestRun): IngestOutcome {
    const { path: itemPath, contentHash } = observation;
    const live = this.liveItemAt(itemPath);

    if (live && live.contentHash === contentHash && live.status !== 'skipped') {
      const original = live.duplicateOf ? this.itemById(live.duplicateOf) : null;
      const stillDuplicate = original && !original.deletedAt && original.contentHash === contentHash;
      if (live.status !== 'duplicate' || stillDuplicate) return { kind: 'unchanged', itemId: live.id };
    }

    // Other items holding these exact bytes: the live ones make this a duplicate, unless their file
    // is gone from disk, in which case this is the same document under a new path.
    const sameBytes = this.rows<ItemRow>(
      `SELECT * FROM items WHERE workspace = @ws AND content_hash = @hash AND path != @path
         AND status NOT IN ('duplicate', 'skipped')
       ORDER BY deleted_at IS NOT NULL, created_at`,
      { hash: contentHash, path: itemPath },
    ).map(toItem);
    const original = sameBytes.find((item) => !item.deletedAt && isOnDisk(item.path));
    if (original) {
      if (run && this.displacesOriginal(observation, original, run)) {
        const promoted = this.recordOriginal(live, observation);
        this.demoteOriginal(original.id, promoted.itemId);
        return promoted;
      }
      const itemId = this.upsertDuplicate(live, itemPath, observation, original.id);
      return { kind: 'duplicate', itemId, duplicateOf: original.id };
    }
    const moved = live ? undefined : sameBytes[0];
    if (moved) {
      const wasTombstoned = moved.deletedAt !== null;
      this.run(
        `UPDATE items SET path = @path, deleted_at = NULL, forgotten_at = NULL, updated_at = @now,
           status = CASE WHEN @revive THEN 'pending' ELSE status END
         WHERE workspace = @ws AND id = @id`,
        { path: itemPath, now: now(), id: moved.id, revive: wasTombstoned ? 1 : 0 },
      );
      if (wasTombstoned) this.enqueueNow('parse', moved.id);
      return { kind: 'renamed', itemId: moved.id, fromPath: moved.path, needsParse: wasTombstoned };
    }

    return this.recordOriginal(live, observation);
  }

  /** These bytes become the item at this path (created, revived or a new version) and are parsed. */
  private recordOriginal(live: ItemRecord | null, observation: FileObservation): { kind: 'created' | 'new_version'; itemId: string } {
    const { path: itemPath, contentHash } = observation;
    const reusable = live ?? this.latestTombstoneAt(itemPath);
    const itemId = reusable?.id ?? randomUUID();
    const version = (reusable?.version ?? 0) + 1;
    const stamp = now();
    if (reusable) {
      this.run(
        `UPDATE items SET status = 'pending', reason = NULL, duplicate_of = NULL, content_hash = @hash,
           size = @size, version = @version, flags = '[]', deleted_at = NULL, forgotten_at = NULL, updated_at = @now
         WHERE workspace = @ws AND id = @id`,
        { hash: contentHash, size: observation.size, version, now: stamp, id: itemId },
      );
    } else {
      this.run(
        `INSERT INTO items (id, workspace, path, status, content_hash, size, version, created_at, updated_at)
         VALUES (@id, @ws, @path, 'pending', @hash, @size, @version, @now, @now)`,
        { id: itemId, path: itemPath, hash: contentHash, size: observation.size, version, now: stamp },
      );
    }
    this.run(
      `INSERT INTO item_versions (workspace, item_id, version, content_hash, size, created_at)
       VALUES (@ws, @itemId, @version, @hash, @size, @now)`,
      { itemId, version, hash: contentHash, size: observation.size, now: stamp },
    );
    // A copy that becomes the original was discovered as a copy, with these very bytes: that says nothing of its content.
    this.discovery.resetDiscovery([itemId]);
    this.enqueueNow('parse', itemId);
    // Its copies take over its old bytes, and with them its passages, whose ids come from those
    // bytes (chunkId): dropped now, so the copy's own chunking cannot collide with them and the old
    // text is served from the copy, not from a file that no longer holds it.
    if (live && this.requeueCopiesOf(live.id, contentHash) > 0) this.dropChunks(live.id);
    return { kind: reusable ? 'new_version' : 'created', itemId };
  }

  /**
   * The item no longer holds the bytes its duplicates were copies of (a new version, bytes that
   * made it someone else's duplicate, or none at all): each copy is ingested again in this same
   * transaction, to become an original of its own bytes or the duplicate of another live item
   * holding them (store/preferredOriginal.ts). Ingest reads the copy from disk, so it decides on
   * what is there now, and a crash between the two cannot leave a copy of nothing.
   */
  private requeueCopiesOf(itemId: string, heldHash: string | null): number {
    const copies = this.rows<{ path: string }>(
      `SELECT path FROM items WHERE workspace = @ws AND duplicate_of = @itemId AND deleted_at IS NULL
         AND content_hash IS NOT @heldHash`,
      { itemId, heldHash },
    );
    for (const copy of copies) this.enqueueNow('ingest', copy.path);
    return copies.length;
  }

  /**
   * True when the file being ingested should take the place of the live original with its bytes:
   * that original's bytes were first recorded in this same run (an established original is never
   * displaced) and the newcomer is the one store/preferredOriginal.ts prefers.
   */
  private displacesOriginal(observation: FileObservation, original: ItemRecord, run: IngestRun): boolean {
    const recorded = this.row<{ created_at: string }>(
      'SELECT created_at FROM item_versions WHERE workspace = @ws AND item_id = @id AND version = @version',
      { id: original.id, version: original.version },
    );
    if (!recorded || recorded.created_at < run.startedAt) return false;
    const newcomer = { path: observation.path, modifiedMs: observation.modifiedMs ?? null };
    return compareOriginals(newcomer, { path: original.path, modifiedMs: run.modifiedMs(original.path) }) < 0;
  }

  /** The former original and its duplicates become duplicates of the new one; nothing of it is served any more. */
  private demoteOriginal(formerId: string, originalId: string): void {
    this.dropChunks(formerId);
    this.run(
      `UPDATE items SET status = 'duplicate', reason = NULL, duplicate_of = @originalId, updated_at = @now
       WHERE workspace = @ws AND id = @formerId`,
      { formerId, originalId, now: now() },
    );
    this.run(
      `UPDATE items SET duplicate_of = @originalId, updated_at = @now
       WHERE workspace = @ws AND duplicate_of = @formerId AND id <> @originalId`,
      { formerId, originalId, now: now() },
    );
  }

  async chooseOriginal(itemPath: string): Promise<{ itemId: string; formerOriginalId: string }> {
    return this.db
      .transaction(() => {
        const chosen = this.liveItemAt(itemPath);
        if (!chosen) throw new Error(`${itemPath}: no item at this path in the index`);
        const former = chosen.duplicateOf ? this.itemById(chosen.duplicateOf) : null;
        if (chosen.status !== 'duplicate' || !former || former.deletedAt || !chosen.contentHash) {
          throw new Error(`${itemPath} is not a copy of another file in the index, so it is already its own original`);
        }
        const promoted = this.recordOriginal(chosen, { path: itemPath, contentHash: chosen.contentHash, size: chosen.size ?? 0 });
        this.demoteOriginal(former.id, promoted.itemId);
        return { itemId: promoted.itemId, formerOriginalId: former.id };
      })
      .immediate();
  }

  private latestTombstoneAt(itemPath: string): ItemRecord | null {
    const row = this.row<ItemRow>(
      `SELECT * FROM items WHERE workspace = @ws AND path = @path AND deleted_at IS NOT NULL
       ORDER BY deleted_at DESC LIMIT 1`,
      { path: itemPath },
    );
    return row ? toItem(row) : null;
  }

  private upsertDuplicate(
    live: ItemRecord | null,
    itemPath: string,
    observation: FileObservation,
    originalId: string,
  ): string {
    const stamp = now();
    if (live) {
      this.dropChunks(live.id);
      this.run(
        `UPDATE items SET status = 'duplicate', reason = NULL, duplicate_of = @originalId, content_hash = @hash,
           size = @size, updated_at = @now WHERE workspace = @ws AND id = @id`,
        { originalId, hash: observation.contentHash, size: observation.size, now: stamp, id: live.id },
      );
      this.requeueCopiesOf(live.id, observation.contentHash);
      return live.id;
    }
    const id = randomUUID();
    this.run(
      `INSERT INTO items (id, workspace, path, status, duplicate_of, content_hash, size, version, created_at, updated_at)
       VALUES (@id, @ws, @path, 'duplicate', @originalId, @hash, @size, 0, @now, @now)`,
      { id, path: itemPath, originalId, hash: observation.contentHash, size: observation.size, now: stamp },
    );
    return id;
  }

  async recordSkipped(itemPath: string, reason: string, size: number | null): Promise<void> {
    this.db
      .transaction(() => {
        const live = this.liveItemAt(itemPath);
        if (live) {
          this.dropChunks(live.id);
          this.run(
            `UPDATE items SET status = 'skipped', reason = @reason, size = @size, duplicate_of = NULL,
               content_hash = NULL, updated_at = @now WHERE workspace = @ws AND id = @id`,
            { reason, size, now: now(), id: live.id },
          );
          this.requeueCopiesOf(live.id, null);
          return;
        }
        this.run(
          `INSERT INTO items (id, workspace, path, status, reason, size, created_at, updated_at)
           VALUES (@id, @ws, @path, 'skipped', @reason, @size, @now, @now)`,
          { id: randomUUID(), path: itemPath, reason, size, now: now() },
        );
      })
      .immediate();
  }

  async recordFailed(itemPath: string, reason: string): Promise<string[]> {
    return this.db.transaction(() => this.failIngest(itemPath, reason)).immediate();
  }

  /**
   * The bytes at this path are unknown now, so the item loses its hash (a readable file is then
   * ingested afresh, not taken as unchanged) and its duplicates stop pointing at it.
   */
  private failIngest(itemPath: string, reason: string): string[] {
    const live = this.liveItemAt(itemPath);
    if (!live) {
      this.run(
        `INSERT INTO items (id, workspace, path, status, reason, created_at, updated_at)
         VALUES (@id, @ws, @path, 'failed', @reason, @now, @now)`,
        { id: randomUUID(), path: itemPath, reason, now: now() },
      );
      return [];
    }
    this.dropChunks(live.id);
    this.run(
      `UPDATE items SET status = 'failed', reason = @reason, duplicate_of = NULL, content_hash = NULL, flags = '[]',
         updated_at = @now WHERE workspace = @ws AND id = @id`,
      { reason, now: now(), id: live.id },
    );
    return this.rows<{ path: string }>(
      'SELECT path FROM items WHERE workspace = @ws AND duplicate_of = @id AND deleted_at IS NULL',
      { id: live.id },
    ).map((row) => row.path);
  }

  async tombstone(itemPath: string): Promise<string[]> {
    return this.db
      .transaction(() => {
        const live = this.liveItemAt(itemPath);
        if (!live) return [];
        this.dropChunks(live.id);
        this.run(
          `UPDATE items SET status = 'deleted', deleted_at = @now, updated_at = @now WHERE workspace = @ws AND id = @id`,
          { now: now(), id: live.id },
        );
        return this.rows<{ path: string }>(
          'SELECT path FROM items WHERE workspace = @ws AND duplicate_of = @id AND deleted_at IS NULL',
          { id: live.id },
        ).map((row) => row.path);
      })
      .immediate();
  }

  async forgetItems(itemIds: readonly string[]): Promise<{ forgotten: string[]; unreferencedHashes: string[] }> {
    const result = this.db
      .transaction(() => {
        const items = itemIds.map((id) => {
          const item = this.itemById(id);
          if (!item) throw new Error(`no item ${id} in this workspace`);
          if (!item.deletedAt) throw new Error(`${item.path} is still in the folder; delete it first or exclude it`);
          return item;
        });
        const hashes = new Set<string>();
        const stamp = now();
        for (const item of items) {
          for (const version of this.rows<{ content_hash: string }>(
            'SELECT content_hash FROM item_versions WHERE workspace = @ws AND item_id = @id',
            { id: item.id },
          )) {
            hashes.add(version.content_hash);
          }
          if (item.contentHash) hashes.add(item.contentHash);
          this.forgetOne(item, stamp);
        }
        if (items.length > 0) this.aliases.dropUnmentioned();
        const unreferencedHashes = [...hashes].filter((hash) => blobReferences(this.db, hash) === 0).sort();
        return { forgotten: items.map((item) => item.id), unreferencedHashes };
      })
      .immediate();
    if (result.forgotten.length > 0) {
      this.vectors.own.discardSaved();
      this.forgottenSinceScrub = true;
    }
    return result;
  }

  /** Everything derived from the document's bytes goes; what says it existed stays. */
  private forgetOne(item: ItemRecord, stamp: string): void {
    const params = { id: item.id, path: item.path };
    this.dropChunks(item.id);
    this.run('DELETE FROM item_texts WHERE workspace = @ws AND item_id = @id', params);
    this.run('DELETE FROM item_discoveries WHERE workspace = @ws AND item_id = @id', params);
    // A model's reply quotes the passage it read.
    this.run('DELETE FROM model_extraction_cache WHERE workspace = @ws AND item_id = @id', params);
    // A job's last error may quote the document (a parser's message); a job running now keeps its row.
    this.run(`DELETE FROM jobs WHERE workspace = @ws AND subject IN (@id, @path) AND status <> 'leased'`, params);
    this.run(
      `UPDATE items SET title = NULL, reason = NULL, flags = '[]', forgotten_at = @now, updated_at = @now
       WHERE workspace = @ws AND id = @id`,
      { ...params, now: stamp },
    );
    this.relationships.redactQuotesOf(item.id);
  }

  async scrubForgotten(): Promise<boolean> {
    if (!this.forgottenSinceScrub) return true;
    // Contentless FTS5 deletes leave the entries in the index until its segments are merged.
    for (const index of [this.fts.items, this.fts.chunks, this.fts.titles]) this.run(`INSERT INTO ${index} (${index}) VALUES ('optimize')`);
    const [checkpoint] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    this.forgottenSinceScrub = false;
    return checkpoint?.busy === 0;
  }

  async refreshLexicalStatistics(): Promise<string[]> {
    return rebuildDriftedIndexes(this.scoped, this.fts);
  }

  /** Remove an item's chunks, their vectors and its lexical index rows: nothing stale is served. */
  private dropChunks(itemId: string): void {
    this.dropVectors(
      this.rows<{ seq: number; dims: number }>('SELECT seq, dims FROM vectors WHERE workspace = @ws AND item_id = @itemId', {
        itemId,
      }),
    );
    this.run(
      `DELETE FROM ${this.fts.chunks} WHERE rowid IN (SELECT seq FROM chunks WHERE workspace = @ws AND item_id = @itemId)`,
      { itemId },
    );
    this.run('DELETE FROM chunks WHERE workspace = @ws AND item_id = @itemId', { itemId });
    // Every producer's results point into the chunks being dropped.
    this.dropExtraction(itemId, null);
    for (const index of [this.fts.items, this.fts.titles]) {
      this.run(`DELETE FROM ${index} WHERE rowid = (SELECT seq FROM items WHERE workspace = @ws AND id = @itemId)`, { itemId });
    }
    dropItemMetadata(this.scoped, itemId);
  }

  async recordParse(itemId: string, parsed: ParsedText, title: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        const item = this.itemById(itemId);
        if (!item || item.deletedAt || item.contentHash !== parsed.contentHash || item.status === 'duplicate') return false;
        this.run(
          `INSERT INTO item_texts (item_id, workspace, content_hash, parser_version, document)
           VALUES (@itemId, @ws, @hash, @parserVersion, @document)
           ON CONFLICT (item_id) DO UPDATE SET content_hash = excluded.content_hash,
             parser_version = excluded.parser_version, document = excluded.document
           WHERE workspace = @ws`,
          {
            itemId,
            hash: parsed.contentHash,
            parserVersion: parsed.parserVersion,
            document: storedDocument(parsed.document),
          },
        );
        this.run(
          `UPDATE items SET title = @title, parser_version = @parserVersion, flags = @flags, reason = NULL,
             updated_at = @now WHERE workspace = @ws AND id = @itemId`,
          {
            title,
            parserVersion: parsed.parserVersion,
            flags: JSON.stringify(parsed.document.flags),
            now: now(),
            itemId,
          },
        );
        this.enqueueNow('chunk', itemId);
        return true;
      })
      .immediate();
  }

  async listHeadings(itemId: string): Promise<string[]> {
    const row = this.row<{ headings: string | null }>(
      "SELECT json_extract(document, '$.structure.headings') AS headings FROM item_texts WHERE workspace = @ws AND item_id = @itemId",
      { itemId },
    );
    return row?.headings ? (JSON.parse(row.headings) as HeadingEntry[]).map((heading) => heading.text) : [];
  }

  async listDocumentLinks(itemId: string): Promise<DocumentLink[]> {
    const row = this.row<{ links: string | null }>(
      "SELECT json_extract(document, '$.links') AS links FROM item_texts WHERE workspace = @ws AND item_id = @itemId",
      { itemId },
    );
    return row?.links ? (JSON.parse(row.links) as DocumentLink[]) : [];
  }

  async getParsedText(itemId: string): Promise<ParsedText | null> {
    const row = this.row<{ content_hash: string; parser_version: string; document: string }>(
      'SELECT content_hash, parser_version, document FROM item_texts WHERE workspace = @ws AND item_id = @itemId',
      { itemId },
    );
    if (!row) return null;
    return {
      contentHash: row.content_hash,
      parserVersion: row.parser_version,
      document: loadedDocument(row.document),
    };
  }

  async getStoredBlocks(itemId: string): Promise<{ contentHash: string; blocksJson: string } | null> {
    const row = this.row<{ content_hash: string; blocks: string }>(
      `SELECT content_hash, json_extract(document, '$.blocks') AS blocks FROM item_texts WHERE workspace = @ws AND item_id = @itemId`,
      { itemId },
    );
    return row ? { contentHash: row.content_hash, blocksJson: row.blocks } : null;
  }

  async replaceChunks(itemId: string, contentHash: string, chunks: ChunkRecord[]): Promise<boolean> {
    return this.db
      .transaction(() => {
        const item = this.itemById(itemId);
        if (!item || item.deletedAt || item.contentHash !== contentHash || item.status === 'duplicate') return false;
        this.dropChunks(itemId);
        for (const chunk of chunks) {
          const inserted = this.run(
            `INSERT INTO chunks (id, workspace, item_id, ordinal, text, heading_path, location, word_count)
             VALUES (@id, @ws, @itemId, @ordinal, @text, @headingPath, @location, @wordCount)`,
            {
              id: chunk.id,
              itemId,
              ordinal: chunk.ordinal,
              text: chunk.text,
              headingPath: JSON.stringify(chunk.headingPath),
              location: JSON.stringify(chunk.location),
              wordCount: chunk.wordCount,
            },
          );
          this.run(`INSERT INTO ${this.fts.chunks} (rowid, text) VALUES (@seq, @text)`, {
            seq: inserted.lastInsertRowid,
            text: indexedText(chunk.text),
          });
        }
        // The whole text goes from item_texts to the index inside SQLite, never through JavaScript.
        const { seq } = this.row<{ seq: number }>('SELECT seq FROM items WHERE workspace = @ws AND id = @itemId', {
          itemId,
        })!;
        this.run(
          `INSERT INTO ${this.fts.items} (rowid, title, text)
           SELECT @seq, @title, COALESCE((SELECT ${itemIndexTextSql('texts')} FROM item_texts AS texts
                                          WHERE texts.workspace = @ws AND texts.item_id = @itemId), '')`,
          { seq, title: indexedText(item.title ?? ''), itemId },
        );
        if (item.title !== null) this.run(`INSERT INTO ${this.fts.titles} (rowid, title) VALUES (@seq, @title)`, { seq, title: item.title });
        indexItemMetadata(this.scoped, itemId);
        this.run(
          `UPDATE items SET status = 'indexed', reason = NULL, updated_at = @now WHERE workspace = @ws AND id = @itemId`,
          { now: now(), itemId },
        );
        this.enqueueNow('embed', itemId);
        this.enqueueNow('extract', itemId);
        return true;
      })
      .immediate();
  }

  async markFailed(itemId: string, reason: string, parserVersion?: string): Promise<void> {
    this.db
      .transaction(() => {
        this.dropChunks(itemId);
        this.run(
          `UPDATE items SET status = 'failed', reason = @reason, updated_at = @now,
             parser_version = COALESCE(@parserVersion, parser_version), flags = '[]'
           WHERE workspace = @ws AND id = @itemId AND deleted_at IS NULL AND status <> 'duplicate'`,
          { reason, now: now(), itemId, parserVersion: parserVersion ?? null },
        );
      })
      .immediate();
  }

  async listChunks(itemId: string): Promise<ChunkRecord[]> {
    return this.rows<ChunkRow>('SELECT * FROM chunks WHERE workspace = @ws AND item_id = @itemId ORDER BY ordinal', {
      itemId,
    }).map(toChunk);
  }

  async countChunks(): Promise<number> {
    return this.row<{ n: number }>('SELECT COUNT(*) AS n FROM chunks WHERE workspace = @ws')!.n;
  }

  /** Search reports the lexical paths unavailable with this reason, and answers from the others. */
  private requireLexicalIndex(): void {
    if (!this.lexicalIndexReady) {
      throw new Error(`${this.db.name} has no lexical index for workspace "${this.workspace}" yet; run \`relata index\` to build it`);
    }
  }

  /** The full-text query for what was typed (ftsQuery.ts). */
  private lexicalMatch(query: string): string | null {
    return toFtsQuery(query);
  }

  async searchItemsLexical(query: string, limit: number): Promise<LexicalHit[]> {
    this.requireLexicalIndex();
    const phrases = ftsPhrases(query);
    if (phrases.length === 0) return [];
    return this.itemRanking.rank(phrases, limit).rows.map((row) => ({ id: row.item_id, itemId: row.item_id, bm25: -row.score }));
  }

  async lexicalMatchExists(query: string): Promise<boolean> {
    this.requireLexicalIndex();
    const match = this.lexicalMatch(query);
    if (!match) return false;
    // As searchItemsLexical, without bm25 and its sort: the first live match ends the look-up.
    return (
      this.row<{ found: number }>(
        `SELECT 1 AS found
         FROM ${this.fts.items} CROSS JOIN items ON items.seq = ${this.fts.items}.rowid
         WHERE ${this.fts.items} MATCH @match AND items.workspace = @ws AND items.deleted_at IS NULL
         LIMIT 1`,
        { match },
      ) !== undefined
    );
  }

  async lexicalVocabulary(prefix: string): Promise<VocabularyTerm[]> {
    this.requireLexicalIndex();
    // fts5vocab over this workspace's own item index (its name is the workspace's), in the
    // connection's temp schema: created once per connection, so a read-only store can have it.
    const vocabulary = `temp.${this.fts.items}_vocabulary`;
    if (!this.vocabularyReady) {
      this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vocabulary} USING fts5vocab(main, ${this.fts.items}, 'row')`);
      this.vocabularyReady = true;
    }
    const upper = prefix.slice(0, -1) + String.fromCodePoint(prefix.codePointAt(prefix.length - 1)! + 1);
    return this.db
      .prepare(`SELECT term, doc FROM ${vocabulary} WHERE term >= ? AND term < ?`)
      .all(prefix, upper)
      .map((row) => ({ term: (row as { term: string }).term, documents: (row as { doc: number }).doc }));
  }

  async searchChunksLexical(query: string, limit: number): Promise<LexicalHit[]> {
    this.requireLexicalIndex();
    const phrases = ftsPhrases(query);
    if (phrases.length === 0) return [];
    return this.passageRanking.rank(phrases, limit).rows.map((row) => ({ id: row.id, itemId: row.item_id, bm25: -row.score }));
  }

  // Vectors -------------------------------------------------------------------

  /** sqlite-vec tables have a fixed dimension, so there is one per dimension in use. */
  private vectorTable(dims: number): string {
    const table = vectorTableName(dims);
    if (this.vectorTables.has(table) || this.readOnly) return table;
    this.vectorTables.add(table);
    this.db.exec(createVectorTableSql(dims));
    return table;
  }

  private dropVectors(rows: { seq: number; dims: number }[]): void {
    for (const row of rows) {
      // The vector row is found through its `vectors` row, which carries the workspace.
      this.run(`DELETE FROM ${this.vectorTable(row.dims)} WHERE rowid = (SELECT seq FROM vectors WHERE workspace = @ws AND seq = @seq)`, {
        seq: row.seq,
      });
      this.run('DELETE FROM vectors WHERE workspace = @ws AND seq = @seq', { seq: row.seq });
    }
  }

  async registerModel(model: ModelDescriptor): Promise<void> {
    this.vectorTable(model.dims);
    this.run(
      `INSERT INTO embedding_models (workspace, id, dims, version, max_tokens, first_used_at)
       VALUES (@ws, @id, @dims, @version, @maxTokens, @now)
       ON CONFLICT (workspace, id) DO NOTHING`,
      { id: model.id, dims: model.dims, version: model.version, maxTokens: model.maxTokens, now: now() },
    );
  }

  async chunksWithoutVectors(itemId: string, modelId: string): Promise<ChunkRecord[]> {
    return this.rows<ChunkRow>(
      `SELECT * FROM chunks WHERE workspace = @ws AND item_id = @itemId
         AND NOT EXISTS (SELECT 1 FROM vectors WHERE vectors.workspace = @ws AND vectors.chunk_id = chunks.id
                           AND vectors.model_id = @modelId)
       ORDER BY ordinal`,
      { itemId, modelId },
    ).map(toChunk);
  }

  async storeVectors(itemId: string, contentHash: string, model: ModelDescriptor, entries: VectorEntry[]): Promise<boolean> {
    const table = this.vectorTable(model.dims);
    return this.db
      .transaction(() => {
        const item = this.itemById(itemId);
        if (!item || item.deletedAt || item.contentHash !== contentHash) return false;
        const chunkIds = [...new Set(entries.map((entry) => entry.chunkId))];
        for (const chunkId of chunkIds) {
          const owned = this.row<{ n: number }>(
            'SELECT COUNT(*) AS n FROM chunks WHERE workspace = @ws AND id = @chunkId AND item_id = @itemId',
            { chunkId, itemId },
          )!.n;
          if (owned === 0) return false; // re-chunked meanwhile: these vectors describe nothing current
          this.dropVectors(
            this.rows<{ seq: number; dims: number }>('SELECT seq, dims FROM vectors WHERE workspace = @ws AND chunk_id = @chunkId', {
              chunkId,
            }),
          );
        }
        const stamp = now();
        for (const entry of entries) {
          if (entry.vector.length !== model.dims) {
            throw new Error(`vector for chunk ${entry.chunkId} has ${entry.vector.length} dimensions, model ${model.id} has ${model.dims}`);
          }
          const inserted = this.run(
            `INSERT INTO vectors (workspace, item_id, chunk_id, window, char_start, char_end, model_id, dims, created_at)
             VALUES (@ws, @itemId, @chunkId, @window, @start, @end, @modelId, @dims, @now)`,
            {
              itemId,
              chunkId: entry.chunkId,
              window: entry.window,
              start: entry.start,
              end: entry.end,
              modelId: model.id,
              dims: model.dims,
              now: stamp,
            },
          );
          this.run(`INSERT INTO ${table} (rowid, workspace, model_id, embedding) VALUES (@seq, @ws, @modelId, @embedding)`, {
            seq: BigInt(inserted.lastInsertRowid),
            modelId: model.id,
            embedding: Buffer.from(entry.vector.buffer, entry.vector.byteOffset, entry.vector.byteLength),
          });
        }
        return true;
      })
      .immediate();
  }

  async itemsNeedingVectors(modelId: string): Promise<string[]> {
    return this.rows<{ item_id: string }>(
      `SELECT DISTINCT chunks.item_id FROM chunks JOIN items ON items.workspace = @ws AND items.id = chunks.item_id
       WHERE chunks.workspace = @ws AND items.status = 'indexed' AND items.deleted_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM vectors WHERE vectors.workspace = @ws AND vectors.chunk_id = chunks.id
                           AND vectors.model_id = @modelId)
       ORDER BY items.path`,
      { modelId },
    ).map((row) => row.item_id);
  }

  async searchVectors(modelId: string, query: Float32Array, k: number): Promise<VectorHit[]> {
    return (await this.searchVectorsMany(modelId, [query], k))[0] ?? [];
  }

  /** Exact (sqlite-vec) for small workspaces, approximate (vectorIndex.ts) beyond; similarities are exact either way. */
  searchVectorsMany(modelId: string, queries: readonly Float32Array[], k: number): Promise<VectorHit[][]> {
    return this.lookUpVectors(modelId, queries, k, this.vectors.exactWhileCatchingUp);
  }

  async lookUpVectors(modelId: string, queries: readonly Float32Array[], k: number, exactWhileCatchingUp: boolean): Promise<VectorHit[][]> {
    const model = this.vectorModel(modelId);
    if (!model) return queries.map(() => []);
    for (const query of queries) {
      if (query.length !== model.dims) {
        throw new Error(`query vector has ${query.length} dimensions, model ${modelId} has ${model.dims}`);
      }
    }
    const { own } = this.vectors;
    const answered = await this.askSharedGraph((shared) => shared.search(modelId, queries, k, exactWhileCatchingUp));
    if (answered) return answered.value;
    await own.whenLoaded(model);
    if (exactWhileCatchingUp) await own.caughtUp(model);
    return own.search(model, queries, k, exactWhileCatchingUp);
  }

  async vectorLookupReady(modelId: string): Promise<boolean> {
    const model = this.vectorModel(modelId);
    if (model === null) return true;
    const answered = await this.askSharedGraph((shared) => shared.ready(modelId));
    return answered ? answered.value : this.vectors.own.lookupReady(model);
  }

  /** The process's shared graph's answer, or null when there is none or it has stopped: the store's own graph answers then. */
  private async askSharedGraph<T>(ask: (shared: SharedGraphClient) => Promise<T>): Promise<{ value: T } | null> {
    const { shared } = this.vectors;
    if (!shared?.connected) return null;
    try {
      return { value: await ask(shared) };
    } catch (error) {
      if (error instanceof SharedGraphStoppedError) return null;
      throw error;
    }
  }

  private vectorModel(modelId: string): { id: string; dims: number; table: string } | null {
    const model = this.row<{ dims: number }>('SELECT dims FROM embedding_models WHERE workspace = @ws AND id = @modelId', { modelId });
    return model ? { id: modelId, dims: model.dims, table: this.vectorTable(model.dims) } : null;
  }

  async modelUsage(): Promise<ModelUsage[]> {
    return this.rows<{ id: string; dims: number; version: string; max_tokens: number; vectors: number; chunks: number }>(
      `SELECT m.id, m.dims, m.version, m.max_tokens,
         (SELECT COUNT(*) FROM vectors v WHERE v.workspace = @ws AND v.model_id = m.id) AS vectors,
         (SELECT COUNT(DISTINCT v.chunk_id) FROM vectors v WHERE v.workspace = @ws AND v.model_id = m.id) AS chunks
       FROM embedding_models m WHERE m.workspace = @ws ORDER BY m.first_used_at, m.id`,
    ).map((row) => ({ id: row.id, dims: row.dims, version: row.version, maxTokens: row.max_tokens, vectors: row.vectors, chunks: row.chunks }));
  }

  // Extraction ----------------------------------------------------------------

  /** Drop one producer's entities and claims (all producers' when null), and the phrase counts. */
  private dropExtraction(itemId: string, producer: string | null): void {
    const byProducer = 'AND (@producer IS NULL OR producer = @producer)';
    this.run(`DELETE FROM entities WHERE workspace = @ws AND item_id = @itemId ${byProducer}`, { itemId, producer });
    this.run(`DELETE FROM claims WHERE workspace = @ws AND item_id = @itemId ${byProducer}`, { itemId, producer });
    this.run('DELETE FROM item_phrases WHERE workspace = @ws AND item_id = @itemId', { itemId });
    this.run('DELETE FROM item_extractions WHERE workspace = @ws AND item_id = @itemId', { itemId });
  }

  async storeExtraction(itemId: string, contentHash: string, extraction: ItemExtraction): Promise<boolean> {
    return this.db
      .transaction(() => {
        const item = this.itemById(itemId);
        if (!item || item.deletedAt || item.contentHash !== contentHash || item.status !== 'indexed') return false;
        this.dropExtraction(itemId, null);
        for (const entity of extraction.entities) insertEntity(this.scoped, itemId, entity);
        for (const claim of extraction.claims) insertClaim(this.scoped, itemId, claim);
        for (const phrase of extraction.phrases) {
          this.run(
            `INSERT INTO item_phrases (workspace, item_id, key, phrase, count) VALUES (@ws, @itemId, @key, @phrase, @count)`,
            { itemId, key: phrase.key, phrase: phrase.phrase, count: phrase.count },
          );
        }
        this.run(
          `INSERT INTO item_extractions (workspace, item_id, content_hash, versions, language, passage_languages)
           VALUES (@ws, @itemId, @hash, @versions, @language, @passageLanguages)`,
          { itemId, hash: contentHash, versions: extraction.versions, language: extraction.language ?? null, passageLanguages: passageLanguagesColumn(extraction.passageLanguages) },
        );
        // The per-item caps' flag follows the extraction it describes: set or cleared with it.
        const flags: ItemFlag[] = item.flags.filter((flag) => flag !== 'extraction_capped');
        if (extraction.capped) flags.push('extraction_capped');
        if (flags.length !== item.flags.length || flags.some((flag, n) => flag !== item.flags[n])) {
          this.run(`UPDATE items SET flags = @flags WHERE workspace = @ws AND id = @itemId`, { itemId, flags: JSON.stringify(flags) });
        }
        return true;
      })
      .immediate();
  }

  async cachedModelOutputs(passageHashes: readonly string[], modelId: string, promptVersion: string): Promise<Map<string, string>> {
    const outputs = new Map<string, string>();
    for (const passageHash of new Set(passageHashes)) {
      const row = this.row<{ output: string }>(
        `SELECT output FROM model_extraction_cache
         WHERE workspace = @ws AND passage_hash = @passageHash AND model_id = @modelId AND prompt_version = @promptVersion`,
        { passageHash, modelId, promptVersion },
      );
      if (row) outputs.set(passageHash, row.output);
    }
    return outputs;
  }

  async cacheModelOutput(entry: ModelOutputEntry): Promise<void> {
    this.run(
      `INSERT OR REPLACE INTO model_extraction_cache (workspace, passage_hash, model_id, prompt_version, output, item_id, created_at)
       VALUES (@ws, @passageHash, @modelId, @promptVersion, @output, @itemId, @now)`,
      { ...entry, now: now() },
    );
  }

  async itemsNeedingExtraction(versions: string): Promise<string[]> {
    return this.rows<{ id: string }>(
      `SELECT items.id FROM items
       LEFT JOIN item_extractions x ON x.workspace = @ws AND x.item_id = items.id
       WHERE items.workspace = @ws AND items.status = 'indexed' AND items.deleted_at IS NULL
         AND (x.item_id IS NULL OR x.versions != @versions OR x.content_hash != items.content_hash)
       ORDER BY items.path`,
      { versions },
    ).map((row) => row.id);
  }

  async itemLanguages(itemIds: readonly string[]): Promise<Map<string, string>> {
    const languages = new Map<string, string>();
    for (let at = 0; at < itemIds.length; at += 500) {
      const ids = itemIds.slice(at, at + 500);
      const rows = this.rows<{ item_id: string; language: string }>(
        `SELECT item_id, language FROM item_extractions WHERE workspace = @ws AND language IS NOT NULL AND item_id IN (SELECT value FROM json_each(@ids))`,
        { ids: JSON.stringify(ids) },
      );
      for (const row of rows) languages.set(row.item_id, row.language);
    }
    return languages;
  }

  async passageLanguages(itemIds: readonly string[]): Promise<Map<string, string>> {
    const languages = new Map<string, string>();
    for (let at = 0; at < itemIds.length; at += 500) {
      const rows = this.rows<{ passage_languages: string }>(
        `SELECT passage_languages FROM item_extractions
         WHERE workspace = @ws AND passage_languages IS NOT NULL AND item_id IN (SELECT value FROM json_each(@ids))`,
        { ids: JSON.stringify(itemIds.slice(at, at + 500)) },
      );
      for (const row of rows) for (const [chunkId, language] of Object.entries(JSON.parse(row.passage_languages) as Record<string, string>)) languages.set(chunkId, language);
    }
    return languages;
  }

  async listEntities(itemId: string): Promise<StoredEntity[]> {
    return this.rows<EntityRow>('SELECT * FROM entities WHERE workspace = @ws AND item_id = @itemId ORDER BY chunk_id, char_start', {
      itemId,
    }).map(toEntity);
  }

  async listClaims(itemId: string): Promise<StoredClaim[]> {
    return this.rows<ClaimRow>('SELECT * FROM claims WHERE workspace = @ws AND item_id = @itemId ORDER BY chunk_id, char_start, rowid', {
      itemId,
    }).map(toClaim);
  }

  async claimsInPassages(passages: readonly PassageRef[]): Promise<StoredClaim[]> {
    return search.claimsInPassages(this.reader, passages);
  }

  async entitySummaries(types?: readonly EntityType[]): Promise<EntitySummary[]> {
    const rows = this.rows<{ key: string; type: EntityType; surface: string; item_id: string; mentions: number; rule_found: number }>(
      `SELECT key, type, surface, item_id, COUNT(*) AS mentions, MAX(producer = 'deterministic') AS rule_found FROM entities
       WHERE workspace = @ws ${types ? 'AND type IN (SELECT value FROM json_each(@types))' : ''} GROUP BY key, type, surface, item_id`,
      types ? { types: JSON.stringify(types) } : {},
    );
    return summariseMentions(rows.map(({ item_id: itemId, rule_found: ruleFound, ...row }) => ({ ...row, itemId, ruleFound: ruleFound === 1 })));
  }

  async listPhrases(itemId: string): Promise<PhraseCount[]> {
    return this.rows<PhraseCount>(
      'SELECT key, phrase, count FROM item_phrases WHERE workspace = @ws AND item_id = @itemId ORDER BY count DESC, key',
      { itemId },
    );
  }

  async listMetadata(itemId: string): Promise<MetadataEntry[]> {
    return listItemMetadata(this.scoped, itemId);
  }

  async phraseDocumentFrequencies(keys: readonly string[]): Promise<Map<string, number>> {
    const frequencies = new Map<string, number>();
    for (const key of keys) {
      const row = this.row<{ n: number }>('SELECT COUNT(*) AS n FROM item_phrases WHERE workspace = @ws AND key = @key', { key });
      frequencies.set(key, row!.n);
    }
    return frequencies;
  }

  async countIndexedItems(): Promise<number> {
    return this.row<{ n: number }>(
      `SELECT COUNT(*) AS n FROM items WHERE workspace = @ws AND status = 'indexed' AND deleted_at IS NULL`,
    )!.n;
  }

  // Search (the SQL lives in searchQueries.ts) ------------------------------------

  private readonly reader: search.ScopedReader = { rows: (text, params) => this.rows(text, params) };

  async searchTitles(text: string, limit: number): Promise<string[]> {
    return search.titleMatches(this.reader, this.fts.titles, text, limit);
  }

  async entityMentions(keys: readonly string[]): Promise<EntityMention[]> {
    return search.entityMentions(this.reader, keys);
  }

  async entityKeysStartingWith(prefixes: readonly string[]): Promise<string[]> {
    return search.entityKeysStartingWith(this.reader, prefixes);
  }

  async searchItemInfo(itemIds: readonly string[]): Promise<SearchItemInfo[]> {
    return search.searchItemInfo(this.reader, itemIds);
  }

  async getChunks(chunkIds: readonly string[]): Promise<ChunkRecord[]> {
    return search.chunksByIds(this.reader, chunkIds);
  }

  async hasVectors(modelId: string): Promise<boolean> {
    return search.hasVectors(this.reader, modelId);
  }

  async bestSimilarities(modelId: string, query: Float32Array, itemIds: readonly string[]): Promise<VectorHit[]> {
    return search.bestSimilarities(this.reader, modelId, query, itemIds);
  }

  // Leased job queue ----------------------------------------------------------

  async enqueue(stage: PipelineStage, subject: string): Promise<void> {
    this.enqueueNow(stage, subject);
  }

  async enqueueMany(stage: PipelineStage, subjects: readonly string[]): Promise<void> {
    for (let start = 0; start < subjects.length; start += ENQUEUE_BATCH) {
      if (start > 0) await yieldToEventLoop();
      const batch = subjects.slice(start, start + ENQUEUE_BATCH);
      this.db.transaction(() => batch.forEach((subject) => this.enqueueNow(stage, subject))).immediate();
    }
  }

  /**
   * Insert or re-arm a job. A done or failed job goes back to queued with fresh attempts; a job
   * that is running keeps its lease but gets a new generation, so its completion re-queues it
   * instead of losing the change that arrived meanwhile. A job still waiting (a retry, or a lease
   * handed back after a crash) keeps its attempts and lost leases: re-queuing it is no reason to
   * try it again.
   */
  private enqueueNow(stage: PipelineStage, subject: string): void {
    this.run(
      `INSERT INTO jobs (workspace, stage, subject, status, created_at, updated_at)
       VALUES (@ws, @stage, @subject, 'queued', @now, @now)
       ON CONFLICT (workspace, stage, subject) DO UPDATE SET
         generation = generation + 1,
         status = CASE WHEN status = 'leased' THEN 'leased' ELSE 'queued' END,
         attempts = CASE WHEN status IN ('leased', 'queued') THEN attempts ELSE 0 END,
         lost_leases = CASE WHEN status IN ('leased', 'queued') THEN lost_leases ELSE 0 END,
         last_error = CASE WHEN status IN ('leased', 'queued') THEN last_error ELSE NULL END,
         updated_at = excluded.updated_at`,
      { stage, subject, now: now() },
    );
  }

  async claim(owner: string, leaseMs: number, stages?: readonly PipelineStage[], subjects?: readonly string[]): Promise<JobRecord | null> {
    return this.db
      .transaction(() => {
        const clock = Date.now();
        const row = this.nextClaimable(clock, stages, subjects);
        return row ? this.lease(row, owner, leaseMs, clock) : null;
      })
      .immediate();
  }

  async claimFirst(owner: string, leaseMs: number, stagesInOrder: readonly PipelineStage[], subjects?: readonly string[]): Promise<JobRecord | null> {
    return this.db
      .transaction(() => {
        const clock = Date.now();
        for (const stage of stagesInOrder) {
          const row = this.nextClaimable(clock, [stage], subjects);
          if (row) return this.lease(row, owner, leaseMs, clock);
        }
        return null;
      })
      .immediate();
  }

  /** Leases a claimable job (inside the claim's transaction). */
  private lease(row: JobRow, owner: string, leaseMs: number, clock: number): JobRecord {
    // A lease that ran out was lost by its holder (stopped, or stuck): its attempt is not the
    // file's, so it passes to this claim, and the loss is counted instead (see lostLeases).
    const lost = row.status === 'leased' ? 1 : 0;
    const attempts = row.attempts + 1 - lost;
    const lostLeases = row.lost_leases + lost;
    this.run(
      `UPDATE jobs SET status = 'leased', owner = @owner, lease_expires_at = @expires, attempts = @attempts,
         lost_leases = @lostLeases, updated_at = @now WHERE workspace = @ws AND id = @id`,
      { owner, expires: clock + leaseMs, attempts, lostLeases, now: now(), id: row.id },
    );
    return toJob({ ...row, status: 'leased', owner, lease_expires_at: clock + leaseMs, attempts, lost_leases: lostLeases });
  }

  async hasClaimableJob(stages: readonly PipelineStage[], subjects?: readonly string[]): Promise<boolean> {
    return this.nextClaimable(Date.now(), stages, subjects) !== undefined;
  }

  /** The job `claim` would lease at `clock`. */
  private nextClaimable(clock: number, stages?: readonly PipelineStage[], subjects?: readonly string[]): JobRow | undefined {
    // One look-up per stage (jobs_by_stage), not a filter over the queue's order, so that
    // thousands of ingest jobs waiting ahead of a worker's first parse job are never read.
    const candidates = subjects
      ? [this.oldestClaimableOf(clock, stages ?? EVERY_STAGE, subjects)]
      : stages
        ? stages.map((stage) => this.oldestClaimable(clock, stage))
        : [this.oldestClaimable(clock)];
    return candidates.reduce<JobRow | undefined>((oldest, next) => (next && (!oldest || next.id < oldest.id) ? next : oldest), undefined);
  }

  /** The oldest claimable job (of one stage, when given): two index look-ups rather than one OR, which would scan every finished job per claim. */
  private oldestClaimable(clock: number, stage?: PipelineStage): JobRow | undefined {
    const ofStage = stage ? ' AND stage = @stage' : '';
    const params = stage ? { stage } : {};
    const queued = this.row<JobRow>(`SELECT * FROM jobs WHERE workspace = @ws AND status = 'queued'${ofStage} ORDER BY id LIMIT 1`, params);
    const expired = this.row<JobRow>(
      `SELECT * FROM jobs WHERE workspace = @ws AND status = 'leased'${ofStage} AND lease_expires_at < @clock ORDER BY id LIMIT 1`,
      { ...params, clock },
    );
    return queued && expired ? (queued.id < expired.id ? queued : expired) : (queued ?? expired);
  }

  /** The oldest claimable job of these subjects: looked up by the jobs' (stage, subject) key. */
  private oldestClaimableOf(clock: number, stages: readonly PipelineStage[], subjects: readonly string[]): JobRow | undefined {
    return this.row<JobRow>(
      `SELECT * FROM jobs WHERE workspace = @ws
         AND stage IN (SELECT value FROM json_each(@stages)) AND subject IN (SELECT value FROM json_each(@subjects))
         AND (status = 'queued' OR (status = 'leased' AND lease_expires_at < @clock))
       ORDER BY id LIMIT 1`,
      { stages: JSON.stringify(stages), subjects: JSON.stringify(subjects), clock },
    );
  }

  async renew(jobId: number, owner: string, leaseMs: number): Promise<boolean> {
    const result = this.run(
      `UPDATE jobs SET lease_expires_at = @expires, updated_at = @now
       WHERE workspace = @ws AND id = @jobId AND owner = @owner AND status = 'leased'`,
      { expires: Date.now() + leaseMs, now: now(), jobId, owner },
    );
    return result.changes === 1;
  }

  async complete(job: JobRecord, owner: string): Promise<void> {
    this.run(
      `UPDATE jobs SET
         status = CASE WHEN generation = @generation THEN 'done' ELSE 'queued' END,
         attempts = CASE WHEN generation = @generation THEN attempts ELSE 0 END,
         lost_leases = 0, owner = NULL, lease_expires_at = NULL, last_error = NULL, updated_at = @now
       WHERE workspace = @ws AND id = @jobId AND owner = @owner AND status = 'leased'`,
      { generation: job.generation, now: now(), jobId: job.id, owner },
    );
  }

  async fail(job: JobRecord, owner: string, error: string, options: FailOptions): Promise<JobFailure> {
    return this.db
      .transaction((): JobFailure => {
        const current = this.row<JobRow>('SELECT * FROM jobs WHERE workspace = @ws AND id = @jobId', { jobId: job.id });
        if (!current || current.owner !== owner || current.status !== 'leased') return { gaveUp: false, itemId: null };
        const rearmed = current.generation !== job.generation;
        const gaveUp = !rearmed && (options.permanent || current.attempts >= options.maxAttempts);
        this.run(
          `UPDATE jobs SET status = @status, owner = NULL, lease_expires_at = NULL, last_error = @error,
             attempts = CASE WHEN @rearmed THEN 0 ELSE attempts END,
             lost_leases = CASE WHEN @rearmed THEN 0 ELSE lost_leases END, updated_at = @now
           WHERE workspace = @ws AND id = @jobId`,
          { status: gaveUp ? 'failed' : 'queued', error, rearmed: rearmed ? 1 : 0, now: now(), jobId: job.id },
        );
        if (!gaveUp) return { gaveUp: false, itemId: null };
        // A first ingest that keeps failing has no item yet: it gets one, failed with the reason,
        // so the index report, `status` and `items` all say the same thing about the file.
        if (job.stage === 'ingest' && !this.liveItemAt(job.subject)) this.failIngest(job.subject, error);
        const itemId = job.stage === 'ingest' ? (this.liveItemAt(job.subject)?.id ?? null) : job.subject;
        if (itemId && options.failsItem !== false) {
          this.dropChunks(itemId);
          this.run(
            `UPDATE items SET status = 'failed', reason = @error, updated_at = @now
             WHERE workspace = @ws AND id = @itemId AND deleted_at IS NULL`,
            { error, now: now(), itemId },
          );
        }
        return { gaveUp: true, itemId };
      })
      .immediate();
  }

  async releaseLeases(isDeadOwner: (owner: string) => boolean): Promise<number> {
    return this.db
      .transaction(() => {
        const leased = this.rows<{ id: number; owner: string }>(
          `SELECT id, owner FROM jobs WHERE workspace = @ws AND status = 'leased'`,
        );
        let released = 0;
        for (const job of leased) {
          if (!isDeadOwner(job.owner)) continue;
          this.run(
            `UPDATE jobs SET status = 'queued', owner = NULL, lease_expires_at = NULL, attempts = MAX(attempts - 1, 0),
               lost_leases = lost_leases + 1, updated_at = @now
             WHERE workspace = @ws AND id = @id`,
            { now: now(), id: job.id },
          );
          released += 1;
        }
        return released;
      })
      .immediate();
  }

  async handBack(job: JobRecord, owner: string): Promise<boolean> {
    const result = this.run(
      `UPDATE jobs SET status = 'queued', owner = NULL, lease_expires_at = NULL, attempts = MAX(attempts - 1, 0), updated_at = @now
       WHERE workspace = @ws AND id = @id AND owner = @owner AND status = 'leased'`,
      { now: now(), id: job.id, owner },
    );
    return result.changes > 0;
  }

  async handBackLeases(owner: string): Promise<number> {
    return this.run(
      `UPDATE jobs SET status = 'queued', owner = NULL, lease_expires_at = NULL, attempts = MAX(attempts - 1, 0), updated_at = @now
       WHERE workspace = @ws AND owner = @owner AND status = 'leased'`,
      { now: now(), owner },
    ).changes;
  }

  async pendingJobs(subjects?: readonly string[]): Promise<number> {
    if (subjects) {
      return this.row<{ n: number }>(
        `SELECT COUNT(*) AS n FROM jobs WHERE workspace = @ws AND stage IN (SELECT value FROM json_each(@stages))
           AND subject IN (SELECT value FROM json_each(@subjects)) AND status IN ('queued', 'leased')`,
        { stages: JSON.stringify(EVERY_STAGE), subjects: JSON.stringify(subjects) },
      )!.n;
    }
    return this.row<{ n: number }>(
      `SELECT COUNT(*) AS n FROM jobs WHERE workspace = @ws AND status IN ('queued', 'leased')`,
    )!.n;
  }

  async jobCounts(): Promise<StageCounts[]> {
    return this.rows<{ stage: PipelineStage; status: JobStatus; count: number }>(
      'SELECT stage, status, COUNT(*) AS count FROM jobs WHERE workspace = @ws GROUP BY stage, status ORDER BY stage, status',
    );
  }

  async leases(): Promise<LeaseView[]> {
    const clock = Date.now();
    return this.rows<{ id: number; stage: PipelineStage; subject: string; owner: string; lease_expires_at: number }>(
      `SELECT id, stage, subject, owner, lease_expires_at FROM jobs WHERE workspace = @ws AND status = 'leased' ORDER BY id`,
    ).map((row) => ({
      jobId: row.id,
      stage: row.stage,
      subject: row.subject,
      owner: row.owner,
      expiresInMs: row.lease_expires_at - clock,
    }));
  }

  async listJobs(): Promise<JobRecord[]> {
    return this.rows<JobRow>('SELECT * FROM jobs WHERE workspace = @ws ORDER BY id').map(toJob);
  }

  // Metadata ------------------------------------------------------------------

  async getMeta(key: string): Promise<string | null> {
    return this.row<{ value: string }>('SELECT value FROM meta WHERE workspace = @ws AND key = @key', { key })?.value ?? null;
  }

  async setMeta(key: string, value: string): Promise<void> {
    this.run(
      `INSERT INTO meta (workspace, key, value) VALUES (@ws, @key, @value)
       ON CONFLICT (workspace, key) DO UPDATE SET value = excluded.value`,
      { key, value },
    );
  }

  // Export and import (exchange.ts) -------------------------------------------------------

  // exchange.ts is loaded when asked for: its record schemas (zod) are most of a command's start
  // for a command that never exports or imports.
  async *exportRecords(): AsyncIterable<ExchangeRecord> {
    const { exportSqliteRecords } = await import('./exchange.ts');
    yield* exportSqliteRecords(this.scoped);
  }

  async importRecords(records: AsyncIterable<ExchangeRecord>): Promise<ImportCounts> {
    const { importSqliteRecords } = await import('./exchange.ts');
    return importSqliteRecords(this.scoped, records);
  }

  // Relationships and discovery look-ups (relationshipTables.ts, discoveryQueries.ts) ------------

  async upsertRelationship(proposal: RelationshipProposal, review: ReviewRule): Promise<{ id: string; outcome: ProposalOutcome }> {
    return this.relationships.upsert(proposal, review, now());
  }

  async getRelationship(id: string): Promise<RelationshipRecord | null> {
    return this.relationships.get(id);
  }

  async relationshipBetween(itemA: string, itemB: string): Promise<RelationshipRecord | null> {
    return this.relationships.between(itemA, itemB);
  }

  async listRelationships(filter?: RelationshipFilter): Promise<RelationshipRecord[]> {
    return this.relationships.list(filter);
  }

  async relationshipGroups(query: ProposalQuery): Promise<RelationshipGroup[]> {
    return this.relationships.groups(query);
  }

  async relationshipsInViewOrder(query: ProposalQuery, members: UnitMembers, limit: number): Promise<RelationshipRecord[]> {
    return this.relationships.inViewOrder(query, members, limit);
  }

  async relationshipsTouching(
    itemIds: readonly string[],
    options: { minScore?: number; statuses?: readonly RelationshipStatus[] } = {},
  ): Promise<RelationshipRecord[]> {
    return this.relationships.touching(itemIds, options);
  }

  async decideRelationship(id: string, decision: (current: RelationshipRecord) => RelationshipDecision): Promise<RelationshipRecord> {
    return this.relationships.decide(id, decision, now());
  }

  async relationshipHistory(id: string): Promise<RelationshipEvent[]> {
    return this.relationships.history(id);
  }

  async restoreRelationship(carried: RelationshipRecord, history: readonly RelationshipEvent[], review: ReviewRule): Promise<'reattached' | 'recorded'> {
    return this.relationships.restore(carried, history, review, now());
  }

  async restoreAlias(alias: EntityAliasView): Promise<void> {
    this.aliases.restore(alias);
  }

  async proposeAliases(candidates: readonly AliasCandidate[]): Promise<number> {
    return this.aliases.propose(candidates, now());
  }

  async listAliases(status?: RelationshipStatus): Promise<EntityAliasView[]> {
    return this.aliases.list(status);
  }

  async decideAlias(id: string, decision: { status: 'confirmed' | 'rejected'; by: string; note: string | null }): Promise<EntityAliasView> {
    return this.aliases.decide(id, decision, now());
  }

  async confirmedAliases(keys: readonly string[]): Promise<Map<string, { key: string; surface: string }[]>> {
    return this.aliases.confirmed(keys);
  }

  async itemsNeedingDiscovery(basis: string): Promise<string[]> {
    return this.discovery.itemsNeedingDiscovery(basis);
  }

  async recordDiscovery(itemId: string, contentHash: string, basis: string): Promise<void> {
    this.discovery.recordDiscovery(itemId, contentHash, basis, now());
  }

  async resetDiscovery(itemIds: readonly string[] | null): Promise<void> {
    this.discovery.resetDiscovery(itemIds);
  }

  async itemsWithContentHash(contentHash: string, exceptItemId: string, limit: number): Promise<string[]> {
    return this.discovery.itemsWithContentHash(contentHash, exceptItemId, limit);
  }

  async entityItemCounts(keys: readonly string[], cap: number): Promise<Map<string, number>> {
    return this.discovery.entityItemCounts(keys, cap);
  }

  async phraseItemCounts(keys: readonly string[], cap: number): Promise<Map<string, number>> {
    return this.discovery.phraseItemCounts(keys, cap);
  }

  async itemsMentioning(entityKey: string, exceptItemId: string, limit: number): Promise<string[]> {
    return this.discovery.itemsMentioning(entityKey, exceptItemId, limit);
  }

  async itemsWithClaimsOn(kind: string, attribute: string, unit: string | null, exceptItemId: string, limit: number): Promise<string[]> {
    return this.discovery.itemsWithClaimsOn(kind, attribute, unit, exceptItemId, limit);
  }

  async metadataItemCounts(values: readonly MetadataValue[], cap: number): Promise<Map<string, number>> {
    return this.discovery.metadataItemCounts(values, cap);
  }

  async itemsWithMetadata(value: MetadataValue, exceptItemId: string, limit: number): Promise<string[]> {
    return this.discovery.itemsWithMetadata(value, exceptItemId, limit);
  }

  async entityMentionContexts(key: string, itemIds: readonly string[] | null, reach: number, limit: number): Promise<EntityMentionContext[]> {
    return this.discovery.entityMentionContexts(key, itemIds, reach, limit);
  }

  async discoveryFacts(itemIds: readonly string[], modelId: string | null, phraseLimit: number): Promise<Map<string, DiscoveryFacts>> {
    return this.discovery.facts(itemIds, modelId, phraseLimit);
  }

  async close(): Promise<void> {
    this.vectors.shared?.close();
    this.vectors.own.close();
    await this.checkpoints?.stop();
    this.db.close();
  }
}
