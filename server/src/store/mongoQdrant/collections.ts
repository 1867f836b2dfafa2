// The MongoDB collections of the document side (items, parse results, chunks, extraction,
// discovery bookkeeping, metadata): their names, the shape of their documents and their indexes.
// Every document carries the scope (workspace, folder) and every index leads with it, so each
// look-up reads one scope's entries only. The text indexes are compound with the scope fields as
// an equality prefix: MongoDB then refuses a `$text` query that does not name both, so a lexical
// search cannot run unscoped even by mistake.
//
// The two exceptions, named as such: the blob-reference indexes (contentHash alone), which serve
// the one store-wide question a content-addressed blob store must ask (storeWideQueries.ts), and
// GridFS's own collections (gridFsBlobs.ts).

import type { EntityType, Producer } from '../../records/extraction.ts';
import type { EntityFields } from '../extractionFields.ts';
import type { ChunkRecord, FileStats, ItemRecord, ItemVersionRecord, StoredClaim } from '../storedRecords.ts';

export const COLLECTIONS = {
  items: 'items',
  /** Each item's lexical entry (title and the start of its text), written when it is indexed. */
  itemLexical: 'item_lexical',
  /** One header per parsed item: which write of its parts is current. */
  parsedTexts: 'parsed_texts',
  /** The parsed document's text, cut in parts so that a 50 MB document fits MongoDB's 16 MB documents. */
  parsedTextParts: 'parsed_text_parts',
  chunks: 'chunks',
  entities: 'entities',
  claims: 'claims',
  itemPhrases: 'item_phrases',
  itemExtractions: 'item_extractions',
  itemDiscoveries: 'item_discoveries',
  /** The metadata each item gives itself, one document per entry, while the item has passages (itemMetadata.ts). */
  itemMetadata: 'item_metadata',
  meta: 'meta',
  /** Model replies per (passage hash, model, prompt version): a cache, not knowledge. */
  modelExtractionCache: 'model_extraction_cache',
} as const;

export interface ScopeFields {
  workspace: string;
  folder: string;
}

export type VersionDocument = ItemVersionRecord;

/**
 * What an ingest decision still has to do after its item write, recorded in that same write: a
 * crash before the follow-up is done leaves the note on the item, and the next ingest of the path
 * finishes it before deciding anything (items.ts, finishFollowUp).
 */
export interface IngestFollowUp {
  /** Distinguishes this note from a later one, so finishing it never clears a newer one. */
  token: string;
  /** The item's bytes are to be parsed. */
  parse: boolean;
  /** Re-ingest the live copies of this item that do not hold these bytes (null: any bytes). */
  requeueCopies: { holding: string | null } | null;
  /** This item displaced that original: it and its copies become copies of this item. */
  demote: string | null;
}

/** The contract's item record, as the item's document keeps it, with what MongoDB needs beside it. */
export interface ItemDocument extends ScopeFields, ItemRecord {
  /**
   * `deletedAt === null`, kept as a field of its own because a unique index can be partial on an
   * equality but not on a missing value: at most one live item per path.
   */
  live: boolean;
  /** The item's versions, in the item's own document, so a new version and its record are one atomic write. */
  versions: VersionDocument[];
  followUp: IngestFollowUp | null;
  /** Bumped by every write of the item: an ingest decision writes only if the item is still as it read it. */
  rev: number;
  /** What ingest saw of the file when it last read it (workspace/checkedFiles.ts); not part of the item's record, so no `rev`. */
  fileCheck?: FileStats & { checkedMs: number };
}

export interface ItemLexicalDocument extends ScopeFields {
  itemId: string;
  title: string;
  text: string;
}

export type ParsedTextStream = 'blocks' | 'rest' | 'headings' | 'indexText';

export interface ParsedTextDocument extends ScopeFields {
  itemId: string;
  contentHash: string;
  parserVersion: string;
  /** The write whose parts are current; parts of any other write are left-overs of a crash or a replaced parse. */
  writeId: string;
  /** How many parts each stream has. */
  parts: Record<ParsedTextStream, number>;
}

