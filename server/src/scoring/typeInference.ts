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
  /** The date each item states about itself (ISO), when it states one. */
  dateA?: string | null;
  dateB?: string | null;
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
  if (sharesEntity && evidence.dateA && evidence.dateB && evidence.dateA !== evidence.dateB) {
    return evidence.dateA < evidence.dateB ? 'occurred_before' : 'occurred_after';
  }
  if (sharesEntity) return 'mentions';
  return 'similar_to';
}
