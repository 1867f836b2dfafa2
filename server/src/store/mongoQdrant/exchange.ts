// Export and import (relata-export/1, exchange/records.ts) for the MongoDB + Qdrant store. The
// document side's kinds (meta, items and versions, parse results, passages, extraction, discovery)
// are read and written here; models and vectors, relationships and their history, and aliases by
// their own classes, in the format's kind order.
//
// An export streams each collection in insertion order (`_id`); it is not a snapshot: an indexer
// writing meanwhile can be half seen, so export a folder nobody is indexing. An import writes into
// a scope that holds nothing (checked first), kind by kind, in batches; without transactions a
// failed import leaves what it loaded, and running it again is refused as not empty: remove the
// scope's documents (or choose another folder key) and import again.

import {
  describeRecord,
  emptyCounts,
  EXCHANGE_KINDS,
  ImportTargetNotEmptyError,
  type ExchangeKind,
  type ExchangeRecord,
  type ImportCounts,
} from '../exchange/records.ts';
import type { ParsedDocument } from '../../records/document.ts';
import type { ParsedTextDocument, VersionDocument } from './collections.ts';
import { COLLECTIONS } from './collections.ts';
import { chunkDocument, claimDocument, entityDocument, itemDocument, phraseDocument, toChunkRecord, toItemRecord, toPhraseCount, toStoredClaim, toStoredEntity } from './documents.ts';
import type { MongoStoreParts } from './storeParts.ts';
import type { ScopedCollection } from './scope.ts';
import type { MongoVectorPoints } from './vectorPoints.ts';

/** Documents written per insert during an import. */
const IMPORT_BATCH = 1000;

type Vectors = () => Promise<MongoVectorPoints>;

/** Every record of the scope, kind by kind in EXCHANGE_KINDS order, each kind in insertion order. */
export async function* exportDocumentRecords(parts: MongoStoreParts, vectors: Vectors): AsyncGenerator<ExchangeRecord> {
  const { db, meta, itemDocuments, texts, chunkDocuments, extraction, relationships, aliases } = parts;
  for await (const entry of meta.find(meta.filter()).sort({ _id: 1 })) yield { record: 'meta', key: entry.key, value: entry.value };
  const vectorSide = await vectors();
  yield* vectorSide.exportModels();
  for await (const item of itemDocuments.find(itemDocuments.filter()).sort({ _id: 1 })) yield { record: 'item', ...toItemRecord(item) };
  // Versions by when they were recorded, as the rows of SQLite's item_versions were inserted.
  for await (const row of itemDocuments.aggregate<{ id: string; versions: VersionDocument }>(
    [
      { $match: itemDocuments.filter() },
      { $project: { _id: 1, id: 1, versions: 1 } },
      { $unwind: '$versions' },
      { $sort: { 'versions.createdAt': 1, _id: 1, 'versions.version': 1 } },
    ],
    { allowDiskUse: true },
  )) {
    const { version, contentHash, size, createdAt } = row.versions;
    yield { record: 'item_version', itemId: row.id, version, contentHash, size, createdAt };
  }
  const headers = db.collection<ParsedTextDocument>(COLLECTIONS.parsedTexts);
  for await (const header of headers.find(headers.filter(), { projection: { itemId: 1 } }).sort({ _id: 1 })) {
    const parsed = await texts.getStored(header.itemId);
    if (parsed) yield { record: 'parsed_text', itemId: header.itemId, ...parsed };
  }
  for await (const chunk of chunkDocuments.find(chunkDocuments.filter()).sort({ _id: 1 })) yield { record: 'chunk', ...toChunkRecord(chunk) };
  yield* vectorSide.exportVectors();
  for await (const entity of extraction.entities.find(extraction.entities.filter()).sort({ _id: 1 })) yield { record: 'entity', ...toStoredEntity(entity) };
  for await (const claim of extraction.claims.find(extraction.claims.filter()).sort({ _id: 1 })) yield { record: 'claim', ...toStoredClaim(claim) };
  for await (const phrase of extraction.phrases.find(extraction.phrases.filter()).sort({ _id: 1 })) {
    yield { record: 'phrase', itemId: phrase.itemId, ...toPhraseCount(phrase) };
  }
  for await (const done of extraction.records.find(extraction.records.filter()).sort({ _id: 1 })) {
    yield {
      record: 'extraction',
      itemId: done.itemId,
      contentHash: done.contentHash,
      versions: done.versions,
      ...(done.capped ? { capped: done.capped } : {}),
      ...(done.language ? { language: done.language } : {}),
      ...(done.passageLanguages ? { passageLanguages: done.passageLanguages } : {}),
    };
  }
  const discoveries = parts.discovery.records;
  for await (const seen of discoveries.find(discoveries.filter()).sort({ _id: 1 })) {
    yield { record: 'discovery', itemId: seen.itemId, contentHash: seen.contentHash, basis: seen.basis, discoveredAt: seen.discoveredAt };
  }
  yield* relationships.exportRelationships();
  yield* relationships.exportEvents();
  yield* aliases.exportAliases();
}

