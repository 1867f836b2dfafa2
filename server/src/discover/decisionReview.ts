// A decision is about what the person saw. Each confirmation or rejection records its basis: the
// type and the decisive evidence at that moment (for contradicts/supports, the claims and the
// figures compared; otherwise the kinds of evidence present). When rediscovery changes what was
// decided on, a confirmation no longer applies and the relationship returns to review, scored
// without it; a rejection stays (a rejected pair is never re-proposed) but says that the evidence
// changed, so the person can look again. Pure: the store evaluates it inside its write.

import type { ChangedSinceDecision, RelationshipType, SignalView } from '../../../shared/types.ts';
import { signalName, typeName } from '../../../shared/wording.ts';
import { decisionSignal, scoreSignals } from '../scoring/index.ts';
import type { BasisEvidence, DecisionBasis, RelationshipRecord, ReviewedProposal, ReviewRule } from '../store/contract.ts';

const CLAIM_TYPES: ReadonlySet<RelationshipType> = new Set(['contradicts', 'supports']);

const isDecision = (signal: SignalView) => signal.type === 'user_confirmation' || signal.type === 'user_rejection';
const isClaim = (signal: SignalView) => signal.type === 'claim_support' || signal.type === 'claim_contradiction';

/** The signals that are evidence, without a person's decision. */
export const evidenceOf = (signals: readonly SignalView[]): SignalView[] => signals.filter((signal) => !isDecision(signal));

/**
 * "42000 and 51500" from "… for cost: 42,000 and 51,500. Relata does not decide …"
 * (extract/claims/compare.ts). Thousands separators are dropped, so a decision recorded before
 * figures were grouped still matches the same figures written "42,000".
 */
function figuresOf(detail: string): string | null {
  return /: (.+?)\.(?:\s|$)/.exec(detail)?.[1]?.replace(/(\d),(?=\d{3}(?!\d))/g, '$1') ?? null;
}

/**
 * What a decision is made on. A model's opinion and what the model stage found are left out: they
 * are present only on runs that asked a model, and switching a model on or off must not send a
 * person's confirmation back to review.
 */
export function decisionBasis(type: RelationshipType, signals: readonly SignalView[]): DecisionBasis {
  return { type, evidence: CLAIM_TYPES.has(type) ? claimEvidence(signals) : kindEvidence(signals) };
}

function claimEvidence(signals: readonly SignalView[]): BasisEvidence[] {
  return signals
    .filter((signal) => isClaim(signal) && !signal.found_by_model)
    .map((signal) => ({ signal: signal.type, value: signal.value, figures: figuresOf(signal.detail) }));
}

function kindEvidence(signals: readonly SignalView[]): BasisEvidence[] {
  const kinds = evidenceOf(signals)
    .filter((signal) => !signal.found_by_model)
    .map((signal) => signal.type)
    .filter((kind) => kind !== 'model_classification');
  return [...new Set(kinds)].sort().map((signal) => ({ signal, value: '', figures: null }));
}

const sameEvidence = (a: BasisEvidence, b: BasisEvidence) => a.signal === b.signal && a.value === b.value && a.figures === b.figures;
const versus = (figures: string | null) => (figures ?? '').replace(' and ', ' vs ');

/** How one claim of the basis reads now, or null when it is as it was. */
function claimChange(was: BasisEvidence, now: readonly BasisEvidence[]): string | null {
  const same = now.filter((entry) => entry.value === was.value);
  if (same.some((entry) => sameEvidence(entry, was))) return null;
  const sameRelation = same.find((entry) => entry.signal === was.signal);
  if (sameRelation) return `${was.value} figures were ${was.figures}, now ${sameRelation.figures}`;
  const other = same[0];
  if (other && was.signal === 'claim_contradiction') return `${was.value} figures ${versus(was.figures)} now agree`;
  if (other) return `${was.value} figures now differ (${other.figures}; both were ${was.figures})`;
  return `${was.value} figures (${was.figures}) are no longer compared`;
}

/**
 * What changed between a decision's basis and the evidence now, in words. `withAdditions` also
 * names evidence that is new, which matters to a rejection (something new to look at) and not to
 * a confirmation (what was confirmed still holds).
 */
