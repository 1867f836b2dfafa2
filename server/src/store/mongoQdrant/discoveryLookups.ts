// The look-ups relationship discovery is allowed on MongoDB, as sqlite/discoveryQueries.ts: each
// bounded by an index and a limit, so discovering one item costs the same in a small workspace
// and a large one. Also the bookkeeping of which items discovery has seen, under which basis.

import type { DiscoveryFacts, EntityMentionContext } from '../contract.ts';
import type { ChunkDocument, DiscoveryDocument, ItemDocument } from './collections.ts';
import { COLLECTIONS } from './collections.ts';
import { toPhraseCount, toStoredClaim, toStoredEntity } from './documents.ts';
import type { Extraction } from './extraction.ts';
import type { ItemMetadata } from './itemMetadata.ts';
import { distinctLiveItems } from './liveItems.ts';
import type { VectorMaintenance } from './hooks.ts';
import type { ScopedCollection, ScopedDb } from './scope.ts';

/** Items discovery weighs: live, and indexed or a copy (a copy's relationships are its original's evidence). */
const DISCOVERABLE = { live: true, status: { $in: ['indexed', 'duplicate'] } } as const;

export class DiscoveryLookups {
  private readonly items: ScopedCollection<ItemDocument>;
  readonly records: ScopedCollection<DiscoveryDocument>;
  private readonly chunks: ScopedCollection<ChunkDocument>;

  constructor(
    db: ScopedDb,
    private readonly extraction: Extraction,
    private readonly metadata: ItemMetadata,
    private readonly vectors: () => Promise<Pick<VectorMaintenance, 'vectorsOfItems'>>,
  ) {
    this.items = db.collection<ItemDocument>(COLLECTIONS.items);
    this.records = db.collection<DiscoveryDocument>(COLLECTIONS.itemDiscoveries);
    this.chunks = db.collection<ChunkDocument>(COLLECTIONS.chunks);
  }

  async itemsNeedingDiscovery(basis: string): Promise<string[]> {
    const { workspace, folder } = this.items.scope;
    const rows = await this.items
      .aggregate<{ id: string }>([
        { $match: this.items.filter({ ...DISCOVERABLE, contentHash: { $ne: null } }) },
        { $sort: { path: 1 } },
        {
          $lookup: {
            from: COLLECTIONS.itemDiscoveries,
            let: { itemId: '$id', hash: '$contentHash' },
            pipeline: [
              {
                $match: {
                  workspace,
                  folder,
                  basis,
                  $expr: { $and: [{ $eq: ['$itemId', '$$itemId'] }, { $eq: ['$contentHash', '$$hash'] }] },
                },
              },
              { $project: { _id: 1 } },
            ],
            as: 'seen',
          },
        },
        { $match: { seen: { $size: 0 } } },
        { $project: { _id: 0, id: 1 } },
      ])
      .toArray();
    return rows.map((row) => row.id);
  }

  async recordDiscovery(itemId: string, contentHash: string, basis: string, now: string): Promise<void> {
    await this.records.updateOne(this.records.filter({ itemId }), { $set: { contentHash, basis, discoveredAt: now } }, { upsert: true });
  }

  /** Forget what discovery saw, so the next run recomputes these items, or all when null. */
  async resetDiscovery(itemIds: readonly string[] | null): Promise<void> {
    if (itemIds === null) await this.records.deleteMany(this.records.filter());
    else if (itemIds.length > 0) await this.records.deleteMany(this.records.filter({ itemId: { $in: [...itemIds] } }));
  }

  /** Insertion order (`_id`), as SQLite's `items.seq`. */
  async itemsWithContentHash(contentHash: string, exceptItemId: string, limit: number): Promise<string[]> {
    if (limit <= 0) return []; // a cursor's limit(0) means no limit at all
    const rows = await this.items
      .find(this.items.filter({ ...DISCOVERABLE, contentHash, id: { $ne: exceptItemId } }), { projection: { id: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return rows.map((row) => row.id);
  }

  /**
   * How many items mention each key, counting no further than `cap`. Read from the key index alone:
   * a deleted item has no entities (a tombstone drops its extraction before it marks the item).
   */
  async entityItemCounts(keys: readonly string[], cap: number): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const key of new Set(keys)) {
      const n = await this.distinctItemCount(this.extraction.entities, key, cap);
      if (n > 0) counts.set(key, n);
    }
    return counts;
  }

  private async distinctItemCount(collection: Extraction['entities'], key: string, cap: number): Promise<number> {
    if (cap <= 0) return 0;
    const [row] = await collection
      .aggregate<{ n: number }>([
        { $match: collection.filter({ key }) },
        { $group: { _id: '$itemId' } },
        { $limit: cap },
        { $count: 'n' },
      ])
      .toArray();
    return row?.n ?? 0;
  }

  /** How many items have each phrase among their key phrases, counting no further than `cap`. */
  async phraseItemCounts(keys: readonly string[], cap: number): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const phrases = this.extraction.phrases;
    for (const key of new Set(keys)) counts.set(key, cap <= 0 ? 0 : await phrases.countDocuments(phrases.filter({ key }), { limit: cap }));
    return counts;
  }

