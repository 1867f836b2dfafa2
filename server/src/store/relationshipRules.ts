// The rules every backend keeps for relationships alike, so the SQLite store and the MongoDB
// store derive the same ids, pair keys and redactions, and read a decision's evidence the same
// way: one relationship per unordered pair, its id a hash of workspace and pair.

import { createHash } from 'node:crypto';
import type { SignalType, SignalView } from '../../../shared/types.ts';
import type { RelationshipProposal, RelationshipRecord } from './contract.ts';

/**
 * Signals whose value or detail quotes a document: a name, a phrase, a figure, a date. When one of
 * the two documents is forgotten they keep their type, strength and weight (the score stays
 * explainable) and lose the words. Similarity, identical bytes, a model's type and a person's
 * decision quote nothing from the document and stay as they were.
 */
const QUOTING_SIGNALS: ReadonlySet<SignalType> = new Set([
  'shared_entity',
  'alias_entity',
  'claim_support',
  'claim_contradiction',
  'shared_concept',
  'temporal_proximity',
  'shared_metadata',
]);

/** A person's decision as a signal: not evidence about the pair. */
export const DECISION_SIGNALS: ReadonlySet<SignalType> = new Set(['user_confirmation', 'user_rejection']);

export const FORGOTTEN_VALUE = '(forgotten)';

export function redactQuotes(signals: SignalView[]): SignalView[] {
  return signals.map((signal) =>
    QUOTING_SIGNALS.has(signal.type)
      ? { ...signal, value: FORGOTTEN_VALUE, detail: 'One of the two documents was forgotten (relata forget); what this signal quoted from it was removed.' }
      : signal,
  );
}

export const pairKey = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

/**
 * Derived from the pair's item ids, and written once, when the pair is first proposed: the pair
 * keeps its id through every reprocess and rediscovery in this store, and no two pairs share one.
 * Item ids are random (a file's identity in this store, not its path or bytes), so another store
 * over the same folder gives the same pair another id: match relationships across stores by the
 * two items' paths, not by id.
 */
export function relationshipId(workspace: string, key: string): string {
  return `rel_${createHash('sha256').update(`${workspace}\n${key}`).digest('hex').slice(0, 16)}`;
}

/** The record's evidence as discovery would propose it: every signal but a person's decision. */
export function evidenceOf(record: RelationshipRecord): RelationshipProposal {
  return {
    fromItemId: record.fromItemId,
    toItemId: record.toItemId,
    type: record.type,
    score: record.proposedScore,
    proposedScore: record.proposedScore,
    scoreVersion: record.scoreVersion,
    nearDuplicate: record.nearDuplicate,
    signals: record.signals.filter((signal) => !DECISION_SIGNALS.has(signal.type)),
    producedBy: record.producedBy,
  };
}
