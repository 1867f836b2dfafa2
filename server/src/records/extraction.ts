// What the extract stage finds and the store keeps: entities and claims (typed once in
// shared/types.ts, since the editor shows them too) and an item's candidate key phrases. Defined
// below both, so the store keeps extraction without depending on the extractors.

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
