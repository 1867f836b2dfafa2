// The index look-ups relationship discovery is allowed: each one is bounded by an index and a
// limit, so discovering one item costs the same in a workspace of a thousand items or of twenty
// thousand. Also the bookkeeping of which items discovery has seen, under which basis.

import type { PhraseCount } from '../../records/extraction.ts';
import { metadataValueKey, type MetadataEntry, type MetadataValue } from '../../records/document.ts';
import type { DiscoveryFacts, EntityMentionContext } from '../contract.ts';
import { toClaim, toEntity, type ClaimRow, type EntityRow } from './rows.ts';
import type { ScopedSql } from './scopedSql.ts';

const LIVE = `items.workspace = @ws AND items.deleted_at IS NULL AND items.status IN ('indexed', 'duplicate')`;

export class DiscoveryQueries {
  constructor(private readonly sql: ScopedSql) {}

  itemsNeedingDiscovery(basis: string): string[] {
    return this.sql
      .rows<{ id: string }>(
        `SELECT items.id FROM items
         WHERE ${LIVE} AND items.content_hash IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM item_discoveries d WHERE d.workspace = @ws AND d.item_id = items.id
                             AND d.content_hash = items.content_hash AND d.basis = @basis)
         ORDER BY items.path`,
        { basis },
      )
      .map((row) => row.id);
  }

  recordDiscovery(itemId: string, contentHash: string, basis: string, now: string): void {
    this.sql.run(
      `INSERT INTO item_discoveries (workspace, item_id, content_hash, basis, discovered_at) VALUES (@ws, @itemId, @hash, @basis, @now)
       ON CONFLICT (workspace, item_id) DO UPDATE SET content_hash = @hash, basis = @basis, discovered_at = @now`,
      { itemId, hash: contentHash, basis, now },
    );
  }

  /** Forget what discovery saw, so the next run (`relata reprocess`) recomputes these items, or all when null. */
  resetDiscovery(itemIds: readonly string[] | null): void {
    if (itemIds === null) this.sql.run('DELETE FROM item_discoveries WHERE workspace = @ws');
    else this.sql.run('DELETE FROM item_discoveries WHERE workspace = @ws AND item_id IN (SELECT value FROM json_each(@ids))', { ids: JSON.stringify(itemIds) });
  }

  itemsWithContentHash(contentHash: string, exceptItemId: string, limit: number): string[] {
    return this.sql
      .rows<{ id: string }>(
        `SELECT items.id FROM items WHERE ${LIVE} AND items.content_hash = @hash AND items.id <> @except
         ORDER BY items.seq LIMIT @limit`,
        { hash: contentHash, except: exceptItemId, limit },
      )
      .map((row) => row.id);
  }