/** What an import into a scope that holds something would mix with, first found first. */
async function holdings(parts: MongoStoreParts, vectors: Vectors): Promise<string | null> {
  const { itemDocuments, meta, relationships, aliases, jobs } = parts;
  if (await itemDocuments.findOne(itemDocuments.filter(), { projection: { _id: 1 } })) return 'items';
  if (await meta.findOne(meta.filter(), { projection: { _id: 1 } })) return 'metadata entries';
  if (await (await vectors()).holdsRecords()) return 'embedding models or vectors';
  if (await relationships.holdsRecords()) return 'relationships or their history';
  if (await aliases.holdsRecords()) return 'entity aliases';
  if ((await jobs.jobCounts()).length > 0) return 'queued jobs';
  return null;
}

/** An item's facts the records after it need: the bytes its passages were cut from, whether it gets a lexical entry. */
interface ImportedItem {
  contentHash: string | null;
  title: string | null;
  live: boolean;
  indexed: boolean;
  hasChunks: boolean;
}

/** Loads records into a scope that holds nothing; refuses, before taking the first record, one that holds something. */
export async function importDocumentRecords(
  parts: MongoStoreParts,
  vectors: Vectors,
  records: AsyncIterable<ExchangeRecord>,
  where: string,
): Promise<ImportCounts> {
  const held = await holdings(parts, vectors);
  if (held) throw new ImportTargetNotEmptyError(parts.db.scope.workspace, where, held);
  const loader = new RecordLoader(parts, await vectors());
  for await (const record of records) await loader.load(record);
  await loader.finish();
  return loader.counts;
}

class RecordLoader {
  readonly counts = emptyCounts();
  private kindIndex = 0;
  private readonly items = new Map<string, ImportedItem>();
  private readonly batches = new Map<string, { collection: ScopedCollection<never>; documents: unknown[] }>();
  private readonly vectorImport;
  private readonly relationshipImport;
  private readonly aliasImport;

  constructor(
    private readonly parts: MongoStoreParts,
    vectors: MongoVectorPoints,
  ) {
    this.vectorImport = vectors.importer();
    this.relationshipImport = parts.relationships.importer();
    this.aliasImport = parts.aliases.importer();
  }

  async load(record: ExchangeRecord): Promise<void> {
    const index = EXCHANGE_KINDS.indexOf(record.record);
    if (index < 0) throw new Error(`unknown record kind ${JSON.stringify(record.record)}`);
    if (index < this.kindIndex) {
      throw new Error(`a ${record.record} record came after ${EXCHANGE_KINDS[this.kindIndex]} records: records must come in the format's kind order`);
    }
    if (index > this.kindIndex) await this.flushKind(EXCHANGE_KINDS[this.kindIndex]!);
    this.kindIndex = index;
    try {
      await this.insert(record);
    } catch (error) {
      throw new Error(`${describeRecord(record)} could not be loaded: ${(error as Error).message}`, { cause: error });
    }
    this.counts[record.record] += 1;
  }

  /** Queue a document of a collection; written a batch at a time, in the order given. */
  private async queue<T extends { workspace: string; folder: string }>(collection: ScopedCollection<T>, fields: Omit<T, 'workspace' | 'folder'>): Promise<void> {
    const batch = this.batches.get(collection.name) ?? { collection: collection as unknown as ScopedCollection<never>, documents: [] };
    this.batches.set(collection.name, batch);
    batch.documents.push(collection.document(fields as never));
    if (batch.documents.length >= IMPORT_BATCH) await this.flush(collection.name);
  }

