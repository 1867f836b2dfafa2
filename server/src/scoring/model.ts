// relationship-score-v1: the weights, factors and thresholds of relationship strength, in the one
// place code, docs and the settings page read them from. Changing any number here is a new
// scoring model: bump SCORE_VERSION (docs/SCORING.md says how).

import type { SignalType } from '../../../shared/types.ts';

export const SCORE_VERSION = 'relationship-score-v1';

/** How much each kind of evidence can contribute before diminishing returns. */
export const SIGNAL_WEIGHTS: Readonly<Record<SignalType, number>> = Object.freeze({
  content_hash_match: 0.45,
  semantic_similarity: 0.3,
  shared_entity: 0.25,
  claim_support: 0.22,
  claim_contradiction: 0.22,
  model_classification: 0.15,
  shared_concept: 0.12,
  alias_entity: 0.1,
  temporal_proximity: 0.1,
  shared_metadata: 0.08,
  user_confirmation: 1.0,
  user_rejection: -1.0,
});

/** Repeated signals of one type count 1.0, 0.5, 0.25, then nothing: breadth beats repetition. */
export const DIMINISHING_FACTORS: readonly number[] = Object.freeze([1.0, 0.5, 0.25]);

/** Cosine below this carries almost no information within one corpus; similarity is rebased against it. */
export const SIMILARITY_FLOOR = 0.55;

/** Concepts overlap by nature, so a shared concept starts at half the strength of a shared entity. */
export const CONCEPT_BASE_STRENGTH = 0.5;

/**
 * A name or figure found by the optional model stage counts at this share of the strength a rule's
 * would have: the model's text is checked to be in the passage, but whether it is a name at all,
 * or what the figure measures, is the model's reading. Model-found evidence also counts only on a
 * pair that rule-found evidence already carries to the minimum score (see discoverItem), so it can
 * shape a relationship and never create one.
 */
export const MODEL_FOUND_FACTOR = 0.5;

/** Documents dated this many days apart or more get no temporal_proximity. */
export const TEMPORAL_WINDOW_DAYS = 30;

export interface Thresholds {
  /** Below this a candidate is discarded before any model call. */
  minScore: number;
  /** At or above this a candidate is stored as a pending proposal. */
  storeScore: number;
  /** Best chunk cosine at or above this flags a likely near-duplicate (never merged). */
  nearDuplicateSimilarity: number;
}

export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({
  minScore: 0.18,
  storeScore: 0.25,
  nearDuplicateSimilarity: 0.94,
});

/** The environment variables that override each threshold. */
export const THRESHOLD_ENV: Readonly<Record<keyof Thresholds, string>> = Object.freeze({
  minScore: 'RELATA_REL_MIN_SCORE',
  storeScore: 'RELATA_REL_STORE_SCORE',
  nearDuplicateSimilarity: 'RELATA_NEAR_DUPLICATE_SIMILARITY',
});

/** The live scoring model, as the settings request and `relata scoring` show it. */
export interface ScoringModel {
  score_version: string;
  weights: Readonly<Record<SignalType, number>>;
  diminishing_factors: readonly number[];
  similarity_floor: number;
  concept_base_strength: number;
  model_found_factor: number;
  temporal_window_days: number;
  thresholds: Thresholds;
}

export function scoringModel(thresholds: Thresholds): ScoringModel {
  return {
    score_version: SCORE_VERSION,
    weights: SIGNAL_WEIGHTS,
    diminishing_factors: DIMINISHING_FACTORS,
    similarity_floor: SIMILARITY_FLOOR,
    concept_base_strength: CONCEPT_BASE_STRENGTH,
    model_found_factor: MODEL_FOUND_FACTOR,
    temporal_window_days: TEMPORAL_WINDOW_DAYS,
    thresholds,
  };
}
