// The sum behind a relationship's strength, as lines a person can check with a pencil: each
// signal's strength × weight × repeat factor (the diminishing returns of relationship-score-v1),
// the sum, and the cap. The factors and contributions are the server's own (scoring/score.ts via
// the relationships request), shown to the four decimals the store keeps, so the lines add up to
// the stored strength exactly.

import type { SignalContribution } from '../../../shared/protocol.ts';
import type { RelationshipView } from '../../../shared/types.ts';
import { signalName } from '../../../shared/wording.ts';

/** A stored number as stored: at most four decimals, no trailing zeros. */
const stored = (value: number) => String(Number(value.toFixed(4)));
const fixed = (value: number) => value.toFixed(4);

export function strengthArithmetic(relationship: Pick<RelationshipView, 'signals' | 'score' | 'score_version'>, contributions: readonly SignalContribution[] | undefined): string[] {
  const heading = `Strength ${fixed(relationship.score)} (${relationship.score_version}; a heuristic 0-1 strength, not a probability)`;
  if (!contributions || contributions.length !== relationship.signals.length) {
    return [heading, ...relationship.signals.map((signal) => `  ${signalName(signal.type)} ${signal.value}: strength ${stored(signal.strength)} × weight ${stored(signal.weight)}`)];
  }
  const lines = relationship.signals.map((signal, index) => {
    const share = contributions[index]!;
    const repeat = share.factor === 1 ? '' : share.factor === 0 ? ' (repeat beyond the third: counts nothing)' : ' (repeat of its type)';
    return `  ${stored(signal.strength)} × ${stored(signal.weight)} × ${stored(share.factor)} = ${fixed(share.contribution)}  ${signalName(signal.type)}: ${signal.value}${repeat}`;
  });
  const sum = contributions.reduce((total, share) => total + share.contribution, 0);
  const capped = Math.min(1, Math.max(0, sum));
  const total =
    sum > 1 ? `  sum ${fixed(sum)}, capped at 1 → ${fixed(capped)}` : sum < 0 ? `  sum ${fixed(sum)}, floored at 0 → ${fixed(capped)}` : `  sum = ${fixed(sum)}`;
  const drift = fixed(capped) === fixed(relationship.score) ? [] : [`  the stored strength ${fixed(relationship.score)} differs from this sum (scored under another version?)`];
  return [heading, 'strength × weight × repeat factor = contribution', ...lines, total, ...drift];
}
