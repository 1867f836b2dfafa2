// What the extract stage finds in a passage, with where it found it and who found it. Every
// result is labelled by its producer: deterministic rules here; a language model later, which
// may add results but never overrides or deletes a deterministic one.

export type { ClaimKind, EntityType, Producer } from '../../../shared/types.ts';
export type { ExtractedClaim as Claim, ExtractedEntity as Entity } from '../../../shared/types.ts';

/** A candidate key phrase of an item, before weighting against the workspace. */
export interface PhraseCount {
  /** Normalised phrase (lower case, singular head), the concept key. */
  key: string;
  /** The most frequent surface form, for display. */
  phrase: string;
  count: number;
}
