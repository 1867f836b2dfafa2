// The SQL behind search's own paths (title substring, entity keys, the facts a result shows,
// similarities of items outside the vector path's top hits). Kept apart from sqliteStore.ts so the
// store's core stays about storing; every statement still goes through the store's reader, which
// refuses SQL not bound to the workspace (`@ws`).

import type { EntityType, Producer } from '../../records/extraction.ts';
import type { ChunkRecord, EntityMention, PassageRef, SearchItemInfo, StoredClaim, VectorHit } from '../contract.ts';
import { toChunk, toClaim, type ChunkRow, type ClaimRow } from './rows.ts';
import type { ScopedSql } from './scopedSql.ts';

/** The store's workspace-bound statement runner (it adds `@ws` to every call and refuses SQL without it). */
export type ScopedReader = Pick<ScopedSql, 'rows'>;

const LIVE_ITEM = `items.workspace = @ws AND items.status = 'indexed' AND items.deleted_at IS NULL`;

// Look-ups by a list of ids write the workspace test as `+column = @ws`: the unary plus keeps
// SQLite (which has no statistics here) from choosing an index that starts with the workspace,
// which would read every row of the workspace instead of the few asked for (at 100k passages,
// fetching ten passages took 180 ms that way, under 1 ms by id).
const LIVE_ITEM_BY_ID = `+items.workspace = @ws AND items.status = 'indexed' AND items.deleted_at IS NULL`;

/** The title index (trigrams) finds nothing for fewer characters than a trigram. */
const TRIGRAM = 3;

/**
 * The items whose title contains `text`, shortest title first. lower() folds ASCII only, on both
 * sides, so the comparison stays consistent. The workspace's title index narrows the titles to
 * those holding the text's trigrams, case folded (in every script, so a superset of what lower()
 * matches); the same test then keeps exactly what a scan of every title would.
 */
export function titleMatches(db: ScopedReader, titleIndex: string, text: string, limit: number): string[] {
  const contains = `items.title IS NOT NULL AND instr(lower(items.title), lower(@text)) > 0`;
  const rows =
    [...text].length < TRIGRAM
      ? db.rows<{ id: string }>(`SELECT items.id FROM items WHERE ${LIVE_ITEM} AND ${contains} ORDER BY length(items.title), items.path LIMIT @limit`, { text, limit })
      : db.rows<{ id: string }>(
          // CROSS JOIN: the index's candidates first, then their rows by seq.
          `SELECT items.id FROM ${titleIndex} CROSS JOIN items ON items.seq = ${titleIndex}.rowid
           WHERE ${titleIndex} MATCH @phrase AND ${LIVE_ITEM} AND ${contains}
           ORDER BY length(items.title), items.path LIMIT @limit`,
          { text, limit, phrase: `"${text.replaceAll('"', '""')}"` },
        );
  return rows.map((row) => row.id);
}

interface MentionRow {
  item_id: string;
  chunk_id: string;
  key: string;
  type: EntityType;
  surface: string;
  producer: Producer;
}

const MENTION_COLUMNS = `SELECT entities.item_id, entities.chunk_id, entities.key, entities.type, entities.surface, entities.producer
  FROM entities JOIN items ON items.id = entities.item_id AND ${LIVE_ITEM}`;

/** The key range holding every key that starts with `prefix` (byte order, as SQLite compares text). */
function prefixRange(prefix: string): { low: string; high: string } {
  const last = prefix.length - 1;
  return { low: prefix, high: prefix.slice(0, last) + String.fromCharCode(prefix.charCodeAt(last) + 1) };
}

export function entityMentions(db: ScopedReader, keys: readonly string[]): EntityMention[] {
  if (keys.length === 0) return [];
  const rows = db.rows<MentionRow>(`${MENTION_COLUMNS} WHERE entities.workspace = @ws AND entities.key IN (SELECT value FROM json_each(@keys))`, {
    keys: JSON.stringify(keys),
  });
  return rows.map((row) => ({ itemId: row.item_id, chunkId: row.chunk_id, key: row.key, type: row.type, surface: row.surface, producer: row.producer }));
}

