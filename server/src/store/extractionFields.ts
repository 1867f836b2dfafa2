// The fields an item's entity or claim is written with, by either backend: the SQLite store binds
// them as a statement's parameters (sqlite/extractionRows.ts), MongoDB keeps them as the document
// (mongoQdrant/documents.ts). One list, so a field added to the records reaches both stores.

import type { StoredClaim, StoredEntity } from './storedRecords.ts';

/** An entity as written: `value` is null when the entity has none (both stores keep a column or field for it). */
export type EntityFields = Omit<StoredEntity, 'value'> & { value: string | null };

export function entityFields(itemId: string, entity: Omit<StoredEntity, 'itemId'>): EntityFields {
  return {
    itemId,
    chunkId: entity.chunkId,
    type: entity.type,
    surface: entity.surface,
    key: entity.key,
    value: entity.value ?? null,
    start: entity.start,
    end: entity.end,
    producer: entity.producer,
    extractorVersion: entity.extractorVersion,
  };
}

export function claimFields(itemId: string, claim: Omit<StoredClaim, 'itemId'>): StoredClaim {
  return {
    itemId,
    chunkId: claim.chunkId,
    kind: claim.kind,
    subject: claim.subject,
    attribute: claim.attribute,
    value: claim.value,
    unit: claim.unit,
    text: claim.text,
    start: claim.start,
    end: claim.end,
    entityKeys: [...claim.entityKeys],
    producer: claim.producer,
    extractorVersion: claim.extractorVersion,
  };
}
