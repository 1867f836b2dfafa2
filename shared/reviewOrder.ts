// The review order of relationship types: what most needs a person's eye first (contradictions,
// then supports), the date-order types, the most numerous and least telling, last. One list for
// the Proposals view, its filter, the graph's legend and the requests' schemas, so a new type is
// added in one place.

import type { RelationshipType } from './types.ts';

export const REVIEW_ORDER: readonly RelationshipType[] = Object.freeze([
  'contradicts',
  'supports',
  'derived_from',
  'supersedes',
  'updates',
  'same_entity_as',
  'possibly_explains',
  'links_to',
  'similar_to',
  'mentions',
  'occurred_before',
  'occurred_after',
]);

/** Sorts types by REVIEW_ORDER; a type unknown to this build (a newer server) goes last, by name. */
export function byReviewOrder(a: string, b: string): number {
  const rank = (type: string) => {
    const at = REVIEW_ORDER.indexOf(type as RelationshipType);
    return at < 0 ? REVIEW_ORDER.length : at;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}
