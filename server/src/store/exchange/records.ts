// The export format (relata-export/1): every logical record a folder's store holds for one
// workspace, in words any backend can write and read. `relata export` writes these, `relata import`
// loads them into an empty store of any backend, and a round trip loses nothing. No record names a
// SQLite table, rowid or sequence, a MongoDB collection or a Qdrant point: ids, times and statuses
// are the store's logical values, kept verbatim. docs/EXPORT_FORMAT.md describes the format.
//
// Each record says what it is in its `record` field ("item", "chunk", …), a name no record's own
// fields use (claims and relationship events have a `kind` of their own).
//
// What a store exchanges (ExchangeRecord) is everything but the original bytes: those live in the
// BlobStore beside the store, so the export directory's writer copies the blobs the items and
// versions name (BlobRecord) and the reader puts them back before the store's records.
//
// The leased job queue is not exported: it is work still to do, not knowledge. After an import,
// `relata index` re-queues whatever the imported items still need (a parse, vectors for another
// model, an extraction or discovery under newer versions).

import type { EntityAliasView } from '../../../../shared/types.ts';
import type {
  ChunkRecord,
  ItemRecord,
  ItemVersionRecord,
  RelationshipEvent,
  RelationshipRecord,
  StoredClaim,
  StoredEntity,
} from '../contract.ts';
import type { ModelDescriptor } from '../../embed/types.ts';
import type { PhraseCount } from '../../extract/types.ts';
import { LINK_TARGET_MAX_CHARS, LINK_TEXT_MAX_CHARS, MAX_LINKS_PER_DOCUMENT, type ParsedDocument } from '../../parse/types.ts';

/** The format's name and major version; a reader refuses a newer major (formatMajor). */
export const FORMAT_VERSION = 'relata-export/1';

/** The meta entry naming the indexed folder, as engine/folderIndex.ts records it. */
export const FOLDER_ROOT_KEY = 'folder_root';

/** One workspace-wide setting (e.g. `folder_root`, the indexed folder). */
export interface MetaExchange {
  record: 'meta';
  key: string;
  value: string;
}

/** An item as the store holds it, tombstoned and forgotten ones included. */
export interface ItemExchange extends ItemRecord {
  record: 'item';
}

/** One version of an item's bytes (the bytes themselves are the blob named by contentHash). */
export interface ItemVersionExchange extends ItemVersionRecord {
  record: 'item_version';
  itemId: string;
}

/**
 * The parsed document as stored, without its `text`: an item's text is its blocks' text joined by
 * a blank line (parse/document.ts), so it is not kept twice. A document stored by an older Relata
 * may still carry `text`, which is then kept as it is.
 */
export type StoredParsedDocument = Omit<ParsedDocument, 'text'> & { text?: string };

export interface ParsedTextExchange {
  record: 'parsed_text';
  itemId: string;
  contentHash: string;
  parserVersion: string;
  document: StoredParsedDocument;
}

export interface ChunkExchange extends ChunkRecord {
  record: 'chunk';
}

/** An embedding model's descriptor, and when the workspace first used it. */
export interface EmbeddingModelExchange extends ModelDescriptor {
  record: 'embedding_model';
  firstUsedAt: string;
}

/** One window vector of a chunk. `vector` is base64 of the little-endian float32 values (encodeVector). */
export interface VectorExchange {
  record: 'vector';
  itemId: string;
  chunkId: string;
  window: number;
  /** Character offsets of the window in the chunk text. */
  start: number;
  end: number;
  modelId: string;
  vector: string;
  createdAt: string;
}

export interface EntityExchange extends StoredEntity {
  record: 'entity';
}

export interface ClaimExchange extends StoredClaim {
  record: 'claim';
}

export interface PhraseExchange extends PhraseCount {
  record: 'phrase';
  itemId: string;
}

/**
 * Which extractors ran on which bytes of an item. Whether a per-item cap left results out is the
 * item's `extraction_capped` flag; `capped` (what was kept of how many) is present only when the
 * exporting backend kept those words (SQLite keeps the flag alone).
 */
export interface ExtractionExchange {
  record: 'extraction';
  itemId: string;
  contentHash: string;
  versions: string;
  capped?: string;
}

/** Discovery ran for these bytes of the item under this basis (score version, extractors, model). */
export interface DiscoveryExchange {
  record: 'discovery';
  itemId: string;
  contentHash: string;
  basis: string;
  discoveredAt: string;
}

