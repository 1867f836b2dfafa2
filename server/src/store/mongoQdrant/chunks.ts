// Passages on MongoDB, and each indexed item's lexical entry (its title and the start of its
// text, searched by lexicalSearch.ts). Both are replaced as a whole when an item is chunked again
// and dropped with everything else derived from the item's bytes.

import type { ChunkRecord } from '../contract.ts';
import type { ChunkDocument, ItemLexicalDocument } from './collections.ts';
import { chunkDocument, toChunkRecord } from './documents.ts';
import type { ScopedCollection } from './scope.ts';

/**
 * Characters of passage text sent in one insert: passages of a large document are written in
 * batches that stay far below MongoDB's 48 MB message limit (at most 3 bytes per character).
 */
const BATCH_CHARS = 4 * 2 ** 20;

export class Chunks {
  constructor(
    private readonly chunks: ScopedCollection<ChunkDocument>,
    private readonly lexical: ScopedCollection<ItemLexicalDocument>,
  ) {}

  async insert(contentHash: string, chunks: readonly ChunkRecord[]): Promise<void> {
    let batch: ReturnType<ScopedCollection<ChunkDocument>['document']>[] = [];
    let chars = 0;
    for (const chunk of chunks) {
      batch.push(this.chunks.document(chunkDocument(chunk, contentHash)));
      chars += chunk.text.length;
      if (chars >= BATCH_CHARS) {
        await this.chunks.insertMany(batch);
        batch = [];
        chars = 0;
      }
    }
    if (batch.length > 0) await this.chunks.insertMany(batch);
  }

  async removeOfItems(itemIds: readonly string[]): Promise<void> {
    if (itemIds.length > 0) await this.chunks.deleteMany(this.chunks.filter({ itemId: { $in: [...itemIds] } }));
  }

  /** The passages one chunking wrote of these bytes, taken back when the item changed under it. */
  async removeWritten(itemId: string, contentHash: string): Promise<void> {
    await this.chunks.deleteMany(this.chunks.filter({ itemId, contentHash }));
  }

  async list(itemId: string): Promise<ChunkRecord[]> {
    return (await this.chunks.find(this.chunks.filter({ itemId })).sort({ ordinal: 1 }).toArray()).map(toChunkRecord);
  }

  async count(): Promise<number> {
    return this.chunks.countDocuments(this.chunks.filter());
  }

  async byIds(chunkIds: readonly string[]): Promise<ChunkRecord[]> {
    if (chunkIds.length === 0) return [];
    return (await this.chunks.find(this.chunks.filter({ id: { $in: [...new Set(chunkIds)] } })).toArray()).map(toChunkRecord);
  }

  /** Which of these chunk ids are passages of this item now. */
  async ofItem(itemId: string, chunkIds: readonly string[]): Promise<Set<string>> {
    const found = await this.chunks
      .find(this.chunks.filter({ itemId, id: { $in: [...new Set(chunkIds)] } }), { projection: { id: 1 } })
      .toArray();
    return new Set(found.map((chunk) => chunk.id));
  }

  /**
   * Chunk ids of these items, by item, in ordinal order; items in the order given. With
   * `everyItem` (the ids are all the scope's live indexed items), the scope's passages are read
   * without listing the ids in the query, which for a large folder would outgrow a request.
   */
  async idsByItem(itemIds: readonly string[], everyItem = false): Promise<Map<string, string[]>> {
    const byItem = new Map<string, string[]>(itemIds.map((id) => [id, []]));
    if (itemIds.length === 0) return byItem;
    const cursor = this.chunks
      .find(this.chunks.filter(everyItem ? {} : { itemId: { $in: [...itemIds] } }), { projection: { id: 1, itemId: 1, ordinal: 1 } })
      .sort({ itemId: 1, ordinal: 1 });
    for await (const chunk of cursor) byItem.get(chunk.itemId)?.push(chunk.id);
    return byItem;
  }

  async writeLexical(itemId: string, title: string, text: string): Promise<void> {
    await this.lexical.updateOne(this.lexical.filter({ itemId }), { $set: { title, text } }, { upsert: true });
  }

  async removeLexical(itemIds: readonly string[]): Promise<void> {
    if (itemIds.length > 0) await this.lexical.deleteMany(this.lexical.filter({ itemId: { $in: [...itemIds] } }));
  }
}