/** Read from the key index alone (entities_key): a name in thousands of passages is one key here. */
export function entityKeysStartingWith(db: ScopedReader, prefixes: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const prefix of prefixes) {
    if (prefix.length === 0) continue;
    const rows = db.rows<{ key: string }>('SELECT DISTINCT key FROM entities WHERE workspace = @ws AND key >= @low AND key < @high', prefixRange(prefix));
    for (const row of rows) keys.add(row.key);
  }
  return [...keys];
}

export function searchItemInfo(db: ScopedReader, itemIds: readonly string[]): SearchItemInfo[] {
  if (itemIds.length === 0) return [];
  return db
    .rows<{ id: string; path: string; title: string | null; seen_at: string }>(
      `SELECT items.id, items.path, items.title,
         COALESCE((SELECT created_at FROM item_versions WHERE item_versions.workspace = @ws
                     AND item_versions.item_id = items.id AND item_versions.version = items.version), items.created_at) AS seen_at
       FROM items WHERE ${LIVE_ITEM_BY_ID} AND items.id IN (SELECT value FROM json_each(@ids))`,
      { ids: JSON.stringify(itemIds) },
    )
    .map((row) => ({ itemId: row.id, path: row.path, title: row.title, versionSeenAt: row.seen_at }));
}

export function chunksByIds(db: ScopedReader, chunkIds: readonly string[]): ChunkRecord[] {
  if (chunkIds.length === 0) return [];
  return db
    .rows<ChunkRow>('SELECT * FROM chunks WHERE +workspace = @ws AND id IN (SELECT value FROM json_each(@ids))', { ids: JSON.stringify(chunkIds) })
    .map(toChunk);
}

/** The claims of these passages, by the items' index (claims_item), each item's in listClaims' order. */
export function claimsInPassages(db: ScopedReader, passages: readonly PassageRef[]): StoredClaim[] {
  if (passages.length === 0) return [];
  return db
    .rows<ClaimRow>(
      `SELECT * FROM claims WHERE claims.workspace = @ws AND claims.item_id IN (SELECT value FROM json_each(@items))
         AND claims.chunk_id IN (SELECT value FROM json_each(@chunks))
       ORDER BY claims.item_id, claims.chunk_id, claims.char_start, claims.rowid`,
      {
        items: JSON.stringify([...new Set(passages.map((passage) => passage.itemId))]),
        chunks: JSON.stringify([...new Set(passages.map((passage) => passage.chunkId))]),
      },
    )
    .map(toClaim);
}

export function hasVectors(db: ScopedReader, modelId: string): boolean {
  return db.rows('SELECT 1 FROM vectors WHERE workspace = @ws AND model_id = @modelId LIMIT 1', { modelId }).length > 0;
}

/** Each listed item's best window by cosine to the query, among one model's vectors (exact, per item). */
export function bestSimilarities(db: ScopedReader, modelId: string, query: Float32Array, itemIds: readonly string[]): VectorHit[] {
  if (itemIds.length === 0) return [];
  const model = db.rows<{ dims: number }>('SELECT dims FROM embedding_models WHERE workspace = @ws AND id = @modelId', { modelId })[0];
  if (!model || model.dims !== query.length || !Number.isInteger(model.dims)) return [];
  // `+model_id`: found by item (vectors_item), not by model, whose index holds every vector of the workspace.
  const rows = db.rows<{ item_id: string; chunk_id: string; window: number; distance: number }>(
    `SELECT vectors.item_id, vectors.chunk_id, vectors.window,
       vec_distance_cosine(vec.embedding, @query) AS distance
     FROM vectors JOIN vec_f32_${model.dims} AS vec ON vec.rowid = vectors.seq
     WHERE vectors.workspace = @ws AND +vectors.model_id = @modelId AND vectors.item_id IN (SELECT value FROM json_each(@ids))`,
    { modelId, ids: JSON.stringify(itemIds), query: Buffer.from(query.buffer, query.byteOffset, query.byteLength) },
  );
  const best = new Map<string, VectorHit>();
  for (const row of rows) {
    const similarity = 1 - row.distance;
    if ((best.get(row.item_id)?.similarity ?? -Infinity) < similarity) {
      best.set(row.item_id, { itemId: row.item_id, chunkId: row.chunk_id, window: row.window, similarity });
    }
  }
  return [...best.values()];
}
