// What extraction found in each item (entities, claims, key phrase counts) on MongoDB, and the
// record that an item's extraction is complete. storeExtraction writes the findings first and the
// completion record last: a crash in between leaves an item without the record, which
// itemsNeedingExtraction lists again, so the extraction is redone rather than half kept.

import type { EntityType, PhraseCount } from '../../records/extraction.ts';
import type { EntitySummary, ItemExtraction, ModelOutputEntry, PassageRef, StoredClaim, StoredEntity } from '../contract.ts';
import type { ClaimDocument, EntityDocument, ExtractionDocument, ItemDocument, ModelOutputDocument, PhraseDocument } from './collections.ts';
import { COLLECTIONS } from './collections.ts';
import { summariseMentions } from '../entitySummaries.ts';
import { claimDocument, entityDocument, phraseDocument, toPhraseCount, toStoredClaim, toStoredEntity } from './documents.ts';
import type { ScopedCollection, ScopedDb } from './scope.ts';

/** Findings written per insert: an item's extraction is capped (extract/caps.ts), but batches keep each request small anyway. */
const INSERT_BATCH = 5000;

export class Extraction {
  readonly entities: ScopedCollection<EntityDocument>;
  readonly claims: ScopedCollection<ClaimDocument>;
  readonly phrases: ScopedCollection<PhraseDocument>;
  readonly records: ScopedCollection<ExtractionDocument>;
  readonly modelCache: ScopedCollection<ModelOutputDocument>;
  private readonly items: ScopedCollection<ItemDocument>;

  constructor(db: ScopedDb) {
    this.entities = db.collection<EntityDocument>(COLLECTIONS.entities);
    this.claims = db.collection<ClaimDocument>(COLLECTIONS.claims);
    this.phrases = db.collection<PhraseDocument>(COLLECTIONS.itemPhrases);
    this.records = db.collection<ExtractionDocument>(COLLECTIONS.itemExtractions);
    this.modelCache = db.collection<ModelOutputDocument>(COLLECTIONS.modelExtractionCache);
    this.items = db.collection<ItemDocument>(COLLECTIONS.items);
  }

  /** Drop one producer's entities and claims (every producer's when null), the phrase counts and the completion record. */
  async drop(itemIds: readonly string[], producer: string | null): Promise<void> {
    if (itemIds.length === 0) return;
    const itemId = { $in: [...itemIds] };
    const byProducer = producer === null ? {} : { producer: producer as EntityDocument['producer'] };
    // The record first: findings without it are redone, never taken as complete.
    await this.records.deleteMany(this.records.filter({ itemId }));
    await this.entities.deleteMany(this.entities.filter({ itemId, ...byProducer }));
    await this.claims.deleteMany(this.claims.filter({ itemId, ...byProducer }));
    await this.phrases.deleteMany(this.phrases.filter({ itemId }));
  }

  /** Replace the findings of an item (every producer's); the caller has checked it still holds `contentHash`. */
  async store(itemId: string, contentHash: string, extraction: ItemExtraction): Promise<void> {
    await this.drop([itemId], null);
    await insertInBatches(this.entities, extraction.entities.map((entity) => this.entities.document(entityDocument(itemId, entity))));
    await insertInBatches(this.claims, extraction.claims.map((claim) => this.claims.document(claimDocument(itemId, claim))));
    await insertInBatches(this.phrases, extraction.phrases.map((phrase) => this.phrases.document(phraseDocument(itemId, phrase))));
    await this.records.updateOne(this.records.filter({ itemId }), {
        $set: {
          contentHash,
          versions: extraction.versions,
          capped: extraction.capped ?? null,
          language: extraction.language ?? null,
          passageLanguages: extraction.passageLanguages && Object.keys(extraction.passageLanguages).length > 0 ? extraction.passageLanguages : null,
        },
      }, { upsert: true });
  }

  /** Indexed live items without a complete extraction of their current bytes by these versions, in path order. */
  async itemsNeeding(versions: string): Promise<string[]> {
    const { workspace, folder } = this.items.scope;
    const rows = await this.items
      .aggregate<{ id: string }>([
        { $match: this.items.filter({ status: 'indexed', live: true }) },
        { $sort: { path: 1 } },
        {
          $lookup: {
            from: COLLECTIONS.itemExtractions,
            let: { itemId: '$id' },
            pipeline: [{ $match: { workspace, folder, $expr: { $eq: ['$itemId', '$$itemId'] } } }, { $project: { _id: 0, versions: 1, contentHash: 1 } }],
            as: 'extraction',
          },
        },
        { $project: { _id: 0, id: 1, contentHash: 1, extraction: { $first: '$extraction' } } },
        {
          $match: {
            $or: [
              { extraction: null },
              { $expr: { $ne: ['$extraction.versions', versions] } },
              { $expr: { $ne: ['$extraction.contentHash', '$contentHash'] } },
            ],
          },
        },
        { $project: { id: 1 } },
      ])
      .toArray();
    return rows.map((row) => row.id);
  }

