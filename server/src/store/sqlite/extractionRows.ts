// The one INSERT for an entity and for a claim: an item's extraction (sqliteStore.ts) and an
// imported export (exchange.ts) write the same rows. A claim's value and entity keys are kept as JSON
// (rows.ts toClaim reads them back).

import type { StoredClaim, StoredEntity } from '../storedRecords.ts';
import { claimFields, entityFields } from '../extractionFields.ts';
import type { ScopedSql } from './scopedSql.ts';

export function insertEntity(sql: ScopedSql, itemId: string, entity: Omit<StoredEntity, 'itemId'>): void {
  sql.run(
    `INSERT INTO entities (workspace, item_id, chunk_id, type, surface, key, value, char_start, char_end, producer, extractor_version)
     VALUES (@ws, @itemId, @chunkId, @type, @surface, @key, @value, @start, @end, @producer, @extractorVersion)`,
    entityFields(itemId, entity),
  );
}

export function insertClaim(sql: ScopedSql, itemId: string, claim: Omit<StoredClaim, 'itemId'>): void {
  sql.run(
    `INSERT INTO claims (workspace, item_id, chunk_id, kind, subject, attribute, value, unit, text, char_start, char_end,
       entity_keys, producer, extractor_version)
     VALUES (@ws, @itemId, @chunkId, @kind, @subject, @attribute, @value, @unit, @text, @start, @end,
       @entityKeys, @producer, @extractorVersion)`,
    { ...claimFields(itemId, claim), value: JSON.stringify(claim.value), entityKeys: JSON.stringify(claim.entityKeys) },
  );
}
