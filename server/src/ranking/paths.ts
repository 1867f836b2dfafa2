// What a retrieval path hands to fusion: per item, its place in the path's own ordering (for the
// ranked paths), its raw score on the path's own scale, the passage that earned it and what an
// explanation needs to say about it. Paths never see each other's scores; fusion combines them.

import type { EntityType, SearchPath } from '../../../shared/types.ts';
import type { RelationshipRecord } from '../store/contract.ts';

export interface EntityMatch {
  /** As the item writes it, e.g. "Example Ltd". */
  surface: string;
  type: EntityType;
  key: string;
  /** Only the model stage found this name in the item (no rule did). */
  byModel?: boolean;
}

export interface PathHit {
  itemId: string;
  /** 1-based position among distinct items in a ranked path's ordering; 0 for unranked paths. */
  rank: number;
  /** BM25 for lexical paths, cosine for the vector path, a 0-1 strength for the others. */
  score: number;
  /** The passage behind the hit, when the path knows it. */
  chunkId?: string;
  /** Entity path: the entities the query names that this item mentions. */
  entities?: EntityMatch[];
  /** Expansion and confirmed bonus: the relationship followed, and the matching item at its other end. */
  relationship?: RelationshipRecord;
  seedItemId?: string;
  /** Recency: days since the current version was first seen. */
  ageDays?: number;
}

export interface PathResult {
  path: SearchPath;
  hits: PathHit[];
}

/**
 * Turns passage-level hits (best first) into item-level hits: an item takes the place and
 * score of its best passage, and ranks count distinct items.
 */
export function rankByItem(
  path: SearchPath,
  passages: readonly { itemId: string; chunkId: string; score: number }[],
): PathResult {
  const hits: PathHit[] = [];
  const seen = new Set<string>();
  for (const passage of passages) {
    if (seen.has(passage.itemId)) continue;
    seen.add(passage.itemId);
    hits.push({ itemId: passage.itemId, rank: hits.length + 1, score: passage.score, chunkId: passage.chunkId });
  }
  return { path, hits };
}
