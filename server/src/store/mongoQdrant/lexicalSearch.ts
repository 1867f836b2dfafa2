// The two lexical paths on MongoDB: `$text` over each item's title and text, and over passage
// text, best first by text score (textQuery.ts says how the query is written and how the score
// maps to LexicalHit.bm25). The text indexes lead with the scope as an equality prefix
// (collections.ts), so MongoDB itself refuses a text search that does not name the scope.

import type { LexicalHit } from '../contract.ts';
import type { ChunkDocument, ItemLexicalDocument } from './collections.ts';
import type { ScopedCollection } from './scope.ts';
import { toTextSearch } from './textQuery.ts';

/** MongoDB's code for "text index required for $text query". */
const INDEX_NOT_FOUND = 27;

const BY_SCORE = { score: { $meta: 'textScore' }, _id: 1 } as const;

export async function searchItemsLexical(lexical: ScopedCollection<ItemLexicalDocument>, query: string, limit: number): Promise<LexicalHit[]> {
  const search = toTextSearch(query);
  if (!search || limit <= 0) return [];
  const hits = await withIndex(lexical.name, () =>
    lexical
      .find(lexical.filter({ $text: { $search: search } }), { projection: { itemId: 1, score: { $meta: 'textScore' } } })
      .sort(BY_SCORE)
      .limit(limit)
      .toArray(),
  );
  return hits.map((hit) => ({ id: hit.itemId, itemId: hit.itemId, bm25: (hit as unknown as { score: number }).score }));
}

export async function searchChunksLexical(chunks: ScopedCollection<ChunkDocument>, query: string, limit: number): Promise<LexicalHit[]> {
  const search = toTextSearch(query);
  if (!search || limit <= 0) return [];
  const hits = await withIndex(chunks.name, () =>
    chunks
      .find(chunks.filter({ $text: { $search: search } }), { projection: { id: 1, itemId: 1, score: { $meta: 'textScore' } } })
      .sort(BY_SCORE)
      .limit(limit)
      .toArray(),
  );
  return hits.map((hit) => ({ id: hit.id, itemId: hit.itemId, bm25: (hit as unknown as { score: number }).score }));
}

/** A store opened to read before any writer created the text indexes: search says so, and the other paths answer. */
async function withIndex<T>(collection: string, search: () => Promise<T>): Promise<T> {
  try {
    return await search();
  } catch (error) {
    if ((error as { code?: unknown }).code !== INDEX_NOT_FOUND) throw error;
    throw new Error(`collection ${collection} has no lexical index yet; run \`relata index\` to build it`, { cause: error });
  }
}