export interface ParsedTextPartDocument extends ScopeFields {
  itemId: string;
  writeId: string;
  stream: ParsedTextStream;
  n: number;
  text: string;
}

export interface ChunkDocument extends ScopeFields, ChunkRecord {
  /** The bytes the chunk was cut from, so a chunking that lost a race with a new version can take back exactly its own. */
  contentHash: string;
}

/** An entity as both stores write it (extractionFields.ts): `value` null when it has none. */
export interface EntityDocument extends ScopeFields, EntityFields {}

export interface MetadataDocument extends ScopeFields {
  itemId: string;
  /** The entry's place in the document's metadata. */
  ordinal: number;
  key: string;
  value: string;
  label: string;
  text: string;
}

export interface ClaimDocument extends ScopeFields, StoredClaim {}

export interface PhraseDocument extends ScopeFields {
  itemId: string;
  key: string;
  phrase: string;
  count: number;
}

/** Written last by storeExtraction: its presence says the extraction of these bytes is complete. */
export interface ExtractionDocument extends ScopeFields {
  itemId: string;
  contentHash: string;
  versions: string;
  /** What a per-item cap kept of how many (ItemExtraction.capped), when one applied. */
  capped?: string | null;
  /** The language detected with the extraction (shared/languages.ts); absent for one made before. */
  language?: string | null;
  /** Passages in another language than the item's: chunk id → language (extract/passageLanguages.ts); absent or null when none. */
  passageLanguages?: Record<string, string> | null;
}

/** A model's raw reply about one passage (extract/model/), kept so that an unchanged passage is never sent twice. */
export interface ModelOutputDocument extends ScopeFields {
  passageHash: string;
  modelId: string;
  promptVersion: string;
  output: string;
  /** The item whose passage it was: forgetting it forgets the reply. */
  itemId: string;
  createdAt: string;
}

export interface DiscoveryDocument extends ScopeFields {
  itemId: string;
  contentHash: string;
  basis: string;
  discoveredAt: string;
}

export interface MetaDocument extends ScopeFields {
  key: string;
  value: string;
}

/** One index, as the facade's setup creates it (the domain classes export theirs in the same shape). */
export interface IndexSpec {
  collection: string;
  key: Readonly<Record<string, 1 | -1 | 'text'>>;
  unique: boolean;
  name: string;
  partialFilterExpression?: Readonly<Record<string, unknown>>;
  weights?: Readonly<Record<string, number>>;
  default_language?: string;
  language_override?: string;
}

const SCOPE = { workspace: 1, folder: 1 } as const;

/**
 * The text indexes' language: English stemming, like the SQLite store's porter tokenizer, and
 * English stop words left out of the index. `language_override` names a field no document has,
 * so a document's own `language` field can never switch its analysis.
 */
const TEXT_INDEX = { default_language: 'english', language_override: 'relataTextLanguage' } as const;

