// Rows of the entities and claims tables as the engine's types, shared by the per-item reads and
// discovery's batched reads.

import type { EntityType } from '../../../../shared/types.ts';
import type { StoredClaim, StoredEntity } from '../contract.ts';

export interface EntityRow {
  item_id: string;
  chunk_id: string;
  type: EntityType;
  surface: string;
  key: string;
  value: string | null;
  char_start: number;
  char_end: number;
  producer: 'deterministic' | 'model';
  extractor_version: string;
}

export interface ClaimRow {
  item_id: string;
  chunk_id: string;
  kind: StoredClaim['kind'];
  subject: string;
  attribute: string;
  value: string;
  unit: string | null;
  text: string;
  char_start: number;
  char_end: number;
  entity_keys: string;
  producer: 'deterministic' | 'model';
  extractor_version: string;
}

export const toEntity = (row: EntityRow): StoredEntity => ({
  itemId: row.item_id,
  chunkId: row.chunk_id,
  type: row.type,
  surface: row.surface,
  key: row.key,
  ...(row.value === null ? {} : { value: row.value }),
  start: row.char_start,
  end: row.char_end,
  producer: row.producer,
  extractorVersion: row.extractor_version,
});

export const toClaim = (row: ClaimRow): StoredClaim => ({
  itemId: row.item_id,
  chunkId: row.chunk_id,
  kind: row.kind,
  subject: row.subject,
  attribute: row.attribute,
  value: JSON.parse(row.value) as number | string,
  unit: row.unit,
  text: row.text,
  start: row.char_start,
  end: row.char_end,
  entityKeys: JSON.parse(row.entity_keys) as string[],
  producer: row.producer,
  extractorVersion: row.extractor_version,
});