  async itemsMentioning(key: string, exceptItemId: string, limit: number): Promise<string[]> {
    if (limit <= 0) return []; // as SQLite's LIMIT 0 ($limit must be positive)
    const entities = this.extraction.entities;
    return this.liveItemsOf(entities.aggregate<{ _id: string }>(distinctLiveItems(this.items.scope, entities.filter({ key, itemId: { $ne: exceptItemId } }), limit)));
  }

  /** Items with a claim of the same kind, attribute and unit: the only claims a comparison can match. */
  async itemsWithClaimsOn(kind: string, attribute: string, unit: string | null, exceptItemId: string, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    const claims = this.extraction.claims;
    const filter = claims.filter({ kind: kind as never, attribute, unit, itemId: { $ne: exceptItemId } });
    return this.liveItemsOf(claims.aggregate<{ _id: string }>(distinctLiveItems(this.items.scope, filter, limit)));
  }

  private async liveItemsOf(cursor: AsyncIterable<{ _id: string }>): Promise<string[]> {
    const ids: string[] = [];
    for await (const row of cursor) ids.push(row._id);
    return ids;
  }

  /**
   * Mentions of a key with up to `reach` characters of their passage either side, as SQLite's
   * entityMentionContexts: the first `limit` mentions by item (in `itemIds` only, when given), then
   * their passages by id, in document order.
   */
  async entityMentionContexts(key: string, itemIds: readonly string[] | null, reach: number, limit: number): Promise<EntityMentionContext[]> {
    if (limit <= 0) return [];
    const entities = this.extraction.entities;
    const filter = itemIds === null ? { key } : { key, itemId: { $in: [...new Set(itemIds)] } };
    const mentions = await entities.find(entities.filter(filter), { projection: { itemId: 1, chunkId: 1, start: 1, end: 1 } }).sort({ itemId: 1 }).limit(limit).toArray();
    const passages = new Map<string, { ordinal: number; text: string }>();
    const chunkIds = [...new Set(mentions.map((mention) => mention.chunkId))];
    for await (const chunk of this.chunks.find(this.chunks.filter({ id: { $in: chunkIds } }), { projection: { id: 1, ordinal: 1, text: 1 } })) {
      passages.set(chunk.id, { ordinal: chunk.ordinal, text: chunk.text });
    }
    return mentions
      .filter((mention) => passages.has(mention.chunkId))
      .sort((a, b) => compare(a.itemId, b.itemId) || passages.get(a.chunkId)!.ordinal - passages.get(b.chunkId)!.ordinal || a.start - b.start)
      .map((mention) => {
        const text = passages.get(mention.chunkId)!.text;
        return { itemId: mention.itemId, before: text.slice(Math.max(0, mention.start - reach), mention.start), after: text.slice(mention.end, mention.end + reach) };
      });
  }

  /**
   * Everything discovery weighs for a batch of items, a few queries for the whole batch: entities
   * in document order (passage, then offset), claims, the most frequent key phrases, the item's
   * metadata and the vectors of one model.
   */
  async facts(itemIds: readonly string[], modelId: string | null, phraseLimit: number): Promise<Map<string, DiscoveryFacts>> {
    const facts = new Map<string, DiscoveryFacts>(itemIds.map((id) => [id, { entities: [], claims: [], phrases: [], vectors: [], metadata: [] }]));
    if (itemIds.length === 0) return facts;
    const ids = { $in: [...new Set(itemIds)] };
    const { entities, claims, phrases } = this.extraction;

    const entityDocuments = await entities.find(entities.filter({ itemId: ids })).toArray();
    const ordinals = new Map<string, number>();
    const chunkIds = [...new Set(entityDocuments.map((entity) => entity.chunkId))];
    for await (const chunk of this.chunks.find(this.chunks.filter({ id: { $in: chunkIds } }), { projection: { id: 1, ordinal: 1 } })) {
      ordinals.set(chunk.id, chunk.ordinal);
    }
    // As SQLite's join with chunks: an entity of a passage that is gone is not weighed.
    const placed = entityDocuments.filter((entity) => ordinals.has(entity.chunkId));
    placed.sort((a, b) => compare(a.itemId, b.itemId) || ordinals.get(a.chunkId)! - ordinals.get(b.chunkId)! || a.start - b.start);
    for (const entity of placed) facts.get(entity.itemId)?.entities.push(toStoredEntity(entity));

    for await (const claim of claims.find(claims.filter({ itemId: ids })).sort({ itemId: 1, chunkId: 1, start: 1, _id: 1 })) {
      facts.get(claim.itemId)?.claims.push(toStoredClaim(claim));
    }

    for await (const phrase of phrases.find(phrases.filter({ itemId: ids })).sort({ itemId: 1, count: -1, key: 1 })) {
      const list = facts.get(phrase.itemId)?.phrases;
      if (list && list.length < phraseLimit) list.push(toPhraseCount(phrase));
    }

    for (const [id, entries] of await this.metadata.ofItems(itemIds)) {
      const entry = facts.get(id);
      if (entry) entry.metadata = entries;
    }

    if (modelId) {
      for (const [id, vectors] of await (await this.vectors()).vectorsOfItems(itemIds, modelId)) {
        const entry = facts.get(id);
        if (entry) entry.vectors = vectors;
      }
    }
    return facts;
  }
}

/** Byte order of UTF-8 for the ASCII ids the store makes; code unit order otherwise, as SQLite's BINARY. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
