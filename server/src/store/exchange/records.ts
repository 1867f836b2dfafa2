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

import { z } from 'zod';
import {
  CLAIM_KINDS,
  ENTITY_TYPES,
  ITEM_FLAGS,
  ITEM_STATUSES,
  LOCATION_KINDS,
  SHEET_NAME_MAX_CHARS,
  PRODUCERS,
  RELATIONSHIP_STATUSES,
  RELATIONSHIP_TYPES,
  SIGNAL_TYPES,
  type EntityAliasView,
  type RelationshipStatus,
} from '../../../../shared/types.ts';
import { RELATIONSHIP_EVENT_KINDS } from '../storedRecords.ts';
import type {
  ChunkRecord,
  ItemRecord,
  ItemVersionRecord,
  RelationshipEvent,
  RelationshipRecord,
  StoredClaim,
  StoredEntity,
} from '../storedRecords.ts';
import type { ModelDescriptor } from '../../embed/types.ts';
import type { PhraseCount } from '../../records/extraction.ts';
import { LINK_TARGET_MAX_CHARS, LINK_TEXT_MAX_CHARS, MAX_LINKS_PER_DOCUMENT, type ParsedDocument } from '../../records/document.ts';
import { storedPathProblem } from '../../workspace/storedPath.ts';
import { decodeVector } from './vectorText.ts';

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
  /** The language detected with the extraction (ISO 639-1 or 'und'); absent in exports made before issue 28. */
  language?: string;
  /** Passages in another language than the item's: chunk id → language; absent when there are none. */
  passageLanguages?: Record<string, string>;
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

// Checking a record read from a file ---------------------------------------------------------
//
// One schema per kind (zod, as the MCP tools' arguments are checked): every field of the record
// with its type, its range and, where the store knows only some values, those values, taken from
// the lists the types are made of (shared/types.ts, contract.ts) so that the two never differ.
// Objects are strict: a field the format does not define is refused, whatever its name
// (`constructor`, `__proto__`), and only a record's own properties are read. A path must stay
// inside the folder (workspace/storedPath.ts), a vector must hold finite numbers, a range must
// not end before it starts. Messages name the field and the rule, never the value refused.

const nonNegative = z.int().min(0);
const time = z.string();
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'is not a sha-256 in hex');
const LANGUAGE_CODE = z.string().regex(/^(?:[a-z]{2,3}|und)$/, 'is not a language code');
/** Passage languages one extraction record may carry: more passages than any item holds (extract/caps.ts keeps far fewer results). */
const MAX_PASSAGE_LANGUAGES = 100_000;
const producer = z.enum(PRODUCERS);

