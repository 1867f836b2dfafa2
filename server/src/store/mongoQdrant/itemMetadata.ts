// The metadata each item gives itself on MongoDB, as the SQLite store's item_metadata table: one
// document per entry of the item's parse, kept exactly while the item has passages (replaceChunks
// writes them after its passages, dropping content removes them), so the (key, value) index alone
// counts the items sharing a value. Derived from the parsed document, which an export carries.

import { metadataValueKey, type MetadataEntry, type MetadataValue } from '../../records/document.ts';
import { COLLECTIONS, type ItemDocument, type MetadataDocument } from './collections.ts';
import { distinctLiveItems } from './liveItems.ts';
import type { ScopedCollection, ScopedDb } from './scope.ts';

export class ItemMetadata {
  private readonly entries: ScopedCollection<MetadataDocument>;
  private readonly items: ScopedCollection<ItemDocument>;

  constructor(db: ScopedDb) {
    this.entries = db.collection<MetadataDocument>(COLLECTIONS.itemMetadata);
    this.items = db.collection<ItemDocument>(COLLECTIONS.items);
  }

  /**
   * Replace the item's entries; an item's metadata is capped (parse/metadata.ts), so one insert
   * holds them. A value is kept once, so a count of documents is a count of items (a document
   * imported from a hand-edited export may repeat one).
   */
  async write(itemId: string, entries: readonly MetadataEntry[]): Promise<void> {
    await this.drop([itemId]);
    const seen = new Set<string>();
    const documents = entries.flatMap(({ key, value, label, text }, ordinal) => {
      if (seen.has(metadataValueKey({ key, value }))) return [];
      seen.add(metadataValueKey({ key, value }));
      return [this.entries.document({ itemId, ordinal, key, value, label, text })];
    });
    if (documents.length > 0) await this.entries.insertMany(documents);
  }

  async drop(itemIds: readonly string[]): Promise<void> {
    if (itemIds.length > 0) await this.entries.deleteMany(this.entries.filter({ itemId: { $in: [...itemIds] } }));
  }

  async list(itemId: string): Promise<MetadataEntry[]> {
    return (await this.entries.find(this.entries.filter({ itemId })).sort({ ordinal: 1 }).toArray()).map(toEntry);
  }

  /** The entries of these items, by item, each in the document's order. */
  async ofItems(itemIds: readonly string[]): Promise<Map<string, MetadataEntry[]>> {
    const byItem = new Map<string, MetadataEntry[]>();
    if (itemIds.length === 0) return byItem;
    for await (const entry of this.entries.find(this.entries.filter({ itemId: { $in: [...new Set(itemIds)] } })).sort({ itemId: 1, ordinal: 1 })) {
      byItem.set(entry.itemId, [...(byItem.get(entry.itemId) ?? []), toEntry(entry)]);
    }
    return byItem;
  }

  /** Items giving themselves each value, counting no further than `cap`, from the value index alone. */
  async itemCounts(values: readonly MetadataValue[], cap: number): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (cap <= 0) return counts;
    for (const { key, value } of values) {
      const n = await this.entries.countDocuments(this.entries.filter({ key, value }), { limit: cap });
      if (n > 0) counts.set(metadataValueKey({ key, value }), n);
    }
    return counts;
  }

  /** Live items giving themselves this value, other than `exceptItemId`, at most `limit`, in id order. */
  async itemsWith({ key, value }: MetadataValue, exceptItemId: string, limit: number): Promise<string[]> {
    if (limit <= 0) return []; // a cursor's limit(0) means no limit at all
    const rows = await this.entries
      .aggregate<{ _id: string }>(distinctLiveItems(this.items.scope, this.entries.filter({ key, value, itemId: { $ne: exceptItemId } }), limit))
      .toArray();
    return rows.map((row) => row._id);
  }
}

function toEntry(document: MetadataDocument): MetadataEntry {
  return { key: document.key, value: document.value, label: document.label, text: document.text };
}
