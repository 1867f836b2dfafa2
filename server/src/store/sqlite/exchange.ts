// Export and import (relata-export/1, exchange/records.ts) for the SQLite store: its rows as
// backend-neutral records, and those records as rows again. Every statement goes through the
// workspace-scoped helper like the rest of the store, so an export reads this workspace alone and
// an import writes into it alone.
//
// An export reads inside one read transaction: a WAL snapshot, so an indexer writing meanwhile
// cannot make it see half a change, and it pages through each table by rowid rather than holding
// the whole store in memory. An import is one write transaction: a failure leaves the store as
// empty as it was, so the import can simply be run again.

import { restsOnLinks } from '../../../../shared/linkedInDocuments.ts';
import type { EntityAliasView } from '../../../../shared/types.ts';
import {
  describeRecord,
  emptyCounts,
  EXCHANGE_KINDS,
  ImportTargetNotEmptyError,
  type ExchangeRecord,
  type ImportCounts,
} from '../exchange/records.ts';
import { decodeVector, encodeVector } from '../exchange/vectorText.ts';
import { aliasParams, INSERT_ALIAS, toView, type AliasRow } from './aliasTables.ts';
import { itemIndexTextSql } from './itemText.ts';
import { indexAllItemMetadata } from './metadataIndex.ts';
import { pairKey } from '../relationshipRules.ts';
import { toRecord, type RelationshipRow } from './relationshipTables.ts';
import { passageLanguagesColumn, toChunk, toClaim, toEntity, toEvent, toItem, type ChunkRow, type ClaimRow, type EntityRow, type EventRow, type ItemRow } from './rows.ts';
import type { ScopedSql } from './scopedSql.ts';
import { createVectorTableSql, vectorTableName } from './vectorTables.ts';
import { workspaceIndexNames } from './workspaceIndexes.ts';
import { insertClaim, insertEntity } from './extractionRows.ts';

/** Rows read per statement: small enough that a page of 50 MB documents stays bounded, large enough to be quick. */
const PAGE_ROWS = 500;
const DOCUMENT_PAGE_ROWS = 4;

/**
 * Rows of one statement in rowid order, a page at a time. `text` selects `rid` (the row's rowid)
 * and takes @after and @limit.
 */
function* paged<T extends { rid: number }>(sql: ScopedSql, text: string, pageRows = PAGE_ROWS): Generator<T> {
  let after = 0;
  for (;;) {
    const rows = sql.rows<T>(text, { after, limit: pageRows });
    yield* rows;
    if (rows.length < pageRows) return;
    after = rows[rows.length - 1]!.rid;
  }
}

const page = (table: string): string => `FROM ${table} WHERE workspace = @ws AND rowid > @after ORDER BY rowid LIMIT @limit`;

