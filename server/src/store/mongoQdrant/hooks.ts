// The seams between the MongoDB + Qdrant store's domains. The facade (mongoQdrantStore.ts) owns
// items, parse results, chunks and extraction; the vector points, the job queue, relationships and
// aliases live in their own classes, which need a few answers about items and give the facade a
// few operations beyond the contract. Both directions are typed here, once, so each side codes
// against the other without importing it.
//
// For the domain classes' authors: you may add members here when you need another answer from
// the items; say in a comment why, and the facade implements it.

import type { ChunkRecord } from '../contract.ts';

// What the domain classes ask of the items (implemented by the facade) --------------------------

/** What the job queue does to an item when one of its jobs gives up (contract `fail`). */
export interface ItemStatusHooks {
  /**
   * The item stops serving anything: its chunks, vectors, lexical entries and extraction are
   * dropped and it is marked failed with the reason, if it is live. Idempotent, so the queue can
   * call it before recording the job failed: a crash between the two leaves a leased job whose
   * lease expires, is claimed again and gives up again.
   */
  failItem(itemId: string, reason: string): Promise<void>;
  /**
   * A first ingest that keeps failing: the live item at this path, created failed with the reason
   * when there is none, so `status` and `items` say the same as the index report. Returns its id.
   * (The queue then calls failItem on it when the stage fails items.)
   */
  failIngestPath(path: string, reason: string): Promise<string>;
}

/** Relationships are served only when both ends are live items. */
export interface LiveItems {
  /** Those of `ids` that are live (not tombstoned) items of this scope. */
  liveItemIds(ids: readonly string[]): Promise<Set<string>>;
}

/** What the vector side needs to know of items and chunks. */
export interface VectorItemHooks {
  /** The current content hash of a live item; null when there is no such item, it is tombstoned, or it holds no bytes. */
  currentHash(itemId: string): Promise<string | null>;
  /**
   * Chunk ids of live indexed items, by item, items in path order (the order itemsNeedingVectors
   * reports), chunk ids in ordinal order. Only these items when `itemIds` is given.
   */
  liveChunkIds(itemIds?: readonly string[]): Promise<Map<string, string[]>>;
  /** An item's chunks in ordinal order (for chunksWithoutVectors). */
  listChunks(itemId: string): Promise<ChunkRecord[]>;
  /** Which of these chunk ids are chunks of this item now (storeVectors refuses vectors of a chunk re-chunked away). */
  chunksOfItem(itemId: string, chunkIds: readonly string[]): Promise<Set<string>>;
}

/** What alias housekeeping needs of the extraction. */
export interface AliasEntityHooks {
  /** Those of `keys` that some entity of this scope still carries (after a forget, pending aliases of the others go). */
  mentionedKeys(keys: readonly string[]): Promise<Set<string>>;
}

// What the facade calls on the domain classes beyond the contract --------------------------------

/** Implemented by MongoVectorPoints. */
export interface VectorMaintenance {
  /**
   * Drop every vector of these items (every model): Qdrant points and their MongoDB records.
   * The facade calls it BEFORE deleting the items' chunks, so a crash between the two leaves
   * chunks without vectors (re-embedded by itemsNeedingVectors), never vectors of missing chunks.
   */
  dropItemVectors(itemIds: readonly string[]): Promise<void>;
  /** One model's window vectors of each item, ordered by chunk id then window (DiscoveryFacts.vectors). */
  vectorsOfItems(itemIds: readonly string[], modelId: string): Promise<Map<string, Float32Array[]>>;
}

/** Implemented by MongoRelationships. */
export interface RelationshipMaintenance {
  /**
   * `relata forget`: the relationships of these items and their events keep every record and
   * lose what they quote from the items (sqlite/relationshipTables.ts redactQuotesOf, with
   * discover/redact's rule). Idempotent: the facade calls it before marking the items forgotten.
   */
  redactItems(itemIds: readonly string[]): Promise<void>;
}

/** Implemented by MongoAliases. */
export interface AliasMaintenance {
  /** After a forget: pending aliases naming a key no remaining entity carries are deleted; decided ones stay. */
  dropUnmentioned(): Promise<void>;
}

/** Implemented by MongoJobQueue. */
export interface JobMaintenance {
  /** `relata forget`: delete the jobs of these subjects (item ids and paths) that are not leased now; a running job keeps its record. */
  dropJobsOf(subjects: readonly string[]): Promise<void>;
}

// Export and import (added by the vectors/queue/relationships side) -------------------------------

/**
 * How a domain class loads the exchange records of its kinds (exchange/records.ts) during
 * `importRecords`: the facade hands them over one by one in the stream's order; the class writes
 * them in batches, and `finish` writes what is left. Added because an import is one stream
 * dispatched by kind, so the class cannot take an iterable of its own kinds.
 */
export interface RecordImporter<R> {
  add(record: R): Promise<void>;
  finish(): Promise<void>;
}
