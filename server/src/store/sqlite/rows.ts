// Rows of the chunks, entities and claims tables as the engine's types, shared by the store's
// per-item reads, discovery's batched reads and search's reads by id.

import type { EntityType, Location, SignalView } from '../../../../shared/types.ts';
import type { ChunkRecord, RelationshipEvent, StoredClaim, StoredEntity } from '../contract.ts';

export interface ChunkRow {
  id: string;
  item_id: string;
  ordinal: number;
  text: string;
  heading_path: string;
  location: string;
  word_count: number;
}

export const toChunk = (row: ChunkRow): ChunkRecord => ({
  id: row.id,
  itemId: row.item_id,
  ordinal: row.ordinal,
  text: row.text,
  headingPath: JSON.parse(row.heading_path) as string[],
  location: JSON.parse(row.location) as Location,
  wordCount: row.word_count,
});

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

export interface EventRow {
  at: string;
  kind: RelationshipEvent['kind'];
  actor: string;
  type: RelationshipEvent['type'];
  score: number;
  score_version: string;
  signals: string;
  note: string | null;
}

export const toEvent = (row: EventRow): RelationshipEvent => ({
  at: row.at,
  kind: row.kind,
  actor: row.actor,
  type: row.type,
  score: row.score,
  scoreVersion: row.score_version,
  signals: JSON.parse(row.signals) as SignalView[],
  note: row.note,
});