const folderPath = z.string().superRefine((value, context) => {
  const problem = storedPathProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** A range that does not end before it starts, checked on an object with `start` and `end`. */
function ordered<T extends z.ZodType<{ start: number; end: number }>>(schema: T): T {
  return schema.refine((range) => range.end >= range.start, { message: 'ends before it starts', path: ['end'] }) as unknown as T;
}

// A sheet is named only on a range of rows: the name a spreadsheet gave it, clipped as the parser clips it.
const location = ordered(z.strictObject({ kind: z.enum(LOCATION_KINDS), start: nonNegative, end: nonNegative, sheet: z.string().min(1).max(SHEET_NAME_MAX_CHARS).optional() })).refine(
  (range) => (range.kind === 'rows') === (range.sheet !== undefined),
  { message: 'names a sheet exactly when it counts rows', path: ['sheet'] },
);

const signal = z.strictObject({
  type: z.enum(SIGNAL_TYPES),
  value: z.string(),
  strength: z.number(),
  weight: z.number(),
  detail: z.string(),
  found_by_model: z.literal(true).optional(),
});

const changedSinceDecision = z.strictObject({
  decision: z.enum(['confirmed', 'rejected'] as const satisfies readonly RelationshipStatus[]),
  decided_by: z.string(),
  decided_at: time,
  note: z.string().nullable(),
  changes: z.array(z.string()),
});

const decisionBasis = z.strictObject({
  type: z.enum(RELATIONSHIP_TYPES),
  evidence: z.array(z.strictObject({ signal: z.enum(SIGNAL_TYPES), value: z.string(), figures: z.string().nullable() })),
});

/** A stored parsed document: its passages' blocks are checked (they carry locations); the rest is the parser's. */
const parsedDocument = z.looseObject({
  blocks: z.array(z.looseObject({ text: z.string(), headingPath: z.array(z.string()), location })),
});

const finiteVector = z.string().superRefine((value, context) => {
  let vector: Float32Array;
  try {
    vector = decodeVector(value);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
    return;
  }
  if (!vector.every(Number.isFinite)) context.addIssue({ code: 'custom', message: 'holds a value that is not a finite number' });
});

const aliasEnd = z.strictObject({ key: z.string(), surface: z.string() });

const record = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) => z.strictObject({ record: z.literal(kind), ...shape });

/** The schema of every kind: what a reader checks before a record reaches a store. */
export const RECORD_SCHEMAS = {
  meta: record('meta', { key: z.string(), value: z.string() }),
  embedding_model: record('embedding_model', { id: z.string(), dims: z.int().min(1), version: z.string(), maxTokens: z.int().min(1), firstUsedAt: time }),
  item: record('item', {
    id: z.string(),
    path: folderPath,
    title: z.string().nullable(),
    status: z.enum(ITEM_STATUSES),
    reason: z.string().nullable(),
    duplicateOf: z.string().nullable(),
    contentHash: sha256Hex.nullable(),
    size: nonNegative.nullable(),
    // 0 for an item never read (skipped, failed); a version of its bytes counts from 1.
    version: nonNegative,
    parserVersion: z.string().nullable(),
    flags: z.array(z.enum(ITEM_FLAGS)),
    createdAt: time,
    updatedAt: time,
    deletedAt: time.nullable(),
    forgottenAt: time.nullable(),
  }),
  item_version: record('item_version', { itemId: z.string(), version: z.int().min(1), contentHash: sha256Hex, size: nonNegative, createdAt: time }),
  parsed_text: record('parsed_text', { itemId: z.string(), contentHash: sha256Hex, parserVersion: z.string(), document: parsedDocument }),
  chunk: record('chunk', {
    id: z.string(),
    itemId: z.string(),
    ordinal: nonNegative,
    text: z.string(),
    headingPath: z.array(z.string()),
    location,
    wordCount: nonNegative,
  }),
  vector: ordered(
    record('vector', {
      itemId: z.string(),
      chunkId: z.string(),
      window: nonNegative,
      start: nonNegative,
      end: nonNegative,
      modelId: z.string(),
      vector: finiteVector,
      createdAt: time,
    }),
  ),
  entity: ordered(
    record('entity', {
      itemId: z.string(),
      chunkId: z.string(),
      type: z.enum(ENTITY_TYPES),
      surface: z.string(),
      key: z.string(),
      value: z.string().optional(),
      start: nonNegative,
      end: nonNegative,
      producer,
      extractorVersion: z.string(),
    }),
  ),
  claim: ordered(
    record('claim', {
      itemId: z.string(),
      chunkId: z.string(),
      kind: z.enum(CLAIM_KINDS),
      subject: z.string(),
      attribute: z.string(),
      value: z.union([z.number(), z.string()]),
      unit: z.string().nullable(),
      text: z.string(),
      start: nonNegative,
      end: nonNegative,
      entityKeys: z.array(z.string()),
      producer,
      extractorVersion: z.string(),
    }),
  ),
  phrase: record('phrase', { itemId: z.string(), key: z.string(), phrase: z.string(), count: nonNegative }),
  extraction: record('extraction', {
    itemId: z.string(),
    contentHash: sha256Hex,
    versions: z.string(),
    capped: z.string().optional(),
    language: LANGUAGE_CODE.optional(),
    passageLanguages: z
      .record(z.string().min(1).max(200), LANGUAGE_CODE)
      .refine((languages) => Object.keys(languages).length <= MAX_PASSAGE_LANGUAGES, `at most ${MAX_PASSAGE_LANGUAGES} passage languages`)
      .optional(),
  }),
  discovery: record('discovery', { itemId: z.string(), contentHash: sha256Hex, basis: z.string(), discoveredAt: time }),
  relationship: record('relationship', {
    id: z.string(),
    fromItemId: z.string(),
    toItemId: z.string(),
    type: z.enum(RELATIONSHIP_TYPES),
    score: z.number(),
    proposedScore: z.number(),
    scoreVersion: z.string(),
    nearDuplicate: z.boolean(),
    signals: z.array(signal),
    producedBy: z.string(),
    status: z.enum(RELATIONSHIP_STATUSES),
    createdAt: time,
    updatedAt: time,
    decidedBy: z.string().nullable(),
    decidedAt: time.nullable(),
    note: z.string().nullable(),
    decisionBasis: decisionBasis.nullable(),
    changedSinceDecision: changedSinceDecision.nullable(),
  }),
  relationship_event: record('relationship_event', {
    relationshipId: z.string(),
    at: time,
    kind: z.enum(RELATIONSHIP_EVENT_KINDS),
    actor: z.string(),
    type: z.enum(RELATIONSHIP_TYPES),
    score: z.number(),
    scoreVersion: z.string(),
    signals: z.array(signal),
    note: z.string().nullable(),
  }),
  alias: record('alias', {
    id: z.string(),
    a: aliasEnd,
    b: aliasEnd,
    reason: z.string(),
    status: z.enum(RELATIONSHIP_STATUSES),
    created_at: time,
    decided_by: z.string().nullable(),
    decided_at: time.nullable(),
    note: z.string().nullable(),
  }),
  blob: record('blob', { hash: sha256Hex, size: nonNegative }),
} satisfies Record<ExchangeKind | 'blob', z.ZodType>;

/** A name from a record, shown in a message only when it is an ordinary identifier: never arbitrary content. */
function fieldName(name: PropertyKey): string {
  if (typeof name === 'number') return String(name);
  return typeof name === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name) ? name : 'with an unexpected name';
}

