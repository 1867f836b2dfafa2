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

/**
 * Resting on a link, and on nothing beyond what the link already says, whatever the review status.
 * The SQLite store keeps it in a column of each relationship (`linked`, written with its signals),
 * so the Proposals view's units are counted from an index: a change to SAID_BY_THE_LINK needs a
 * migration that computes the column again.
 */
export function restsOnLinks(signals: readonly { type: SignalType }[]): boolean {
  return signals.some((signal) => signal.type === 'document_link') && signals.every((signal) => SAID_BY_THE_LINK.has(signal.type));
}

/** Pending, resting on a link, and on nothing beyond what the link already says. */
export function linkedInDocuments(relationship: Pick<RelationshipView, 'status' | 'signals'>): boolean {
  return relationship.status === 'pending' && restsOnLinks(relationship.signals);
}

/** Waiting for a person: pending, and not merely stated by a link. */
export function awaitingReview(relationship: Pick<RelationshipView, 'status' | 'signals'>): boolean {
  return relationship.status === 'pending' && !linkedInDocuments(relationship);
}
