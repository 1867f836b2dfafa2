// Rows of the items, chunks, entities and claims tables as the engine's types, shared by the
// store's per-item reads, discovery's batched reads, search's reads by id and the export.

import type { EntityType, ItemFlag, ItemStatus, Location, SignalView } from '../../../../shared/types.ts';
import type { ChunkRecord, ItemRecord, RelationshipEvent, StoredClaim, StoredEntity } from '../contract.ts';

export interface ItemRow {
  id: string;
  path: string;
  title: string | null;
  status: ItemStatus;
  reason: string | null;
  duplicate_of: string | null;
  content_hash: string | null;
  size: number | null;
  version: number;
  parser_version: string | null;
  flags: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  forgotten_at: string | null;
}

export const toItem = (row: ItemRow): ItemRecord => ({
  id: row.id,
  path: row.path,
  title: row.title,
  status: row.status,
  reason: row.reason,
  duplicateOf: row.duplicate_of,
  contentHash: row.content_hash,
  size: row.size,
  version: row.version,
  parserVersion: row.parser_version,
  flags: JSON.parse(row.flags) as ItemFlag[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  deletedAt: row.deleted_at,
  forgottenAt: row.forgotten_at,
});

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

/** item_extractions.passage_languages: the chunk id → language object as JSON, or null when no passage differs from its item. */
export function passageLanguagesColumn(languages: Readonly<Record<string, string>> | undefined): string | null {
  return languages !== undefined && Object.keys(languages).length > 0 ? JSON.stringify(languages) : null;
}
