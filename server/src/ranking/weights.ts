// Every number query relevance depends on, in one place: the rank versions, each path's weight,
// the fusion constants and the expansion thresholds. Code, tests and docs/SEARCH.md read them
// from here; changing one means a new rank version (docs/SEARCH.md says how).

import type { SearchPath } from '../../../shared/types.ts';

/** The design's fusion (SEARCH_AND_SCORING.md §3): reciprocal rank, every path as specified. */
export const RANK_VERSION_V1 = 'query-rank-v1';
/** Convex combination of normalised scores, weights earned on SciFact's train claims (docs/SEARCH.md). */
export const RANK_VERSION_V2 = 'query-rank-v2';
export const RANK_VERSIONS = [RANK_VERSION_V1, RANK_VERSION_V2] as const;
export type RankVersion = (typeof RANK_VERSIONS)[number];
export const DEFAULT_RANK_VERSION: RankVersion = RANK_VERSION_V2;

/** query-rank-v1's path weights, exactly as the design's table. */
export const WEIGHTS_V1: Readonly<Record<SearchPath, number>> = {
  lexical_items: 1.0,
  lexical_chunks: 1.0,
  vector: 1.0,
  entity: 0.6,
  title: 0.5,
  expansion: 0.35,
  confirmed_relationship: 0.25,
  recency: 0.15,
};

/** The paths whose hits come in an order of their own; the others say only whether (and how strongly) they fired. */
export const RANKED_PATHS: ReadonlySet<SearchPath> = new Set(['lexical_items', 'lexical_chunks', 'vector']);

/** Reciprocal-rank constant: contribution = weight × 1 / (RRF_K + rank). */
export const RRF_K = 60;

/**
 * An unranked path (entity, title, expansion, the confirmed bonus, recency) counts as a hit at
 * this rank of a ranked path, scaled by its strength: it augments the ranked paths rather than
 * swamping them (a top lexical hit is worth 1/61, this 1/70).
 */
export const MID_RANK = 10;

/**
 * query-rank-v2: each ranked path's score is normalised on its own scale (BM25 divided by the
 * path's best score; cosine rebased above a floor, as relationship scoring rebases it) and the
 * fused score is their weighted sum. The weights were chosen on SciFact's 809 train claims only
 * (`npm run eval:scifact -- --tune`); the test claims were not looked at.
 */
export const WEIGHTS_V2: Readonly<Record<SearchPath, number>> = {
  lexical_items: 1.0,
  lexical_chunks: 0.25,
  vector: 0.3,
  // The unranked paths keep the design's proportions, valued as a mid-ranked hit (AUX_SCALE_V2).
  entity: 0.6,
  title: 0.5,
  expansion: 0.35,
  confirmed_relationship: 0.25,
  recency: 0.15,
};

/** Cosine below this carries no evidence of relevance in v2 (unrelated passages sit around it). */
export const VECTOR_FLOOR_V2 = 0.3;

/** In v2, an unranked path's strength is scaled to what a mid-ranked lexical hit scores (about half the best). */
export const AUX_SCALE_V2 = 0.5;

/** Half-life of the recency path: an item's recency strength halves every 180 days. */
export const RECENCY_HALF_LIFE_DAYS = 180;

/** Hits each ranked path retrieves before fusion (also the deepest a search can page). */
export const CANDIDATE_DEPTH = 100;

/**
 * Results looked at, per result asked for, when collapsing near-duplicates: enough that a
 * document with a few copies and drafts does not cost the list its other documents.
 */
export const COLLAPSE_DEPTH = 3;

export interface ExpansionSettings {
  /** Relationships are followed only from this many of the best direct matches (RELATA_SEARCH_MAX_EXPANDED_ITEMS). */
  maxSeeds: number;
  /** Relationships weaker than this are not followed (RELATA_SEARCH_EXPANSION_MIN_SCORE). */
  minScore: number;
  /** Follow only relationships a person confirmed. */
  confirmedOnly: boolean;
}

export const DEFAULT_MAX_EXPANDED_ITEMS = 5;
export const DEFAULT_EXPANSION_MIN_SCORE = 0.45;

export function expansionSettingsFromEnv(confirmedOnly: boolean, env: NodeJS.ProcessEnv = process.env): ExpansionSettings {
  const seeds = Number(env.RELATA_SEARCH_MAX_EXPANDED_ITEMS);
  const minScore = Number(env.RELATA_SEARCH_EXPANSION_MIN_SCORE);
  return {
    maxSeeds: env.RELATA_SEARCH_MAX_EXPANDED_ITEMS && Number.isInteger(seeds) && seeds >= 0 ? seeds : DEFAULT_MAX_EXPANDED_ITEMS,
    minScore: env.RELATA_SEARCH_EXPANSION_MIN_SCORE && minScore >= 0 && minScore <= 1 ? minScore : DEFAULT_EXPANSION_MIN_SCORE,
    confirmedOnly,
  };
}

export function isRankVersion(value: string): value is RankVersion {
  return (RANK_VERSIONS as readonly string[]).includes(value);
}
