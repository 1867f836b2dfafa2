// relationship-score-v1: the weights and factors of relationship strength as they were first
// published. Kept, untouched, beside later versions: `relata scoring --version v1` prints it, and
// a store scored under it can be read against the numbers that made its scores. A new scoring
// version is a new file beside this one (v2.ts), never an edit here.

import type { SignalType } from '../../../shared/types.ts';
import type { ScoreConstants } from './constants.ts';

/** The signals v1 knows; `document_link` and `shared_text` came with v2. */
export type V1SignalType = Exclude<SignalType, 'document_link' | 'shared_text'>;

export const SCORE_VERSION_V1 = 'relationship-score-v1';

/** How much each kind of evidence can contribute before diminishing returns. */
export const SIGNAL_WEIGHTS_V1: Readonly<Record<V1SignalType, number>> = Object.freeze({
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
export const DIMINISHING_FACTORS_V1: readonly number[] = Object.freeze([1.0, 0.5, 0.25]);

/** Cosine below this carries almost no information within one corpus; similarity is rebased against it. */
export const SIMILARITY_FLOOR_V1 = 0.55;

/** Concepts overlap by nature, so a shared concept starts at half the strength of a shared entity. */
export const CONCEPT_BASE_STRENGTH_V1 = 0.5;

/**
 * A name or figure found by the optional model stage counts at this share of the strength a rule's
 * would have: the model's text is checked to be in the passage, but whether it is a name at all,
 * or what the figure measures, is the model's reading. Model-found evidence also counts only on a
 * pair that rule-found evidence already carries to the minimum score (see discoverItem), so it can
 * shape a relationship and never create one.
 */
export const MODEL_FOUND_FACTOR_V1 = 0.5;

/** Documents dated this many days apart or more get no temporal_proximity. */
export const TEMPORAL_WINDOW_DAYS_V1 = 30;

/** v1 as one value, as the scoring page and `relata scoring` read every version. */
export const RELATIONSHIP_SCORE_V1: ScoreConstants = Object.freeze({
  version: SCORE_VERSION_V1,
  weights: SIGNAL_WEIGHTS_V1,
  diminishingFactors: DIMINISHING_FACTORS_V1,
  similarityFloor: SIMILARITY_FLOOR_V1,
  conceptBaseStrength: CONCEPT_BASE_STRENGTH_V1,
  modelFoundFactor: MODEL_FOUND_FACTOR_V1,
  // v1 knew no name guessed from capitals alone: what it reads counts whole.
  guessedNameFactor: 1,
  temporalWindowDays: TEMPORAL_WINDOW_DAYS_V1,
  // v1 rebases every pair's cosine against one floor, whatever the folder.
  similarityStanding: null,
  rules: Object.freeze({
    similarity: 'fixed_floor',
    concepts: 'most_frequent',
    claimsNeedTie: false,
    nearDuplicates: 'best_chunk_cosine',
    chronologyNeedsSpecificName: false,
    templateNamesDiscounted: false,
  }),
});
