// What every relationship-score version defines: its name, a weight per signal it knows, and the
// factors its signal builders read. Each version is one file of these (v1.ts, v2.ts).

import type { SignalType } from '../../../shared/types.ts';

/**
 * How a version reads the evidence between two items, beyond its numbers: v1's rules, or v2's
 * rules judged within the folder (docs/SCORING.md gives each and the measurement behind it).
 */
export interface EvidenceRules {
  /** `fixed_floor`: cosine rebased against one floor; `within_folder`: against each item's own distribution in the folder. */
  similarity: 'fixed_floor' | 'within_folder';
  /** `most_frequent`: an item's most frequent phrases; `tf_idf`: the phrases that set it apart in the folder. */
  concepts: 'most_frequent' | 'tf_idf';
  /** Figures are compared only on a pair a specific shared subject already ties (a rare name, an identifier, a link). */
  claimsNeedTie: boolean;
  /** `best_chunk_cosine`: flagged by the cosine of the closest windows; `shared_text`: by the overlap of the texts' word shingles. */
  nearDuplicates: 'best_chunk_cosine' | 'shared_text';
  /** Chronology needs a specific shared name and a date each item states about an event. */
  chronologyNeedsSpecificName: boolean;
  /** A name in the same place across a set of files (header, footer, sign-off) is the template's, not evidence. */
  templateNamesDiscounted: boolean;
}

export interface ScoreConstants {
  version: string;
  /** How much each kind of evidence can contribute before diminishing returns; a signal a version does not know is absent. */
  weights: Readonly<Partial<Record<SignalType, number>>>;
  /** Repeated signals of one type count by these factors, then nothing. */
  diminishingFactors: readonly number[];
  /** Cosine below this carries almost no information; similarity is rebased against it. */
  similarityFloor: number;
  /** A shared concept's strength before the frequency discount. */
  conceptBaseStrength: number;
  /** The share of a rule's strength a name or figure the model stage found counts for. */
  modelFoundFactor: number;
  /** The share of its strength a shared name counts for when the rules only guessed it from capitals (a product or tool name, entities/names.ts). */
  guessedNameFactor: number;
  /** Documents dated this many days apart or more get no temporal_proximity. */
  temporalWindowDays: number;
  /**
   * Where a pair's similarity is judged within the folder: how many spreads above what is
   * ordinary for both items it starts to count (`from`) and counts fully (`full`); null when a
   * version rebases against the fixed floor alone.
   */
  similarityStanding: { from: number; full: number } | null;
  rules: EvidenceRules;
}
