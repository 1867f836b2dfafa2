// An item's relationships as quick-pick rows, for the search list's "relationships" button: each
// names the relationship as read from this item ("contradicts", "is updated by"), the item at the
// other end and where it is, the strength (not a probability) and whether a person reviewed it.
// Pure, so tested without VS Code.

import type { RelatedResult } from '../../shared/protocol.ts';
import type { ItemRef, RelationshipView } from '../../shared/types.ts';
import { typeVerb } from '../../shared/wording.ts';
import { plainText } from './searchRows.ts';

export interface RelationshipRow {
  label: string;
  description: string;
  detail: string;
  relationship: RelationshipView;
}

const STATUS: Record<RelationshipView['status'], string> = {
  pending: 'suggested by analysis, not yet reviewed',
  confirmed: 'confirmed by a person',
  rejected: 'rejected by a person',
};

/** The relationship as read from `item`'s end ("contradicts", "is updated by") and the item at the other end. */
export function readFrom(item: ItemRef, relationship: RelationshipView): { phrase: string; other: ItemRef } {
  const fromHere = relationship.from.item_id === item.item_id;
  const other = fromHere ? relationship.to : relationship.from;
  const phrase = typeVerb(relationship.type, fromHere ? 'forward' : 'backward');
  return { phrase, other };
}

export const describeReview = (status: RelationshipView['status']): string => STATUS[status];

export function relationshipRows(related: RelatedResult): RelationshipRow[] {
  return related.relationships.map((relationship) => {
    const { phrase, other } = readFrom(related.item, relationship);
    return {
      label: plainText(`${phrase} ${other.title ?? other.path}`),
      description: `strength ${relationship.score.toFixed(2)} (not a probability) · ${STATUS[relationship.status]}`,
      detail: plainText(other.path),
      relationship,
    };
  });
}
