// How a decision that the evidence has moved away from reads, the same words in the CLI, the
// hover, the Proposals tree and the relationship panel: "changed since you confirmed it (confirmed
// by ana on 2026-12-01, note: real overrun): type was contradicts, now supports; …".

import type { ChangedSinceDecision } from './types.ts';

/** The headline alone: what the person is asked to look at again. */
export function changeHeadline(change: ChangedSinceDecision): string {
  return change.decision === 'confirmed' ? 'changed since you confirmed it' : 'evidence changed since you rejected it';
}

/** Who decided, when, and their note. */
export function changeDecision(change: ChangedSinceDecision): string {
  const note = change.note ? `, note: ${change.note}` : '';
  return `${change.decision} by ${change.decided_by} on ${change.decided_at.slice(0, 10)}${note}`;
}

export function describeChangeSinceDecision(change: ChangedSinceDecision): string {
  return `${changeHeadline(change)} (${changeDecision(change)}): ${change.changes.join('; ')}`;
}
