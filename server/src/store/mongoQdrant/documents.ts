// Documents of the MongoDB collections as the contract's records, and back. Pure functions, one
// place for each mapping, so every read of a chunk, an entity or a claim (the item's own, a
// discovery batch, a search result) gives the same record the SQLite store gives (sqlite/rows.ts).

import type { PhraseCount } from '../../records/extraction.ts';
import { BLOCK_SEPARATOR, withJoinedText, type ParsedDocument } from '../../records/document.ts';
import type { ChunkRecord, ItemRecord, ItemVersionRecord, StoredClaim, StoredEntity } from '../contract.ts';
import { claimFields, entityFields } from '../extractionFields.ts';
import { ITEM_INDEX_MAX_CHARS } from '../sqlite/itemText.ts';
import type {
  ChunkDocument,
  ClaimDocument,
  EntityDocument,
  ItemDocument,
  ParsedTextStream,
  PhraseDocument,
  VersionDocument,
} from './collections.ts';

type Unscoped<T> = Omit<T, 'workspace' | 'folder'>;

export function toItemRecord(document: ItemRecord): ItemRecord {
  return {
    id: document.id,
    path: document.path,
    title: document.title,
    status: document.status,
    reason: document.reason,
    duplicateOf: document.duplicateOf,
    contentHash: document.contentHash,
    size: document.size,
    version: document.version,
    parserVersion: document.parserVersion,
    flags: [...document.flags],
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
    deletedAt: document.deletedAt,
    forgottenAt: document.forgottenAt,
  };
}

/** An item's document (the scope is added by the collection): the record, whether it is live, and its versions. */
export function itemDocument(record: ItemRecord, versions: readonly ItemVersionRecord[] = []): Unscoped<ItemDocument> {
  return { ...toItemRecord(record), live: record.deletedAt === null, versions: versions.map(versionDocument), followUp: null, rev: 0 };
}

export const versionDocument = (version: ItemVersionRecord): VersionDocument => ({
  version: version.version,
  contentHash: version.contentHash,
  size: version.size,
  createdAt: version.createdAt,
});

/** The item's versions, oldest first. */
export function toVersionRecords(document: Pick<ItemDocument, 'versions'>): ItemVersionRecord[] {
  return [...document.versions].sort((a, b) => a.version - b.version).map(versionDocument);
}

export function chunkDocument(chunk: ChunkRecord, contentHash: string): Unscoped<ChunkDocument> {
  return {
    id: chunk.id,
    itemId: chunk.itemId,
    ordinal: chunk.ordinal,
    text: chunk.text,
    headingPath: [...chunk.headingPath],
    location: chunk.location,
    wordCount: chunk.wordCount,
    contentHash,
  };
}

export function toChunkRecord(document: Unscoped<ChunkDocument>): ChunkRecord {
  return {
    id: document.id,
    itemId: document.itemId,
    ordinal: document.ordinal,
    text: document.text,
    headingPath: [...document.headingPath],
    location: document.location,
    wordCount: document.wordCount,
  };
}

export const entityDocument = (itemId: string, entity: Omit<StoredEntity, 'itemId'>): Unscoped<EntityDocument> => entityFields(itemId, entity);

/** As sqlite/rows.ts toEntity: `value` is present only when the entity has one. */
export function toStoredEntity(document: Unscoped<EntityDocument>): StoredEntity {
  return {
    itemId: document.itemId,
    chunkId: document.chunkId,
    type: document.type,
    surface: document.surface,
    key: document.key,
    ...(document.value === null ? {} : { value: document.value }),
    start: document.start,
    end: document.end,
    producer: document.producer,
    extractorVersion: document.extractorVersion,
  };
}

export const claimDocument = (itemId: string, claim: Omit<StoredClaim, 'itemId'>): Unscoped<ClaimDocument> => claimFields(itemId, claim);

export function toStoredClaim(document: Unscoped<ClaimDocument>): StoredClaim {
  return {
    itemId: document.itemId,
    chunkId: document.chunkId,
    kind: document.kind,
    subject: document.subject,
    attribute: document.attribute,
    value: document.value,
    unit: document.unit,
    text: document.text,
    start: document.start,
    end: document.end,
    entityKeys: [...document.entityKeys],
    producer: document.producer,
    extractorVersion: document.extractorVersion,
  };
}

export const phraseDocument = (itemId: string, phrase: PhraseCount): Unscoped<PhraseDocument> => ({
  itemId,
  key: phrase.key,
  phrase: phrase.phrase,
  count: phrase.count,
});

export const toPhraseCount = (document: Pick<PhraseDocument, 'key' | 'phrase' | 'count'>): PhraseCount => ({
  key: document.key,
  phrase: document.phrase,
  count: document.count,
});

// Parsed documents ---------------------------------------------------------------------------

/**
 * UTF-16 code units per stored part: at most 3 bytes each in UTF-8, so a part stays under 6 MiB,
 * well inside MongoDB's 16 MiB document limit.
 */
export const PART_CHARS = 2 * 2 ** 20;

/**
 * A long text cut into parts of at most `size` code units, never between the two halves of a
 * surrogate pair (a lone half would be stored as U+FFFD and the text would not come back).
 */
export function splitText(text: string, size = PART_CHARS): string[] {
  if (size < 2) throw new Error(`a part holds at least 2 code units, not ${size}`);
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

/**
 * What is stored of a parsed document, as texts: its blocks (what the chunk stage reads, as the
 * SQLite store's getStoredBlocks returns them), the rest of the document without its derived
 * `text` (sqlite/itemText.ts explains why), its heading texts (listHeadings, without reading the
 * blocks) and its item-level lexical text (written to the lexical index when the item is indexed).
 * A document that carries its own `text` (one imported from an older store) keeps it in `rest`.
 */
export function parsedTextStreams(document: ParsedDocument | (Omit<ParsedDocument, 'text'> & { text?: string }), keepText = false): Record<ParsedTextStream, string> {
  const restKeys = Object.keys(document).filter((key) => key !== 'blocks' && (keepText || key !== 'text')) as (keyof ParsedDocument)[];
  const rest = Object.fromEntries(restKeys.map((key) => [key, document[key]]));
  return {
    blocks: JSON.stringify(document.blocks),
    rest: JSON.stringify(rest),
    headings: JSON.stringify(document.structure.headings.map((heading) => heading.text)),
    indexText: itemIndexText(document),
  };
}

/** The item's text as its lexical index receives it: the first ITEM_INDEX_MAX_CHARS, joined from the blocks without building the whole text. */
export function itemIndexText(document: Pick<ParsedDocument, 'blocks'> & { text?: string }): string {
  const given = Object.getOwnPropertyDescriptor(document, 'text');
  if (given && 'value' in given && typeof given.value === 'string') return given.value.slice(0, ITEM_INDEX_MAX_CHARS);
  const pieces: string[] = [];
  let length = 0;
  for (const block of document.blocks) {
    if (length >= ITEM_INDEX_MAX_CHARS) break;
    const piece = pieces.length > 0 ? BLOCK_SEPARATOR + block.text : block.text;
    pieces.push(piece);
    length += piece.length;
  }
  return pieces.join('').slice(0, ITEM_INDEX_MAX_CHARS);
}

/** The document back from its stored blocks and rest, its `text` joined when first read (parse/document.ts). */
export function loadParsedDocument(blocksJson: string, restJson: string): ParsedDocument {
  const rest = JSON.parse(restJson) as Omit<ParsedDocument, 'text' | 'blocks'> & { text?: string };
  return withJoinedText({ ...rest, blocks: JSON.parse(blocksJson) as ParsedDocument['blocks'] });
}
