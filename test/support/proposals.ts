// A discovery proposal as the store tests write one: a `similar_to` pair under v1, with the signals
// the test is about. The rest of the record is what discovery fills in and no such test looks at.

import type { SignalView } from '../../shared/types.ts';
import type { RelationshipProposal } from '../../server/src/store/contract.ts';

export function similarProposal(from: string, to: string, score: number, signals: SignalView[]): RelationshipProposal {
  return {
    fromItemId: from,
    toItemId: to,
    type: 'similar_to',
    score,
    proposedScore: score,
    scoreVersion: 'relationship-score-v1',
    nearDuplicate: false,
    signals,
    producedBy: 'discover@1',
  };
}