/** Every record of the workspace, kind by kind in EXCHANGE_KINDS order, each kind in insertion order. */
export async function* exportSqliteRecords(sql: ScopedSql): AsyncGenerator<ExchangeRecord> {
  const { db } = sql;
  // A transaction control statement, not a statement about any workspace's rows.
  const snapshot = !db.inTransaction;
  if (snapshot) db.exec('BEGIN');
  try {
    for (const row of paged<{ rid: number; key: string; value: string }>(sql, `SELECT rowid AS rid, key, value ${page('meta')}`)) {
      yield { record: 'meta', key: row.key, value: row.value };
    }
    for (const row of paged<{ rid: number; id: string; dims: number; version: string; max_tokens: number; first_used_at: string }>(
      sql,
      `SELECT rowid AS rid, id, dims, version, max_tokens, first_used_at ${page('embedding_models')}`,
    )) {
      yield { record: 'embedding_model', id: row.id, dims: row.dims, version: row.version, maxTokens: row.max_tokens, firstUsedAt: row.first_used_at };
    }
    for (const row of paged<ItemRow & { rid: number }>(sql, `SELECT seq AS rid, * ${page('items')}`)) {
      yield { record: 'item', ...toItem(row) };
    }
    for (const row of paged<{ rid: number; item_id: string; version: number; content_hash: string; size: number; created_at: string }>(
      sql,
      `SELECT rowid AS rid, item_id, version, content_hash, size, created_at ${page('item_versions')}`,
    )) {
      yield { record: 'item_version', itemId: row.item_id, version: row.version, contentHash: row.content_hash, size: row.size, createdAt: row.created_at };
    }
    for (const row of paged<{ rid: number; item_id: string; content_hash: string; parser_version: string; document: string }>(
      sql,
      `SELECT rowid AS rid, item_id, content_hash, parser_version, document ${page('item_texts')}`,
      DOCUMENT_PAGE_ROWS,
    )) {
      // As stored (storedDocument in itemText.ts): the blocks without the text joined from them.
      yield { record: 'parsed_text', itemId: row.item_id, contentHash: row.content_hash, parserVersion: row.parser_version, document: JSON.parse(row.document) };
    }
    for (const row of paged<ChunkRow & { rid: number }>(sql, `SELECT seq AS rid, * ${page('chunks')}`)) {
      yield { record: 'chunk', ...toChunk(row) };
    }
    yield* exportVectors(sql);
    for (const row of paged<EntityRow & { rid: number }>(sql, `SELECT rowid AS rid, * ${page('entities')}`)) {
      yield { record: 'entity', ...toEntity(row) };
    }
    for (const row of paged<ClaimRow & { rid: number }>(sql, `SELECT rowid AS rid, * ${page('claims')}`)) {
      yield { record: 'claim', ...toClaim(row) };
    }
    for (const row of paged<{ rid: number; item_id: string; key: string; phrase: string; count: number }>(
      sql,
      `SELECT rowid AS rid, item_id, key, phrase, count ${page('item_phrases')}`,
    )) {
      yield { record: 'phrase', itemId: row.item_id, key: row.key, phrase: row.phrase, count: row.count };
    }
    for (const row of paged<{ rid: number; item_id: string; content_hash: string; versions: string; language: string | null; passage_languages: string | null }>(
      sql,
      `SELECT rowid AS rid, item_id, content_hash, versions, language, passage_languages ${page('item_extractions')}`,
    )) {
      yield {
        record: 'extraction',
        itemId: row.item_id,
        contentHash: row.content_hash,
        versions: row.versions,
        ...(row.language === null ? {} : { language: row.language }),
        ...(row.passage_languages === null ? {} : { passageLanguages: JSON.parse(row.passage_languages) as Record<string, string> }),
      };
    }
    for (const row of paged<{ rid: number; item_id: string; content_hash: string; basis: string; discovered_at: string }>(
      sql,
      `SELECT rowid AS rid, item_id, content_hash, basis, discovered_at ${page('item_discoveries')}`,
    )) {
      yield { record: 'discovery', itemId: row.item_id, contentHash: row.content_hash, basis: row.basis, discoveredAt: row.discovered_at };
    }
    for (const row of paged<RelationshipRow & { rid: number }>(sql, `SELECT rowid AS rid, * ${page('relationships')}`)) {
      yield { record: 'relationship', ...toRecord(row) };
    }
    for (const row of paged<EventRow & { rid: number; relationship_id: string }>(sql, `SELECT rowid AS rid, * ${page('relationship_events')}`)) {
      yield { record: 'relationship_event', relationshipId: row.relationship_id, ...toEvent(row) };
    }
    for (const row of paged<AliasRow & { rid: number }>(sql, `SELECT rowid AS rid, * ${page('entity_aliases')}`)) {
      yield { record: 'alias', ...toView(row) };
    }
  } finally {
    if (snapshot && db.inTransaction) db.exec('COMMIT');
  }
}