  private async flush(name: string): Promise<void> {
    const batch = this.batches.get(name);
    if (!batch || batch.documents.length === 0) return;
    const documents = batch.documents;
    batch.documents = [];
    await batch.collection.insertMany(documents as never[], { ordered: true });
  }

  /** Everything of a kind is written before the next kind's first record (a later kind refers to it). */
  private async flushKind(kind: ExchangeKind): Promise<void> {
    for (const name of [...this.batches.keys()]) await this.flush(name);
    if (kind === 'vector' || kind === 'embedding_model') await this.vectorImport.finish();
    if (kind === 'relationship' || kind === 'relationship_event') await this.relationshipImport.finish();
    if (kind === 'alias') await this.aliasImport.finish();
  }

  private async insert(record: ExchangeRecord): Promise<void> {
    const { parts } = this;
    switch (record.record) {
      case 'meta':
        return this.queue(parts.meta, { key: record.key, value: record.value });
      case 'embedding_model':
      case 'vector':
        return this.vectorImport.add(record);
      case 'item': {
        const { record: _kind, ...item } = record;
        const live = item.deletedAt === null;
        this.items.set(item.id, { contentHash: item.contentHash, title: item.title, live, indexed: item.status === 'indexed', hasChunks: false });
        return this.queue(parts.itemDocuments, itemDocument(item));
      }
      case 'item_version': {
        // Items are all written by now (the kind before): a version joins its item's document.
        const version = { version: record.version, contentHash: record.contentHash, size: record.size, createdAt: record.createdAt };
        const updated = await parts.itemDocuments.updateOne(parts.itemDocuments.filter({ id: record.itemId }), { $push: { versions: version } });
        if (updated.matchedCount !== 1) throw new Error(`its item ${record.itemId} is not among the item records`);
        return;
      }
      case 'parsed_text': {
        const document = record.document as ParsedDocument;
        await parts.texts.write(record.itemId, { contentHash: record.contentHash, parserVersion: record.parserVersion, document }, typeof record.document.text === 'string');
        return;
      }
      case 'chunk': {
        const { record: _kind, ...chunk } = record;
        const item = this.items.get(chunk.itemId);
        if (item) item.hasChunks = true;
        return this.queue(parts.chunkDocuments, chunkDocument(chunk, item?.contentHash ?? ''));
      }
      case 'entity': {
        const { record: _kind, itemId, ...entity } = record;
        return this.queue(parts.extraction.entities, entityDocument(itemId, entity));
      }
      case 'claim': {
        const { record: _kind, itemId, ...claim } = record;
        return this.queue(parts.extraction.claims, claimDocument(itemId, claim));
      }
      case 'phrase':
        return this.queue(parts.extraction.phrases, phraseDocument(record.itemId, record));
      case 'extraction':
        return this.queue(parts.extraction.records, {
          itemId: record.itemId,
          contentHash: record.contentHash,
          versions: record.versions,
          ...(record.capped === undefined ? {} : { capped: record.capped }),
          ...(record.language === undefined ? {} : { language: record.language }),
          ...(record.passageLanguages === undefined ? {} : { passageLanguages: record.passageLanguages }),
        });
      case 'discovery':
        return this.queue(parts.discovery.records, { itemId: record.itemId, contentHash: record.contentHash, basis: record.basis, discoveredAt: record.discoveredAt });
      case 'relationship':
      case 'relationship_event':
        return this.relationshipImport.add(record);
      case 'alias':
        return this.aliasImport.add(record);
    }
  }

  /**
   * What is left is written, then the item-level lexical entries and metadata, built once every item, text and
   * passage is in: an item has one exactly while it is live and indexed or has passages (as the
   * SQLite store's import), from its title and its text's start.
   */
  async finish(): Promise<void> {
    await this.flushKind(EXCHANGE_KINDS[this.kindIndex]!);
    await this.vectorImport.finish();
    await this.relationshipImport.finish();
    await this.aliasImport.finish();
    for (const [itemId, item] of this.items) {
      if (!item.live || !(item.indexed || item.hasChunks)) continue;
      await this.parts.chunks.writeLexical(itemId, item.title ?? '', await this.parts.texts.indexText(itemId));
      await this.parts.metadata.write(itemId, await this.parts.texts.metadata(itemId));
    }
  }
}