export function basisChanges(basis: DecisionBasis, type: RelationshipType, signals: readonly SignalView[], withAdditions: boolean): string[] {
  const changes: string[] = [];
  if (basis.type !== type) changes.push(`type was ${typeName(basis.type)}, now ${typeName(type)}`);
  const claimBasis = CLAIM_TYPES.has(basis.type);
  const now = claimBasis ? claimEvidence(signals) : kindEvidence(signals);
  for (const was of basis.evidence) {
    if (claimBasis) {
      const change = claimChange(was, now);
      if (change) changes.push(change);
    } else if (!now.some((entry) => entry.signal === was.signal)) {
      changes.push(`${signalName(was.signal)} evidence is gone`);
    }
  }
  if (withAdditions) {
    for (const entry of now) {
      if (claimBasis ? basis.evidence.some((was) => was.value === entry.value) : basis.evidence.some((was) => was.signal === entry.signal)) continue;
      if (!claimBasis) changes.push(`new evidence: ${signalName(entry.signal)}`);
      else if (entry.signal === 'claim_contradiction') changes.push(`new: ${entry.value} figures differ (${entry.figures})`);
      else changes.push(`new: ${entry.value} figures agree (${entry.figures})`);
    }
  }
  return changes;
}

/** The decision's own signal, rebuilt from who decided and their note, so it is never lost. */
function standingDecision(current: RelationshipRecord, status: 'confirmed' | 'rejected'): SignalView {
  return decisionSignal(status, current.decidedBy ?? 'a person', current.note);
}

const sameChange = (a: ChangedSinceDecision | null, b: ChangedSinceDecision | null) => JSON.stringify(a) === JSON.stringify(b);

/** The review rule discovery hands the store (contract.ts ReviewRule). */
export const reviewAgainstDecision: ReviewRule = (evidence, current): ReviewedProposal => {
  const undecided = { decidedBy: null, decidedAt: null, note: null, decisionBasis: null };
  if (!current) return { ...evidence, ...undecided, status: 'pending', changedSinceDecision: null, event: 'proposed' };
  if (current.status === 'pending') {
    return { ...evidence, ...undecided, status: 'pending', changedSinceDecision: current.changedSinceDecision, event: 'updated' };
  }
  // A decision made before bases were recorded is taken to be about the evidence it stands on.
  const basis = current.decisionBasis ?? decisionBasis(current.type, current.signals);
  const decided = { decidedBy: current.decidedBy, decidedAt: current.decidedAt, note: current.note, decisionBasis: basis };
  const decision = {
    decision: current.status,
    decided_by: current.decidedBy ?? 'a person',
    decided_at: current.decidedAt ?? current.updatedAt,
    note: current.note,
  };

  if (current.status === 'rejected') {
    // Never re-proposed: the rejected evidence stays as it was; only a material change is noted.
    const changes = basisChanges(basis, evidence.type, evidenceOf(evidence.signals), true);
    const changedSinceDecision = changes.length > 0 ? { ...decision, changes } : null;
    return {
      fromItemId: current.fromItemId,
      toItemId: current.toItemId,
      type: current.type,
      score: current.score,
      proposedScore: current.proposedScore,
      scoreVersion: current.scoreVersion,
      nearDuplicate: current.nearDuplicate,
      signals: current.signals,
      producedBy: current.producedBy,
      ...decided,
      status: 'rejected',
      changedSinceDecision,
      event: changedSinceDecision && !sameChange(changedSinceDecision, current.changedSinceDecision) ? 'evidence_changed' : 'updated',
    };
  }

  const changes = basisChanges(basis, evidence.type, evidenceOf(evidence.signals), false);
  if (changes.length > 0) {
    return { ...evidence, ...undecided, status: 'pending', changedSinceDecision: { ...decision, changes }, event: 'returned_to_review' };
  }
  const signals = [...evidenceOf(evidence.signals), standingDecision(current, 'confirmed')];
  return { ...evidence, ...decided, signals, score: scoreSignals(signals).score, status: 'confirmed', changedSinceDecision: null, event: 'updated' };
};