/** Vector rows in seq order, each page's vectors read from its dimension's sqlite-vec table by rowid. */
function* exportVectors(sql: ScopedSql): Generator<ExchangeRecord> {
  type VectorRow = { rid: number; item_id: string; chunk_id: string; window: number; char_start: number; char_end: number; model_id: string; dims: number; created_at: string };
  let after = 0;
  for (;;) {
    const rows = sql.rows<VectorRow>(
      `SELECT seq AS rid, item_id, chunk_id, window, char_start, char_end, model_id, dims, created_at ${page('vectors')}`,
      { after, limit: PAGE_ROWS },
    );
    const embeddings = new Map<number, Buffer>();
    for (const dims of new Set(rows.map((row) => row.dims))) {
      // Driven by the `vectors` rows (CROSS JOIN): sqlite-vec answers a rowid look-up at once.
      for (const found of sql.rows<{ seq: number; embedding: Buffer }>(
        `SELECT v.seq, e.embedding FROM vectors v CROSS JOIN ${vectorTableName(dims)} e ON e.rowid = v.seq
         WHERE v.workspace = @ws AND v.seq IN (SELECT value FROM json_each(@seqs))`,
        { seqs: JSON.stringify(rows.filter((row) => row.dims === dims).map((row) => row.rid)) },
      )) {
        embeddings.set(found.seq, found.embedding);
      }
    }
    for (const row of rows) {
      const bytes = embeddings.get(row.rid);
      if (!bytes) throw new Error(`${sql.db.name}: vector ${row.rid} of chunk ${row.chunk_id} has no row in ${vectorTableName(row.dims)}`);
      const vector = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      yield {
        record: 'vector',
        itemId: row.item_id,
        chunkId: row.chunk_id,
        window: row.window,
        start: row.char_start,
        end: row.char_end,
        modelId: row.model_id,
        vector: encodeVector(vector),
        createdAt: row.created_at,
      };
    }
    if (rows.length < PAGE_ROWS) return;
    after = rows[rows.length - 1]!.rid;
  }
}

// Import ---------------------------------------------------------------------------------------

/** What an import into a non-empty store would mix with, first found first: checked before anything is written. */
const HOLDINGS: readonly { table: string; what: string }[] = [
  { table: 'items', what: 'items' },
  { table: 'meta', what: 'metadata entries' },
  { table: 'embedding_models', what: 'embedding models' },
  { table: 'relationships', what: 'relationships' },
  { table: 'relationship_events', what: 'relationship history entries' },
  { table: 'entity_aliases', what: 'entity aliases' },
  { table: 'jobs', what: 'queued jobs' },
];