  /**
   * How many live items mention each key (the entity's corpus frequency), counting no further than `cap`.
   * Read from the key index alone: a deleted item has no entities (a tombstone drops its extraction
   * in the same transaction), so joining `items` to skip deleted ones would add a row look-up per
   * mention, up to `cap` per key, and make the count's cost follow the workspace's size.
   */
  entityItemCounts(keys: readonly string[], cap: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const key of new Set(keys)) {
      const row = this.sql.row<{ n: number }>(
        `SELECT COUNT(*) AS n FROM (
           SELECT DISTINCT e.item_id FROM entities e WHERE e.workspace = @ws AND e.key = @key LIMIT @cap)`,
        { key, cap },
      );
      if (row!.n > 0) counts.set(key, row!.n);
    }
    return counts;
  }

  /** How many items have each phrase among their key phrases, counting no further than `cap`. */
  phraseItemCounts(keys: readonly string[], cap: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const key of new Set(keys)) {
      const row = this.sql.row<{ n: number }>(
        'SELECT COUNT(*) AS n FROM (SELECT 1 FROM item_phrases WHERE workspace = @ws AND key = @key LIMIT @cap)',
        { key, cap },
      );
      counts.set(key, row!.n);
    }
    return counts;
  }

  itemsMentioning(key: string, exceptItemId: string, limit: number): string[] {
    return this.otherItemsWith('entities', 'f.key = @key', { key }, exceptItemId, limit);
  }

  /** Items with a claim of the same kind, attribute and unit: the only claims a comparison can match. */
  itemsWithClaimsOn(kind: string, attribute: string, unit: string | null, exceptItemId: string, limit: number): string[] {
    return this.otherItemsWith('claims', 'f.kind = @kind AND f.attribute = @attribute AND f.unit IS @unit', { kind, attribute, unit }, exceptItemId, limit);
  }

  /** How many items give themselves each metadata value, counting no further than `cap`: from the value index alone, as entities (metadataIndex.ts). */
  metadataItemCounts(values: readonly MetadataValue[], cap: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const value of values) {
      const row = this.sql.row<{ n: number }>(
        `SELECT COUNT(*) AS n FROM (
           SELECT DISTINCT item_id FROM item_metadata WHERE workspace = @ws AND key = @key AND value = @value LIMIT @cap)`,
        { key: value.key, value: value.value, cap },
      );
      if (row!.n > 0) counts.set(metadataValueKey(value), row!.n);
    }
    return counts;
  }

  itemsWithMetadata(value: MetadataValue, exceptItemId: string, limit: number): string[] {
    return this.otherItemsWith('item_metadata', 'f.key = @key AND f.value = @value', { key: value.key, value: value.value }, exceptItemId, limit);
  }

  /** Items not deleted, other than `exceptItemId`, with a row of a facts table (named `f` in `where`) that matches: the candidates of one kind of evidence. */
  private otherItemsWith(
    table: 'entities' | 'claims' | 'item_metadata',
    where: string,
    params: Record<string, unknown>,
    exceptItemId: string,
    limit: number,
  ): string[] {
    return this.sql
      .rows<{ item_id: string }>(
        `SELECT DISTINCT f.item_id FROM ${table} f
         JOIN items ON items.id = f.item_id AND items.workspace = @ws AND items.deleted_at IS NULL
         WHERE f.workspace = @ws AND ${where} AND f.item_id <> @except
         LIMIT @limit`,
        { ...params, except: exceptItemId, limit },
      )
      .map((row) => row.item_id);
  }

  /**
   * Mentions of a key with up to `reach` characters of their passage either side, from the key
   * index: the first `limit` mentions (in `itemIds` only, when given), each joined to its passage by id.
   * Offsets are the extractor's (UTF-16 units) and substr counts characters: text with characters
   * outside the Basic Multilingual Plane before a mention gives a window shifted by as many.
   */
  entityMentionContexts(key: string, itemIds: readonly string[] | null, reach: number, limit: number): EntityMentionContext[] {
    const only = itemIds === null ? '' : 'AND item_id IN (SELECT value FROM json_each(@ids))';
    return this.sql.rows<EntityMentionContext>(
      `SELECT e.item_id AS itemId,
              substr(c.text, max(1, e.char_start + 1 - @reach), min(e.char_start, @reach)) AS before,
              substr(c.text, e.char_end + 1, @reach) AS after
       FROM (SELECT item_id, chunk_id, char_start, char_end FROM entities
             WHERE workspace = @ws AND key = @key ${only} ORDER BY item_id LIMIT @limit) e
       JOIN chunks c ON c.workspace = @ws AND c.id = e.chunk_id
       ORDER BY e.item_id, c.ordinal, e.char_start`,
      { key, ids: JSON.stringify(itemIds ?? []), reach, limit },
    );
  }

  /**
   * Everything discovery weighs for a batch of items, a few queries for the whole batch rather
   * than several per item: entities in document order, claims, the most frequent key phrases
   * the vectors of one model and the item's metadata.
   */
  facts(itemIds: readonly string[], modelId: string | null, phraseLimit: number): Map<string, DiscoveryFacts> {
    const ids = JSON.stringify(itemIds);
    const facts = new Map<string, DiscoveryFacts>(itemIds.map((id) => [id, { entities: [], claims: [], phrases: [], vectors: [], metadata: [] }]));
    for (const row of this.sql.rows<EntityRow>(
      `SELECT e.* FROM entities e JOIN chunks c ON c.workspace = @ws AND c.id = e.chunk_id
       WHERE e.workspace = @ws AND e.item_id IN (SELECT value FROM json_each(@ids))
       ORDER BY e.item_id, c.ordinal, e.char_start`,
      { ids },
    )) {
      facts.get(row.item_id)?.entities.push(toEntity(row));
    }
    for (const row of this.sql.rows<ClaimRow>(
      'SELECT * FROM claims WHERE workspace = @ws AND item_id IN (SELECT value FROM json_each(@ids)) ORDER BY item_id, chunk_id, char_start',
      { ids },
    )) {
      facts.get(row.item_id)?.claims.push(toClaim(row));
    }
    // No phrases asked for (discovery remembers the ones it compares: discover/phraseMemory.ts): none read.
    const phraseRows = phraseLimit <= 0 ? [] : this.sql.rows<{ item_id: string; key: string; phrase: string; count: number }>(
      `SELECT item_id, key, phrase, count FROM (
         SELECT item_id, key, phrase, count,
                ROW_NUMBER() OVER (PARTITION BY item_id ORDER BY count DESC, key) AS rank
         FROM item_phrases WHERE workspace = @ws AND item_id IN (SELECT value FROM json_each(@ids)))
       WHERE rank <= @limit ORDER BY item_id, rank`,
      { ids, limit: phraseLimit },
    );
    for (const row of phraseRows) {
      facts.get(row.item_id)?.phrases.push({ key: row.key, phrase: row.phrase, count: row.count } satisfies PhraseCount);
    }
    for (const { item_id: itemId, ...entry } of this.sql.rows<MetadataEntry & { item_id: string }>(
      `SELECT item_id, key, value, label, text FROM item_metadata
       WHERE workspace = @ws AND item_id IN (SELECT value FROM json_each(@ids)) ORDER BY item_id, ordinal`,
      { ids },
    )) {
      facts.get(itemId)?.metadata.push(entry);
    }
    if (modelId) for (const [id, vectors] of this.vectorsOf(itemIds, modelId)) facts.get(id)!.vectors = vectors;
    return facts;
  }

  private vectorsOf(itemIds: readonly string[], modelId: string): Map<string, Float32Array[]> {
    const byItem = new Map<string, Float32Array[]>();
    const dims = this.sql.row<{ dims: number }>('SELECT dims FROM embedding_models WHERE workspace = @ws AND id = @modelId', { modelId })?.dims;
    if (dims === undefined) return byItem;
    // Driven by the `vectors` rows and joined by rowid: sqlite-vec answers a rowid look-up at once,
    // but filters such as `rowid IN (…)` with the partition key by scanning the workspace's vectors.
    for (const row of this.sql.rows<{ item_id: string; embedding: Buffer }>(
      `SELECT v.item_id, e.embedding FROM vectors v CROSS JOIN vec_f32_${dims} e ON e.rowid = v.seq
       WHERE v.workspace = @ws AND v.model_id = @modelId AND v.item_id IN (SELECT value FROM json_each(@ids))
       ORDER BY v.item_id, v.chunk_id, v.window`,
      { ids: JSON.stringify(itemIds), modelId },
    )) {
      const bytes = row.embedding;
      const list = byItem.get(row.item_id) ?? [];
      list.push(new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
      byItem.set(row.item_id, list);
    }
    return byItem;
  }
}
