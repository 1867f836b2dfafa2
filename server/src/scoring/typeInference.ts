// Which type a relationship gets, from its evidence, in the design's order: deterministic evidence
// outranks a model's opinion (and what the model stage found), and chronology yields only a chronological statement. Never
// `possibly_explains`, `updates` or `supersedes` from ordering alone: that would infer causation
// from sequence.

import type { RelationshipType, SignalView } from '../../../shared/types.ts';

/** Types a model may suggest but never establishes on its word alone. */
export const NEVER_FROM_MODEL_ALONE: ReadonlySet<RelationshipType> = new Set(['same_entity_as', 'supersedes', 'derived_from']);

export interface TypeEvidence {
  signals: readonly SignalView[];
  /** The type a model suggested, when a model classified the pair. */
  modelType?: RelationshipType | null;
  /**
   * The date of each item (ISO), when it has one: the first date it states, or, when
   * `chronologyNeedsSpecificName`, the first event date it states (an "event_date" claim).
   */
  dateA?: string | null;
  dateB?: string | null;
  /**
   * relationship-score-v2 (rule 7): chronology needs a specific shared name (SPECIFIC_NAME_STRENGTH)
   * and the callers pass event dates, so two files that only share a regulator every such file names
   * are not "occurred_before" each other.
   */
  chronologyNeedsSpecificName?: boolean;
}

/**
 * A shared name ties a pair in time only when few files give it: strength ≥ 0.5 after the frequency
 * discount keeps names at most three files mention (1 / (1 + ln 2) = 0.59; four files give 0.48). In
 * the 60 CUAD contracts, 7 of 15 proposals were `occurred_before` resting on regulators such
 * agreements name: the Securities and Exchange Commission is in 17 of the 60 files (0.27), the
 * FDIC and the Federal Reserve in 4 each (0.48). A name a person confirmed as an alias is specific.
 */
export const SPECIFIC_NAME_STRENGTH = 0.5;

/** Whether a signal is a shared name specific enough to date a pair by (rule 7). */
export function isSpecificName(signal: SignalView): boolean {
  if (signal.found_by_model) return false;
  if (signal.type === 'alias_entity') return true;
  return signal.type === 'shared_entity' && signal.strength >= SPECIFIC_NAME_STRENGTH;
}

/** The type of the relationship read from A to B ("A contradicts B", "A occurred_before B"). */
export function inferType(evidence: TypeEvidence): RelationshipType {
  // What the model stage found adds to the score but never sets the type: a figure the model read
  // wrongly must not make two documents "contradict".
  const has = (type: SignalView['type']) => evidence.signals.some((s) => s.type === type && !s.found_by_model);
  // Identical bytes, or (v2) near-copies by their text: a copy, whatever figures it repeats.
  if (has('content_hash_match') || has('shared_text')) return 'derived_from';
  if (has('claim_contradiction')) return 'contradicts';
  if (has('claim_support')) return 'supports';
  // A link is a person's statement that A refers to B: it outranks a model's opinion and chronology.
  if (has('document_link')) return 'links_to';
  if (evidence.modelType && !NEVER_FROM_MODEL_ALONE.has(evidence.modelType)) return evidence.modelType;
  const sharesEntity = has('shared_entity') || has('alias_entity');
  const datesTie = evidence.chronologyNeedsSpecificName ? evidence.signals.some(isSpecificName) : sharesEntity;
  if (datesTie && evidence.dateA && evidence.dateB && evidence.dateA !== evidence.dateB) {
    return evidence.dateA < evidence.dateB ? 'occurred_before' : 'occurred_after';
  }
  if (sharesEntity) return 'mentions';
  return 'similar_to';
}

/** Evidence that only dates a pair: how close the dates are and the names both give. */
const CHRONOLOGY_EVIDENCE: ReadonlySet<SignalView['type']> = new Set(['temporal_proximity', 'shared_entity', 'alias_entity']);

/** Not evidence about the pair's content: a model's opinion and a person's decision. */
const NOT_RULE_EVIDENCE: ReadonlySet<SignalView['type']> = new Set(['model_classification', 'user_confirmation', 'user_rejection']);

/** A chronological relationship whose only rule evidence is its dates and shared names (rule 7: such sort last). */
export function isChronologyOnly(type: RelationshipType, signals: readonly SignalView[]): boolean {
  if (type !== 'occurred_before' && type !== 'occurred_after') return false;
  return signals.every((signal) => NOT_RULE_EVIDENCE.has(signal.type) || CHRONOLOGY_EVIDENCE.has(signal.type));
}