/** An id from a record, for a message: shown when it looks like one, never arbitrary content. */
export function describeId(id: string): string {
  return /^[\w.:@#+\-/]{1,160}$/.test(id) ? id : '(an id that is not shown: it holds unexpected characters)';
}

/** The value at a path of a record, following own properties only. */
function ownValueAt(value: unknown, at: readonly PropertyKey[]): unknown {
  let here = value;
  for (const key of at) {
    if (typeof here !== 'object' || here === null || !Object.hasOwn(here, key)) return undefined;
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return here;
}

/** A schema issue in words: the field and the rule, never the value. */
function describeIssue(issue: z.core.$ZodIssue, value: unknown, kind: string): string {
  const field = issue.path.map(fieldName).join('.');
  if (issue.code !== 'unrecognized_keys' && issue.code !== 'custom' && ownValueAt(value, issue.path) === undefined) return `field ${field} is missing`;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const where = field === '' ? '' : `${field}.`;
      return `field ${where}${fieldName(issue.keys[0]!)} is not part of ${FORMAT_VERSION} ${kind} records`;
    }
    case 'invalid_type': {
      const expected = issue.expected === 'int' ? 'integer' : issue.expected;
      return `field ${field} is not ${expected === 'object' ? 'an object' : expected}`;
    }
    case 'invalid_value':
      return `field ${field} is not one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return `field ${field} is below ${String(issue.minimum)}`;
    case 'too_big':
      return `field ${field} is above ${String(issue.maximum)}`;
    case 'invalid_format':
      return `field ${field} ${issue.message ?? 'is not in its format'}`;
    case 'custom':
      return `field ${field} ${issue.message}`;
    default:
      return `field ${field} is not valid`;
  }
}

/**
 * Checks that a parsed JSON value is a record of the expected kind, every field valid and no field
 * the format does not define; throws the reason otherwise. Its `record` field must name its file's
 * kind. The value is returned as it was read (never a copy that reorders its fields), since a
 * store keeps some of it verbatim.
 */
export function checkRecord<K extends ExchangeKind | 'blob'>(value: unknown, kind: K): Extract<ExchangeRecord | BlobRecord, { record: K }> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
  const given = Object.hasOwn(value, 'record') ? (value as { record: unknown }).record : undefined;
  if (given !== kind) {
    throw new Error(typeof given === 'string' && Object.hasOwn(RECORD_SCHEMAS, given) ? `record is "${given}", expected "${kind}" in this file` : `not a "${kind}" record, which this file holds`);
  }
  const result = RECORD_SCHEMAS[kind].safeParse(value);
  if (!result.success) throw new Error(describeIssue(result.error.issues[0]!, value, kind));
  if (kind === 'parsed_text') checkDocumentLinks((value as { document: { links?: unknown } }).document.links);
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
      (LOCATION_KINDS as readonly unknown[]).includes(location.kind) &&
      Number.isInteger(location.start) &&
      Number.isInteger(location.end) &&
      (location.kind === 'rows') === (typeof location.sheet === 'string' && location.sheet.length > 0 && location.sheet.length <= SHEET_NAME_MAX_CHARS);
    if (!fits) throw new Error(`document.links[${index}] is not a link (target, text, kind, location within the parser's limits)`);
  }
}
