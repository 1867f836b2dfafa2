// How a decision that the evidence has moved away from reads, the same words in the CLI, the
// hover, the Proposals tree and the relationship panel: "changed since you confirmed it (confirmed
// by ana on 2026-12-01, note: real overrun): type was contradicts, now supports; …".

import type { ChangedSinceDecision } from './types.ts';

/** The headline alone: what the person is asked to look at again. */
export function changeHeadline(change: ChangedSinceDecision): string {
  return change.decision === 'confirmed' ? 'changed since you confirmed it' : 'evidence changed since you rejected it';
}

/** How a decision's date reads: the CLI keeps the ISO day; the editor passes the user's locale (decisionDate.ts). */
export type DateText = (iso: string) => string;

const isoDay: DateText = (iso) => iso.slice(0, 10);

/** Who decided, when, and their note. */
export function changeDecision(change: ChangedSinceDecision, dateText: DateText = isoDay): string {
  const note = change.note ? `, note: ${change.note}` : '';
  return `${change.decision} by ${change.decided_by} on ${dateText(change.decided_at)}${note}`;
}

export function describeChangeSinceDecision(change: ChangedSinceDecision, dateText: DateText = isoDay): string {
  return `${changeHeadline(change)} (${changeDecision(change, dateText)}): ${change.changes.join('; ')}`;
}
