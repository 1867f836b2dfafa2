// Which pending relationships need no review: those the documents themselves state, by a link an
// author wrote, with nothing else a person would have to check. Similarity and shared phrases
// only say the two linked pages are about the same thing, which the link already says; a shared
// name, a figure that agrees or disagrees, an identical copy, a shared metadata value or a model's
// opinion is a new statement, and brings the relationship to review. Nothing here confirms
// anything: a person may still confirm or reject such a relationship. One definition for the
// Proposals view, its badge and the command line.

import type { RelationshipView, SignalType } from './types.ts';

/** Signals that add nothing for a person to check beside a link. */
export const SAID_BY_THE_LINK: ReadonlySet<SignalType> = new Set(['document_link', 'semantic_similarity', 'shared_concept']);

export const LINKED_IN_THE_DOCUMENTS = 'Linked in the documents';

/** Pending, resting on a link, and on nothing beyond what the link already says. */
export function linkedInDocuments(relationship: Pick<RelationshipView, 'status' | 'signals'>): boolean {
  return (
    relationship.status === 'pending' &&
    relationship.signals.some((signal) => signal.type === 'document_link') &&
    relationship.signals.every((signal) => SAID_BY_THE_LINK.has(signal.type))
  );
}

/** Waiting for a person: pending, and not merely stated by a link. */
export function awaitingReview(relationship: Pick<RelationshipView, 'status' | 'signals'>): boolean {
  return relationship.status === 'pending' && !linkedInDocuments(relationship);
}
