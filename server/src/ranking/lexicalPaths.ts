// The two lexical paths: BM25 over whole items (title and extracted text) and BM25 over passages.
// Both are the store's full-text indexes, scoped to the workspace; an item's place in the passage
// path is its best passage's place.

import type { WorkspaceStore } from '../store/contract.ts';
import { rankByItem, type PathResult } from './paths.ts';

export async function lexicalItemsPath(store: WorkspaceStore, query: string, depth: number): Promise<PathResult> {
  const hits = await store.searchItemsLexical(query, depth);
  return { path: 'lexical_items', hits: hits.map((hit, index) => ({ itemId: hit.itemId, rank: index + 1, score: hit.bm25 })) };
}

/** Passages are fetched twice as deep as items, so that `depth` distinct items usually remain. */
export async function lexicalChunksPath(store: WorkspaceStore, query: string, depth: number): Promise<PathResult> {
  const hits = await store.searchChunksLexical(query, depth * 2);
  return rankByItem('lexical_chunks', hits.map((hit) => ({ itemId: hit.itemId, chunkId: hit.id, score: hit.bm25 })));
}
