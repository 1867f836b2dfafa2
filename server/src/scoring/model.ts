// The live scoring model: which relationship-score version discovery uses (v2), its numbers
// under the names the signal builders and screens read, and the thresholds. Each version's
// numbers live in a file of their own (v1.ts, v2.ts); changing any number is a new version, a new
// file beside the old ones (docs/SCORING.md says how).

import type { ScoringModelView } from '../../../shared/protocol.ts';
import type { SignalType } from '../../../shared/types.ts';
import type { ScoreConstants } from './constants.ts';
import { RELATIONSHIP_SCORE_V1 } from './v1.ts';
import { RELATIONSHIP_SCORE_V2 } from './v2.ts';

export type { EvidenceRules, ScoreConstants } from './constants.ts';

/** Every version Relata can print, oldest first; the last is the one discovery scores with. */
export const SCORE_VERSIONS: readonly ScoreConstants[] = Object.freeze([RELATIONSHIP_SCORE_V1, RELATIONSHIP_SCORE_V2]);

/** The version discovery scores with unless told otherwise (settings.scoreVersion, RELATA_SCORE_VERSION). */
const CURRENT = RELATIONSHIP_SCORE_V2;
export const LIVE_SCORE_VERSION: ScoreConstants = CURRENT;

export const SCORE_VERSION = CURRENT.version;
export const SIGNAL_WEIGHTS: Readonly<Record<SignalType, number>> = CURRENT.weights;
export const DIMINISHING_FACTORS: readonly number[] = CURRENT.diminishingFactors;
export const SIMILARITY_FLOOR = CURRENT.similarityFloor;
export const CONCEPT_BASE_STRENGTH = CURRENT.conceptBaseStrength;
export const MODEL_FOUND_FACTOR = CURRENT.modelFoundFactor;
export const GUESSED_NAME_FACTOR = CURRENT.guessedNameFactor;
export const TEMPORAL_WINDOW_DAYS = CURRENT.temporalWindowDays;

/** The version named `v1`, `v2` or in full (`relationship-score-v1`); null when there is none. */
export function scoreVersion(name: string): ScoreConstants | null {
  const wanted = name.trim().toLowerCase();
  return SCORE_VERSIONS.find((version) => version.version === wanted || version.version.endsWith(`-${wanted}`)) ?? null;
}

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

/**
 * The live scoring model, as the settings request and `relata scoring` show it: the protocol's
 * ScoringModelView before the request lists each threshold with its variable and adds the ranking
 * model, and with the version's own frozen weights and factors.
 */
export type ScoringModel = Omit<ScoringModelView, 'weights' | 'diminishing_factors' | 'thresholds' | 'rank_version' | 'path_weights'> & {
  weights: Readonly<Partial<Record<SignalType, number>>>;
  diminishing_factors: readonly number[];
  thresholds: Thresholds;
};

/** The scoring model as shown: the live version unless another is asked for (`relata scoring --version v1`). */
export function scoringModel(thresholds: Thresholds, version: ScoreConstants = CURRENT): ScoringModel {
  return {
    score_version: version.version,
    weights: version.weights,
    diminishing_factors: version.diminishingFactors,
    similarity_floor: version.similarityFloor,
    concept_base_strength: version.conceptBaseStrength,
    model_found_factor: version.modelFoundFactor,
    guessed_name_factor: version.guessedNameFactor,
    temporal_window_days: version.temporalWindowDays,
    evidence_rules: evidenceRuleLines(version),
    versions: SCORE_VERSIONS.map((known) => known.version),
    thresholds,
  };
}

/** The version's evidence rules in plain words, as `relata scoring` and the Scoring page show them. */
export function evidenceRuleLines(version: ScoreConstants): string[] {
  const { rules } = version;
  const standing = version.similarityStanding;
  return [
    standing && rules.similarity === 'within_folder'
      ? `similarity is judged within the folder: it counts from ${standing.from} spreads above what is typical for both items ` +
        `(each item's median cosine to a sample of its folder), fully at ${standing.full}, and never above max(0, (cosine − ${version.similarityFloor}) / ${(1 - version.similarityFloor).toFixed(2)})`
      : `similarity strength = max(0, (cosine − ${version.similarityFloor}) / ${(1 - version.similarityFloor).toFixed(2)})`,
    rules.concepts === 'tf_idf'
      ? 'concepts compared are the phrases that set an item apart in the folder (tf-idf); phrases in most files never count'
      : "concepts compared are each item's most frequent phrases",
    rules.claimsNeedTie
      ? 'figures and directions are compared only on a pair tied by a specific shared name, identifier or link'
      : 'figures are compared on any pair that states one about the same attribute',
    rules.nearDuplicates === 'shared_text'
      ? 'near-copies and drafts are read from shared five-word sequences (never when a negation, a direction or a figure differs); a copy never corroborates its original'
      : 'near-duplicates are flagged by the cosine of the closest passages',
    rules.chronologyNeedsSpecificName
      ? 'occurred_before/after needs a specific shared name and dates of events'
      : 'occurred_before/after needs a shared name and a date in each item',
    rules.templateNamesDiscounted
      ? 'a name or phrase standing in the same place across a set of files (a template) is not evidence'
      : 'names in templates count as any shared name',
  ];
}