function requireEmpty(sql: ScopedSql): void {
  for (const { table, what } of HOLDINGS) {
    const { n } = sql.row<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE workspace = @ws`)!;
    if (n > 0) throw new ImportTargetNotEmptyError(sql.workspace, sql.db.name, `${what} (${n})`);
  }
}

/** Loads records into a store holding nothing for the workspace, in one transaction (see the top of the file). */
export async function importSqliteRecords(sql: ScopedSql, records: AsyncIterable<ExchangeRecord>): Promise<ImportCounts> {
  const { db } = sql;
  if (db.inTransaction) throw new Error('import cannot run inside another transaction of the store');
  // Held across awaits while records are read: the write lock is taken once, for the whole import.
  db.exec('BEGIN IMMEDIATE');
  try {
    requireEmpty(sql);
    const loader = new RecordLoader(sql);
    for await (const record of records) loader.load(record);
    loader.finish();
    db.exec('COMMIT');
    return loader.counts;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

class RecordLoader {
  readonly counts = emptyCounts();
  private kindIndex = 0;
  private readonly dimsOf = new Map<string, number>();
  private readonly fts;

  constructor(private readonly sql: ScopedSql) {
    this.fts = workspaceIndexNames(sql.workspace);
  }

  load(record: ExchangeRecord): void {
    const index = EXCHANGE_KINDS.indexOf(record.record);
    if (index < 0) throw new Error(`unknown record kind ${JSON.stringify(record.record)}`);
    if (index < this.kindIndex) {
      throw new Error(`a ${record.record} record came after ${EXCHANGE_KINDS[this.kindIndex]} records: records must come in the format's kind order`);
    }
    this.kindIndex = index;
    try {
      this.insert(record);
    } catch (error) {
      throw new Error(`${describeRecord(record)} could not be loaded: ${(error as Error).message}`, { cause: error });
    }
    this.counts[record.record] += 1;
  }

  private insert(record: ExchangeRecord): void {
    const { sql } = this;
    switch (record.record) {
      case 'meta':
        sql.run('INSERT INTO meta (workspace, key, value) VALUES (@ws, @key, @value)', { key: record.key, value: record.value });
        return;
      case 'embedding_model':
        sql.db.exec(createVectorTableSql(record.dims));
        sql.run(
          `INSERT INTO embedding_models (workspace, id, dims, version, max_tokens, first_used_at)
           VALUES (@ws, @id, @dims, @version, @maxTokens, @firstUsedAt)`,
          { id: record.id, dims: record.dims, version: record.version, maxTokens: record.maxTokens, firstUsedAt: record.firstUsedAt },
        );
        this.dimsOf.set(record.id, record.dims);
        return;
      case 'item':
        sql.run(
          `INSERT INTO items (id, workspace, path, title, status, reason, duplicate_of, content_hash, size, version, parser_version,
             flags, created_at, updated_at, deleted_at, forgotten_at)
           VALUES (@id, @ws, @path, @title, @status, @reason, @duplicateOf, @contentHash, @size, @version, @parserVersion,
             @flags, @createdAt, @updatedAt, @deletedAt, @forgottenAt)`,
          {
            id: record.id,
            path: record.path,
            title: record.title,
            status: record.status,
            reason: record.reason,
            duplicateOf: record.duplicateOf,
            contentHash: record.contentHash,
            size: record.size,
            version: record.version,
            parserVersion: record.parserVersion,
            flags: JSON.stringify(record.flags),
            createdAt: record.createdAt,
            updatedAt: record.updatedAt,
            deletedAt: record.deletedAt,
            forgottenAt: record.forgottenAt,
          },
        );
        return;
      case 'item_version':
        sql.run(
          `INSERT INTO item_versions (workspace, item_id, version, content_hash, size, created_at)
           VALUES (@ws, @itemId, @version, @contentHash, @size, @createdAt)`,
          { itemId: record.itemId, version: record.version, contentHash: record.contentHash, size: record.size, createdAt: record.createdAt },
        );
        return;
      case 'parsed_text':
        sql.run(
          `INSERT INTO item_texts (item_id, workspace, content_hash, parser_version, document)
           VALUES (@itemId, @ws, @contentHash, @parserVersion, @document)`,
          { itemId: record.itemId, contentHash: record.contentHash, parserVersion: record.parserVersion, document: JSON.stringify(record.document) },
        );
        return;
      case 'chunk': {
        const inserted = sql.run(
          `INSERT INTO chunks (id, workspace, item_id, ordinal, text, heading_path, location, word_count)
           VALUES (@id, @ws, @itemId, @ordinal, @text, @headingPath, @location, @wordCount)`,
          {
            id: record.id,
            itemId: record.itemId,
            ordinal: record.ordinal,
            text: record.text,
            headingPath: JSON.stringify(record.headingPath),
            location: JSON.stringify(record.location),
            wordCount: record.wordCount,
          },
        );
        sql.run(`INSERT INTO ${this.fts.chunks} (rowid, text) VALUES (@seq, @text)`, { seq: inserted.lastInsertRowid, text: record.text });
        return;
      }
      case 'vector': {
        const dims = this.dimsOf.get(record.modelId);
        if (dims === undefined) throw new Error(`its model ${record.modelId} is not among the embedding_model records`);
        const vector = decodeVector(record.vector);
        if (vector.length !== dims) throw new Error(`it has ${vector.length} dimensions, model ${record.modelId} has ${dims}`);
        const inserted = sql.run(
          `INSERT INTO vectors (workspace, item_id, chunk_id, window, char_start, char_end, model_id, dims, created_at)
           VALUES (@ws, @itemId, @chunkId, @window, @start, @end, @modelId, @dims, @createdAt)`,
          {
            itemId: record.itemId,
            chunkId: record.chunkId,
            window: record.window,
            start: record.start,
            end: record.end,
            modelId: record.modelId,
            dims,
            createdAt: record.createdAt,
          },
        );
        sql.run(`INSERT INTO ${vectorTableName(dims)} (rowid, workspace, model_id, embedding) VALUES (@seq, @ws, @modelId, @embedding)`, {
          seq: BigInt(inserted.lastInsertRowid),
          modelId: record.modelId,
          embedding: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
        });
        return;
      }
      case 'entity':
        insertEntity(sql, record.itemId, record);
        return;
      case 'claim':
        insertClaim(sql, record.itemId, record);
        return;
      case 'phrase':
        sql.run('INSERT INTO item_phrases (workspace, item_id, key, phrase, count) VALUES (@ws, @itemId, @key, @phrase, @count)', {
          itemId: record.itemId,
          key: record.key,
          phrase: record.phrase,
          count: record.count,
        });
        return;
      case 'extraction':
        // The cap's words are not kept here: the item's extraction_capped flag says a cap applied.
        sql.run(
          `INSERT INTO item_extractions (workspace, item_id, content_hash, versions, language, passage_languages)
           VALUES (@ws, @itemId, @contentHash, @versions, @language, @passageLanguages)`,
          {
            itemId: record.itemId,
            contentHash: record.contentHash,
            versions: record.versions,
            language: record.language ?? null,
            passageLanguages: passageLanguagesColumn(record.passageLanguages),
          },
        );
        return;
      case 'discovery':
        sql.run(
          `INSERT INTO item_discoveries (workspace, item_id, content_hash, basis, discovered_at)
           VALUES (@ws, @itemId, @contentHash, @basis, @discoveredAt)`,
          { itemId: record.itemId, contentHash: record.contentHash, basis: record.basis, discoveredAt: record.discoveredAt },
        );
        return;
      case 'relationship':
        sql.run(
          `INSERT INTO relationships (workspace, id, pair_key, from_item, to_item, type, score, proposed_score, score_version,
             status, near_duplicate, signals, linked, produced_by, created_at, updated_at, decided_by, decided_at, note, decision_basis,
             changed_since_decision)
           VALUES (@ws, @id, @key, @from, @to, @type, @score, @proposedScore, @version, @status, @nearDuplicate, @signals,
             @linked, @producedBy, @createdAt, @updatedAt, @decidedBy, @decidedAt, @note, @basis, @changed)`,
          {
            id: record.id,
            key: pairKey(record.fromItemId, record.toItemId),
            from: record.fromItemId,
            to: record.toItemId,
            type: record.type,
            score: record.score,
            proposedScore: record.proposedScore,
            version: record.scoreVersion,
            status: record.status,
            nearDuplicate: record.nearDuplicate ? 1 : 0,
            signals: JSON.stringify(record.signals),
            linked: restsOnLinks(record.signals) ? 1 : 0,
            producedBy: record.producedBy,
            createdAt: record.createdAt,
            updatedAt: record.updatedAt,
            decidedBy: record.decidedBy,
            decidedAt: record.decidedAt,
            note: record.note,
            basis: record.decisionBasis === null ? null : JSON.stringify(record.decisionBasis),
            changed: record.changedSinceDecision === null ? null : JSON.stringify(record.changedSinceDecision),
          },
        );
        return;
      case 'relationship_event':
        sql.run(
          `INSERT INTO relationship_events (workspace, relationship_id, at, kind, actor, type, score, score_version, signals, note)
           VALUES (@ws, @id, @at, @kind, @actor, @type, @score, @version, @signals, @note)`,
          {
            id: record.relationshipId,
            at: record.at,
            kind: record.kind,
            actor: record.actor,
            type: record.type,
            score: record.score,
            version: record.scoreVersion,
            signals: JSON.stringify(record.signals),
            note: record.note,
          },
        );
        return;
      case 'alias':
        insertAlias(sql, record);
        return;
    }
  }

  /**
   * The metadata index and the item-level lexical and title indexes, built once every item, text and chunk is in: the stores keep an
   * item's row exactly while it has passages or is indexed (replaceChunks writes them, dropChunks
   * removes them), from its title and the text its index receives (itemIndexTextSql).
   */
  finish(): void {
    indexAllItemMetadata(this.sql);
    this.sql.run(
      `INSERT INTO ${this.fts.items} (rowid, title, text)
       SELECT items.seq, COALESCE(items.title, ''),
         COALESCE((SELECT ${itemIndexTextSql('texts')} FROM item_texts AS texts WHERE texts.workspace = @ws AND texts.item_id = items.id), '')
       FROM items
       WHERE items.workspace = @ws AND items.deleted_at IS NULL
         AND (items.status = 'indexed' OR EXISTS (SELECT 1 FROM chunks c WHERE c.workspace = @ws AND c.item_id = items.id))
       ORDER BY items.seq`,
    );
    this.sql.run(
      `INSERT INTO ${this.fts.titles} (rowid, title)
       SELECT items.seq, items.title FROM items
       WHERE items.workspace = @ws AND items.deleted_at IS NULL AND items.title IS NOT NULL
         AND (items.status = 'indexed' OR EXISTS (SELECT 1 FROM chunks c WHERE c.workspace = @ws AND c.item_id = items.id))
       ORDER BY items.seq`,
    );
  }
}

function insertAlias(sql: ScopedSql, alias: EntityAliasView): void {
  sql.run(INSERT_ALIAS, aliasParams(alias, alias.id, alias.a, alias.b));
}