/** A relationship with every field: signals, status, decision, its basis and what changed since. */
export interface RelationshipExchange extends RelationshipRecord {
  record: 'relationship';
}

/** One entry of a relationship's history; a relationship's events are in history order. */
export interface RelationshipEventExchange extends RelationshipEvent {
  record: 'relationship_event';
  relationshipId: string;
}

/** A candidate alias between two entity keys, with its status and any decision. */
export interface AliasExchange extends EntityAliasView {
  record: 'alias';
}

/** What stores exchange through exportRecords / importRecords (contract.ts). */
export type ExchangeRecord =
  | MetaExchange
  | EmbeddingModelExchange
  | ItemExchange
  | ItemVersionExchange
  | ParsedTextExchange
  | ChunkExchange
  | VectorExchange
  | EntityExchange
  | ClaimExchange
  | PhraseExchange
  | ExtractionExchange
  | DiscoveryExchange
  | RelationshipExchange
  | RelationshipEventExchange
  | AliasExchange;

export type ExchangeKind = ExchangeRecord['record'];

/**
 * The order a store yields its records in and an import replays them: every record of one kind
 * before the next kind, and each kind after those it refers to (models and items before vectors,
 * chunks before what points into them, relationships before their events). Within a kind, records
 * come in the store's own order (insertion order), and an import inserts them in that order, so
 * ties that a backend breaks by insertion order (lexical ranking, history) break the same way.
 */
export const EXCHANGE_KINDS: readonly ExchangeKind[] = [
  'meta',
  'embedding_model',
  'item',
  'item_version',
  'parsed_text',
  'chunk',
  'vector',
  'entity',
  'claim',
  'phrase',
  'extraction',
  'discovery',
  'relationship',
  'relationship_event',
  'alias',
];

/** Original bytes named by an item or version: the file `blobs/<hash>` of the export directory. */
export interface BlobRecord {
  record: 'blob';
  hash: string;
  size: number;
}

/** One JSON Lines file per kind in the export directory. */
export const RECORD_FILES: Readonly<Record<ExchangeKind | 'blob', string>> = {
  meta: 'meta.jsonl',
  embedding_model: 'embedding_models.jsonl',
  item: 'items.jsonl',
  item_version: 'item_versions.jsonl',
  parsed_text: 'parsed_texts.jsonl',
  chunk: 'chunks.jsonl',
  vector: 'vectors.jsonl',
  entity: 'entities.jsonl',
  claim: 'claims.jsonl',
  phrase: 'phrases.jsonl',
  extraction: 'extractions.jsonl',
  discovery: 'discoveries.jsonl',
  relationship: 'relationships.jsonl',
  relationship_event: 'relationship_events.jsonl',
  alias: 'aliases.jsonl',
  blob: 'blobs.jsonl',
};

/** How many records of each kind an import loaded. */
export type ImportCounts = Record<ExchangeKind, number>;

export function emptyCounts(): ImportCounts {
  return Object.fromEntries(EXCHANGE_KINDS.map((kind) => [kind, 0])) as ImportCounts;
}

/** manifest.json: what was exported, from where, and how to check every file is as written. */
export interface ExportManifest {
  /** FORMAT_VERSION of the writer. */
  format: string;
  createdAt: string;
  source: {
    backend: 'sqlite' | 'mongodb-qdrant';
    /** Where the store was, for people (no credentials). */
    location: string;
    workspace: string;
    /** The indexed folder as the store recorded it (meta `folder_root`), or null. */
    folderRoot: string | null;
  };
  /** Records per kind, blobs included. */
  counts: Record<ExchangeKind | 'blob', number>;
  /** Each records file's sha-256 (hex) and size in bytes, by file name. */
  files: Record<string, { sha256: string; bytes: number }>;
  /** Hashes an item or version names whose bytes the blob store did not have (a damaged store): not in blobs/. */
  missingBlobs: string[];
}

/** The major version of a format string ("relata-export/1" → 1), or null when it is not this format. */
export function formatMajor(format: unknown): number | null {
  const match = typeof format === 'string' ? /^relata-export\/(\d+)(?:\.\d+)?$/.exec(format) : null;
  return match ? Number(match[1]) : null;
}

export const FORMAT_MAJOR = formatMajor(FORMAT_VERSION)!;

/** An import into a store that already holds something for the workspace: import never merges. */
export class ImportTargetNotEmptyError extends Error {
  override readonly name = 'ImportTargetNotEmptyError';

