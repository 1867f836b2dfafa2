// The title path: items whose title contains what was typed, as a person looking for a document
// by its name would expect. Unranked: a title either contains the query or it does not.

import type { WorkspaceStore } from '../store/contract.ts';
import type { PathResult } from './paths.ts';

/** Shorter text matches too many titles by accident ("a", "of"). */
const MIN_LENGTH = 3;

export async function titlePath(store: WorkspaceStore, query: string, depth: number): Promise<PathResult> {
  const text = query.trim().replace(/\s+/g, ' ');
  const ids = text.length >= MIN_LENGTH ? await store.searchTitles(text, depth) : [];
  return { path: 'title', hits: ids.map((itemId) => ({ itemId, rank: 0, score: 1 })) };
}