  async languages(itemIds: readonly string[]): Promise<Map<string, string>> {
    const found = await this.records.find(this.records.filter({ itemId: { $in: [...itemIds] }, language: { $type: 'string' } })).toArray();
    return new Map(found.map((record) => [record.itemId, record.language!]));
  }

  async passageLanguages(itemIds: readonly string[]): Promise<Map<string, string>> {
    const found = await this.records.find(this.records.filter({ itemId: { $in: [...itemIds] }, passageLanguages: { $type: 'object' } })).toArray();
    return new Map(found.flatMap((record) => Object.entries(record.passageLanguages!)));
  }

  async listEntities(itemId: string): Promise<StoredEntity[]> {
    return (await this.entities.find(this.entities.filter({ itemId })).sort({ chunkId: 1, start: 1, _id: 1 }).toArray()).map(toStoredEntity);
  }

  async listClaims(itemId: string): Promise<StoredClaim[]> {
    return (await this.claims.find(this.claims.filter({ itemId })).sort({ chunkId: 1, start: 1, _id: 1 }).toArray()).map(toStoredClaim);
  }

  /** By the claims_item index (scope, itemId, chunkId, start), each item's in listClaims' order. */
  async claimsInPassages(passages: readonly PassageRef[]): Promise<StoredClaim[]> {
    if (passages.length === 0) return [];
    const itemIds = [...new Set(passages.map((passage) => passage.itemId))];
    const chunkIds = [...new Set(passages.map((passage) => passage.chunkId))];
    const found = this.claims.find(this.claims.filter({ itemId: { $in: itemIds }, chunkId: { $in: chunkIds } }));
    return (await found.sort({ itemId: 1, chunkId: 1, start: 1, _id: 1 }).toArray()).map(toStoredClaim);
  }

  /** Every entity key of the scope with its frequency, most frequent first (as the SQLite store's, from mentions grouped by key, type, surface, item). */
  async summaries(types?: readonly EntityType[]): Promise<EntitySummary[]> {
    const rows = this.entities.aggregate<{ _id: { key: string; type: EntityType; surface: string; itemId: string }; mentions: number; ruleFound: boolean }>(
      [
        { $match: this.entities.filter(types ? { type: { $in: [...types] } } : {}) },
        {
          $group: {
            _id: { key: '$key', type: '$type', surface: '$surface', itemId: '$itemId' },
            mentions: { $sum: 1 },
            ruleFound: { $max: { $eq: ['$producer', 'deterministic'] } },
          },
        },
      ],
      { allowDiskUse: true },
    );
    return summariseMentions(
      (async function* () {
        for await (const { _id: group, mentions, ruleFound } of rows) yield { ...group, mentions, ruleFound };
      })(),
    );
  }

  /** Cached model replies for these passages under one model and prompt version, by passage hash. */
  async cachedModelOutputs(passageHashes: readonly string[], modelId: string, promptVersion: string): Promise<Map<string, string>> {
    const outputs = new Map<string, string>();
    if (passageHashes.length === 0) return outputs;
    const found = this.modelCache.find(this.modelCache.filter({ passageHash: { $in: [...new Set(passageHashes)] }, modelId, promptVersion }));
    for await (const document of found) outputs.set(document.passageHash, document.output);
    return outputs;
  }

  async cacheModelOutput(entry: ModelOutputEntry): Promise<void> {
    const { passageHash, modelId, promptVersion } = entry;
    await this.modelCache.updateOne(
      this.modelCache.filter({ passageHash, modelId, promptVersion }),
      { $set: { output: entry.output, itemId: entry.itemId, createdAt: new Date().toISOString() } },
      { upsert: true },
    );
  }

  /** A model's reply quotes the passage it read: forgetting an item forgets the replies about its passages. */
  async forgetModelOutputsOf(itemIds: readonly string[]): Promise<void> {
    await this.modelCache.deleteMany(this.modelCache.filter({ itemId: { $in: [...itemIds] } }));
  }

  async listPhrases(itemId: string): Promise<PhraseCount[]> {
    return (await this.phrases.find(this.phrases.filter({ itemId })).sort({ count: -1, key: 1 }).toArray()).map(toPhraseCount);
  }

  async phraseDocumentFrequencies(keys: readonly string[]): Promise<Map<string, number>> {
    const frequencies = new Map<string, number>();
    for (const key of keys) frequencies.set(key, await this.phrases.countDocuments(this.phrases.filter({ key })));
    return frequencies;
  }

  /** Those of `keys` that some entity of the scope still carries (alias housekeeping after a forget). */
  async mentionedKeys(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    return new Set((await this.entities.distinct('key', this.entities.filter({ key: { $in: [...new Set(keys)] } }))) as string[]);
  }
}

async function insertInBatches<T extends { workspace: string; folder: string }>(
  collection: ScopedCollection<T>,
  documents: ReturnType<ScopedCollection<T>['document']>[],
): Promise<void> {
  for (let start = 0; start < documents.length; start += INSERT_BATCH) await collection.insertMany(documents.slice(start, start + INSERT_BATCH));
}