  constructor(
    readonly workspace: string,
    readonly where: string,
    readonly holds: string,
  ) {
    super(
      `${where} already holds ${holds} for workspace "${workspace}": import loads into an empty store only ` +
        '(choose another --data directory or workspace, or remove that store first)',
    );
  }
}

// Vectors ----------------------------------------------------------------------------------

/** Base64 of the vector's float32 values, little-endian whatever the machine. */
export function encodeVector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

export function decodeVector(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length % 4 !== 0) throw new Error(`a vector of ${bytes.length} bytes is not a whole number of float32 values`);
  const vector = new Float32Array(bytes.length / 4);
  for (let index = 0; index < vector.length; index += 1) vector[index] = bytes.readFloatLE(index * 4);
  return vector;
}

// Checking a record read from a file ----------------------------------------------------------

type FieldType =
  | 'string'
  | 'string|null'
  | 'string?'
  | 'number'
  | 'number|null'
  | 'integer'
  | 'integer|null'
  | 'boolean'
  | 'string[]'
  | 'number|string'
  | 'object'
  | 'object|null'
  | 'array';

const ISO_TIME = 'string';

/** Every field of every kind and its JSON type: what a reader checks before a record reaches a store. */
export const RECORD_FIELDS: Readonly<Record<ExchangeKind | 'blob', Readonly<Record<string, FieldType>>>> = {
  meta: { key: 'string', value: 'string' },
  embedding_model: { id: 'string', dims: 'integer', version: 'string', maxTokens: 'integer', firstUsedAt: ISO_TIME },
  item: {
    id: 'string',
    path: 'string',
    title: 'string|null',
    status: 'string',
    reason: 'string|null',
    duplicateOf: 'string|null',
    contentHash: 'string|null',
    size: 'integer|null',
    version: 'integer',
    parserVersion: 'string|null',
    flags: 'string[]',
    createdAt: ISO_TIME,
    updatedAt: ISO_TIME,
    deletedAt: 'string|null',
    forgottenAt: 'string|null',
  },
  item_version: { itemId: 'string', version: 'integer', contentHash: 'string', size: 'integer', createdAt: ISO_TIME },
  parsed_text: { itemId: 'string', contentHash: 'string', parserVersion: 'string', document: 'object' },
  chunk: {
    id: 'string',
    itemId: 'string',
    ordinal: 'integer',
    text: 'string',
    headingPath: 'string[]',
    location: 'object',
    wordCount: 'integer',
  },
  vector: {
    itemId: 'string',
    chunkId: 'string',
    window: 'integer',
    start: 'integer',
    end: 'integer',
    modelId: 'string',
    vector: 'string',
    createdAt: ISO_TIME,
  },
  entity: {
    itemId: 'string',
    chunkId: 'string',
    type: 'string',
    surface: 'string',
    key: 'string',
    value: 'string?',
    start: 'integer',
    end: 'integer',
    producer: 'string',
    extractorVersion: 'string',
  },
  claim: {
    itemId: 'string',
    chunkId: 'string',
    kind: 'string',
    subject: 'string',
    attribute: 'string',
    value: 'number|string',
    unit: 'string|null',
    text: 'string',
    start: 'integer',
    end: 'integer',
    entityKeys: 'string[]',
    producer: 'string',
    extractorVersion: 'string',
  },
  phrase: { itemId: 'string', key: 'string', phrase: 'string', count: 'integer' },
  extraction: { itemId: 'string', contentHash: 'string', versions: 'string', capped: 'string?' },
  discovery: { itemId: 'string', contentHash: 'string', basis: 'string', discoveredAt: ISO_TIME },
  relationship: {
    id: 'string',
    fromItemId: 'string',
    toItemId: 'string',
    type: 'string',
    score: 'number',
    proposedScore: 'number',
    scoreVersion: 'string',
    nearDuplicate: 'boolean',
    signals: 'array',
    producedBy: 'string',
    status: 'string',
    createdAt: ISO_TIME,
    updatedAt: ISO_TIME,
    decidedBy: 'string|null',
    decidedAt: 'string|null',
    note: 'string|null',
    decisionBasis: 'object|null',
    changedSinceDecision: 'object|null',
  },
  relationship_event: {
    relationshipId: 'string',
    at: ISO_TIME,
    kind: 'string',
    actor: 'string',
    type: 'string',
    score: 'number',
    scoreVersion: 'string',
    signals: 'array',
    note: 'string|null',
  },
  alias: {
    id: 'string',
    a: 'object',
    b: 'object',
    reason: 'string',
    status: 'string',
    created_at: ISO_TIME,
    decided_by: 'string|null',
    decided_at: 'string|null',
    note: 'string|null',
  },
  blob: { hash: 'string', size: 'integer' },
};