export const DOCUMENT_INDEXES: readonly IndexSpec[] = [
  { collection: COLLECTIONS.items, key: { ...SCOPE, id: 1 }, unique: true, name: 'items_id' },
  { collection: COLLECTIONS.items, key: { ...SCOPE, path: 1 }, unique: true, name: 'items_live_path', partialFilterExpression: { live: true } },
  // listItems (live, by path) and the tombstones of a path, newest first.
  { collection: COLLECTIONS.items, key: { ...SCOPE, live: 1, path: 1, deletedAt: -1 }, unique: false, name: 'items_path' },
  // The items written since a reader last looked (listItems' writtenSince).
  { collection: COLLECTIONS.items, key: { ...SCOPE, updatedAt: 1 }, unique: false, name: 'items_written' },
  { collection: COLLECTIONS.items, key: { ...SCOPE, contentHash: 1 }, unique: false, name: 'items_hash' },
  { collection: COLLECTIONS.items, key: { ...SCOPE, duplicateOf: 1 }, unique: false, name: 'items_copies' },
  { collection: COLLECTIONS.items, key: { ...SCOPE, status: 1, live: 1, path: 1 }, unique: false, name: 'items_status' },
  { collection: COLLECTIONS.itemLexical, key: { ...SCOPE, itemId: 1 }, unique: true, name: 'item_lexical_item' },
  { collection: COLLECTIONS.itemLexical, key: { ...SCOPE, title: 'text', text: 'text' }, unique: false, name: 'item_lexical_text', ...TEXT_INDEX },
  { collection: COLLECTIONS.parsedTexts, key: { ...SCOPE, itemId: 1 }, unique: true, name: 'parsed_texts_item' },
  { collection: COLLECTIONS.parsedTextParts, key: { ...SCOPE, itemId: 1, writeId: 1, stream: 1, n: 1 }, unique: true, name: 'parsed_text_parts_part' },
  { collection: COLLECTIONS.chunks, key: { ...SCOPE, id: 1 }, unique: true, name: 'chunks_id' },
  { collection: COLLECTIONS.chunks, key: { ...SCOPE, itemId: 1, ordinal: 1 }, unique: false, name: 'chunks_item' },
  { collection: COLLECTIONS.chunks, key: { ...SCOPE, text: 'text' }, unique: false, name: 'chunks_text', ...TEXT_INDEX },
  { collection: COLLECTIONS.entities, key: { ...SCOPE, itemId: 1, chunkId: 1, start: 1 }, unique: false, name: 'entities_item' },
  { collection: COLLECTIONS.entities, key: { ...SCOPE, key: 1, itemId: 1 }, unique: false, name: 'entities_key' },
  { collection: COLLECTIONS.claims, key: { ...SCOPE, itemId: 1, chunkId: 1, start: 1 }, unique: false, name: 'claims_item' },
  { collection: COLLECTIONS.claims, key: { ...SCOPE, kind: 1, attribute: 1, unit: 1, itemId: 1 }, unique: false, name: 'claims_comparable' },
  { collection: COLLECTIONS.itemPhrases, key: { ...SCOPE, itemId: 1, count: -1, key: 1 }, unique: false, name: 'item_phrases_item' },
  { collection: COLLECTIONS.itemPhrases, key: { ...SCOPE, key: 1, itemId: 1 }, unique: false, name: 'item_phrases_key' },
  { collection: COLLECTIONS.itemExtractions, key: { ...SCOPE, itemId: 1 }, unique: true, name: 'item_extractions_item' },
  { collection: COLLECTIONS.itemDiscoveries, key: { ...SCOPE, itemId: 1 }, unique: true, name: 'item_discoveries_item' },
  { collection: COLLECTIONS.itemMetadata, key: { ...SCOPE, itemId: 1, ordinal: 1 }, unique: true, name: 'item_metadata_item' },
  { collection: COLLECTIONS.itemMetadata, key: { ...SCOPE, key: 1, value: 1, itemId: 1 }, unique: false, name: 'item_metadata_value' },
  { collection: COLLECTIONS.meta, key: { ...SCOPE, key: 1 }, unique: true, name: 'meta_key' },
  {
    collection: COLLECTIONS.modelExtractionCache,
    key: { ...SCOPE, passageHash: 1, modelId: 1, promptVersion: 1 },
    unique: true,
    name: 'model_extraction_cache_key',
  },
  { collection: COLLECTIONS.modelExtractionCache, key: { ...SCOPE, itemId: 1 }, unique: false, name: 'model_extraction_cache_item' },
];

/**
 * Store-wide indexes for the one cross-scope question (storeWideQueries.ts): does any item or
 * version of any workspace still refer to these bytes. They hold hashes only, and are read only by
 * a count; without them that question would scan every item on the server.
 */
export const BLOB_REFERENCE_INDEXES: readonly IndexSpec[] = [
  { collection: COLLECTIONS.items, key: { contentHash: 1 }, unique: false, name: 'store_wide_item_hash' },
  { collection: COLLECTIONS.items, key: { 'versions.contentHash': 1 }, unique: false, name: 'store_wide_version_hash' },
];
