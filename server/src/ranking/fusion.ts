// Fusion: the paths' hits become one ordering. Pure arithmetic over PathResults, per rank
// version, so the eval can re-fuse the same retrieval under another version or weight set.
//
// query-rank-v1 fuses by reciprocal rank (weight × 1/(60 + rank)): BM25 scores and cosines are
// on incomparable scales, rank positions are not. query-rank-v2 puts each path on a scale of its
// own (BM25 over the path's best, cosine rebased above a floor) and adds them with weights, which
// lets a weak path help where it is confident instead of dragging every list towards its order.

import type { SearchPath } from '../../../shared/types.ts';
import type { PathHit, PathResult } from './paths.ts';
import {
  AUX_SCALE_V2,
  MID_RANK,
  RANK_VERSION_V1,
  RANKED_PATHS,
  RRF_K,
  VECTOR_FLOOR_V2,
  WEIGHTS_V1,
  WEIGHTS_V2,
  type RankVersion,
} from './weights.ts';

export type Contributions = Partial<Record<SearchPath, number>>;

export interface FusedItem {
  itemId: string;
  /** Sum of the contributions, before normalisation. */
  total: number;
  contributions: Contributions;
  /** 0-1: total over the best total of this result set. */
  relevance: number;
}

/** How a version weighs and scales each path; v2's parameters can be varied by the eval's grid. */
export interface FusionParameters {
  version: RankVersion;
  weights: Readonly<Record<SearchPath, number>>;
  vectorFloor: number;
}

export function fusionParameters(version: RankVersion): FusionParameters {
  return version === RANK_VERSION_V1
    ? { version, weights: WEIGHTS_V1, vectorFloor: 0 }
    : { version, weights: WEIGHTS_V2, vectorFloor: VECTOR_FLOOR_V2 };
}

/** Paths that strengthen a match but are never a reason on their own to return an item. */
const SUPPORTING_PATHS: ReadonlySet<SearchPath> = new Set(['recency', 'confirmed_relationship']);

/** Cosine rebased above a floor: below it, no evidence; 1.0 stays 1.0. */
export function rebaseCosine(cosine: number, floor: number): number {
  return Math.max(0, (cosine - floor) / (1 - floor));
}

/** One path's contribution for one hit. `best` is the path's best raw score in this retrieval. */
export function contribution(parameters: FusionParameters, path: SearchPath, hit: PathHit, best: number): number {
  const weight = parameters.weights[path];
  if (parameters.version === RANK_VERSION_V1) {
    return RANKED_PATHS.has(path) ? weight / (RRF_K + hit.rank) : (weight * hit.score) / (RRF_K + MID_RANK);
  }
  if (path === 'vector') return weight * rebaseCosine(hit.score, parameters.vectorFloor);
  if (RANKED_PATHS.has(path)) return best > 0 ? (weight * hit.score) / best : 0;
  return weight * hit.score * AUX_SCALE_V2;
}

/**
 * Fuses the paths into one list, best first, normalised so that the best result is 1.00: a
 * relevance comparable within this result set, not across queries.
 */
export function fuse(parameters: FusionParameters, paths: readonly PathResult[]): FusedItem[] {
  const byItem = new Map<string, Contributions>();
  for (const { path, hits } of paths) {
    const best = Math.max(0, ...hits.map((hit) => hit.score));
    for (const hit of hits) {
      const value = contribution(parameters, path, hit, best);
      if (value <= 0) continue;
      const contributions = byItem.get(hit.itemId) ?? {};
      contributions[path] = (contributions[path] ?? 0) + value;
      byItem.set(hit.itemId, contributions);
    }
  }
  const fused: FusedItem[] = [];
  for (const [itemId, contributions] of byItem) {
    const fired = Object.keys(contributions) as SearchPath[];
    if (fired.every((path) => SUPPORTING_PATHS.has(path))) continue;
    const total = fired.reduce((sum, path) => sum + contributions[path]!, 0);
    fused.push({ itemId, total, contributions, relevance: 0 });
  }
  fused.sort((a, b) => b.total - a.total || (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0));
  const top = fused[0]?.total ?? 0;
  for (const item of fused) item.relevance = top > 0 ? item.total / top : 0;
  return fused;
}