function fits(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'string|null':
      return value === null || typeof value === 'string';
    case 'string?':
      return value === undefined || typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'number|null':
      return value === null || (typeof value === 'number' && Number.isFinite(value));
    case 'integer':
      return Number.isSafeInteger(value);
    case 'integer|null':
      return value === null || Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
    case 'number|string':
      return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'object|null':
      return value === null || (typeof value === 'object' && !Array.isArray(value));
    case 'array':
      return Array.isArray(value);
  }
}

/**
 * Checks that a parsed JSON value is a record of the expected kind with every field of the right
 * type and no field the format does not define; throws the reason otherwise. Its `record` field
 * must name its file's kind.
 */
export function checkRecord<K extends ExchangeKind | 'blob'>(value: unknown, kind: K): Extract<ExchangeRecord | BlobRecord, { record: K }> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
  const record = value as Record<string, unknown>;
  if (record.record !== kind) throw new Error(`record is ${JSON.stringify(record.record)}, expected "${kind}" in this file`);
  const fields = RECORD_FIELDS[kind];
  for (const [field, type] of Object.entries(fields)) {
    if (!fits(record[field], type)) {
      throw new Error(record[field] === undefined ? `field ${field} is missing` : `field ${field} is not ${type}`);
    }
  }
  for (const field of Object.keys(record)) {
    if (field !== 'record' && !(field in fields)) throw new Error(`field ${field} is not part of ${FORMAT_VERSION} ${kind} records`);
  }
  if (kind === 'blob' && !/^[0-9a-f]{64}$/.test(record.hash as string)) throw new Error('hash is not a sha-256 in hex');
  if (kind === 'vector') decodeVector(record.vector as string);
  if (kind === 'parsed_text') checkDocumentLinks((record.document as { links?: unknown }).links);
  return value as Extract<ExchangeRecord | BlobRecord, { record: K }>;
}

/** A record in words for an error: its kind and what identifies it. */
export function describeRecord(record: ExchangeRecord): string {
  const kind = record.record.replace(/_/g, ' ');
  switch (record.record) {
    case 'meta':
      return `meta entry ${record.key}`;
    case 'item':
    case 'chunk':
    case 'embedding_model':
    case 'relationship':
    case 'alias':
      return `${kind} ${record.id}`;
    case 'vector':
      return `vector of chunk ${record.chunkId} (window ${record.window})`;
    case 'relationship_event':
      return `history entry of relationship ${record.relationshipId} at ${record.at}`;
    default:
      return `${kind} of item ${record.itemId}`;
  }
}

const LINK_KINDS: ReadonlySet<string> = new Set(['inline', 'reference', 'definition', 'autolink', 'html', 'wiki', 'front_matter', 'hyperlink', 'annotation']);

/**
 * A parsed document's links (absent in documents from before links) are read by discovery as a
 * parser's output is: each must have the parser's shape and stay under the parser's caps, so an
 * export cannot hand discovery what no file could.
 */
function checkDocumentLinks(links: unknown): void {
  if (links === undefined) return;
  if (!Array.isArray(links)) throw new Error('field document.links is not array');
  if (links.length > MAX_LINKS_PER_DOCUMENT) throw new Error(`document.links holds ${links.length} links, more than ${MAX_LINKS_PER_DOCUMENT}`);
  for (const [index, link] of links.entries()) {
    const entry = link as Record<string, unknown> | null;
    const location = entry?.location as Record<string, unknown> | undefined;
    const fits =
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.target === 'string' &&
      entry.target.length <= LINK_TARGET_MAX_CHARS &&
      typeof entry.text === 'string' &&
      entry.text.length <= LINK_TEXT_MAX_CHARS &&
      typeof entry.kind === 'string' &&
      LINK_KINDS.has(entry.kind) &&
      typeof location === 'object' &&
      location !== null &&
      ['lines', 'pages', 'blocks'].includes(location.kind as string) &&
      Number.isInteger(location.start) &&
      Number.isInteger(location.end);
    if (!fits) throw new Error(`document.links[${index}] is not a link (target, text, kind, location within the parser's limits)`);
  }
}
