// What every relationship-score version defines: its name, a weight per signal it knows, and the
// factors its signal builders read. Each version is one file of these (v1.ts, v2.ts).

import type { SignalType } from '../../../shared/types.ts';

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
}
