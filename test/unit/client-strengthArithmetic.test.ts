// The Proposals tooltip's sum: built from signals made by the scoring module's own builders and
// scored by its own scoreSignals (the stored strength), with the contributions the server sends
// (engine/relationshipDetail.ts). Read back from the tooltip text, the contributions add up to the
// stored strength exactly, repeat factors included; a cap or a floor is shown as such.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RelationshipView, SignalView } from '../../shared/types.ts';
import { proposalTree } from '../../client/src/proposals/proposalTree.ts';
import { strengthArithmetic } from '../../client/src/proposals/strengthArithmetic.ts';
import { signalContributions } from '../../server/src/engine/relationshipDetail.ts';
import {
  claimSignal,
  conceptSignal,
  decisionSignal,
  scoreSignals,
  sharedEntitySignal,
  similaritySignal,
  temporalSignal,
} from '../../server/src/scoring/index.ts';

function stored(signals: SignalView[]): RelationshipView {
  return {
    id: 'r1',
    from: { item_id: 'a', path: 'maintenance/gc2.md', title: 'GC-2 refurbishment' },
    to: { item_id: 'b', path: 'finance/q2.md', title: 'Q2 budget' },
    type: 'contradicts',
    score: scoreSignals(signals).score,
    score_version: 'relationship-score-v1',
    status: 'pending',
    near_duplicate: false,
    signals,
    produced_by: 'discover@1',
    created_at: '2026-12-01T00:00:00Z',
    updated_at: '2026-12-01T00:00:00Z',
    decided_by: null,
    decided_at: null,
    note: null,
    changed_since_decision: null,
  };
}

/** Each signal line's "a × b × c = d", checked and returned as d. */
function contributionsIn(lines: readonly string[]): number[] {
  return lines.flatMap((line) => {
    const match = line.match(/^\s+(-?[\d.]+) × (-?[\d.]+) × ([\d.]+) = (-?\d+\.\d{4})\s/);
    if (!match) return [];
    const [, strength, weight, factor, contribution] = match.map(Number);
    assert.equal((strength! * weight! * factor!).toFixed(4), contribution!.toFixed(4), `the product on "${line}" is right`);
    return [contribution!];
  });
}

const ENTITIES = [
  sharedEntitySignal('Example Ltd', 'organisation', 2),
  sharedEntitySignal('Ana Lima', 'person', 4),
  sharedEntitySignal('GC-2', 'organisation', 7),
  sharedEntitySignal('Port of Leixões', 'organisation', 3),
];

test('repeat factors included, the tooltip\u2019s contributions add up to the stored strength exactly', () => {
  const signals = [
    similaritySignal(0.81),
    ...ENTITIES,
    claimSignal('contradicts', 'cost', 'The sources give different figures for cost: 42000 and 51500. Relata does not decide which is correct.'),
    conceptSignal('crane refurbishment', 3),
    conceptSignal('hoist motor', 5),
    temporalSignal('2026-03-01', '2026-03-12')!,
  ];
  const relationship = stored(signals);
  const lines = strengthArithmetic(relationship, signalContributions(relationship));
  const shares = contributionsIn(lines);
  assert.equal(shares.length, signals.length, 'one line per signal');
  const sum = shares.reduce((total, share) => total + share, 0);
  assert.ok(sum < 1, 'this case is not capped');
  assert.equal(sum.toFixed(4), relationship.score.toFixed(4), 'the lines add up to the stored strength');
  assert.ok(lines.includes(`  sum = ${relationship.score.toFixed(4)}`), lines.join('\n'));
  assert.equal(lines.filter((line) => / × 0\.5 = /.test(line)).length, 2, 'the second entity and the second concept count half');
  assert.equal(lines.filter((line) => / × 0\.25 = /.test(line)).length, 1, 'the third entity counts a quarter');
  assert.equal(lines.filter((line) => / × 0 = /.test(line)).length, 1, 'the fourth entity counts nothing, and says so');
  assert.ok(!lines.some((line) => /differs from this sum/.test(line)));
});

test('a confirmation saturates: the sum is shown, then the cap at 1', () => {
  const relationship = stored([similaritySignal(0.9), ...ENTITIES.slice(0, 2), decisionSignal('confirmed', 'ana', null)]);
  const lines = strengthArithmetic(relationship, signalContributions(relationship));
  const sum = contributionsIn(lines).reduce((total, share) => total + share, 0);
  assert.ok(sum > 1);
  assert.equal(relationship.score, 1);
  assert.ok(lines.includes(`  sum ${sum.toFixed(4)}, capped at 1 → 1.0000`), lines.join('\n'));
});

test('a rejection floors the strength at 0, shown as such', () => {
  const relationship = stored([similaritySignal(0.7), ENTITIES[0]!, decisionSignal('rejected', 'ana', 'coincidence')]);
  const lines = strengthArithmetic(relationship, signalContributions(relationship));
  const sum = contributionsIn(lines).reduce((total, share) => total + share, 0);
  assert.ok(sum < 0);
  assert.ok(lines.includes(`  sum ${sum.toFixed(4)}, floored at 0 → 0.0000`), lines.join('\n'));
});

test('the Proposals row\u2019s tooltip carries the sum from the relationships request\u2019s contributions', () => {
  const relationship = stored([similaritySignal(0.77), ...ENTITIES.slice(0, 3)]);
  const [pending] = proposalTree([
    { folder: 'file:///demo', name: 'demo', relationships: [relationship], contributions: { r1: signalContributions(relationship) } },
  ]);
  const row = pending!.kind === 'section' ? (pending!.children[0] as Extract<typeof pending, { children: unknown }>).children[0] : undefined;
  assert.ok(row?.kind === 'proposal');
  const sum = contributionsIn(row.tooltip.split('\n')).reduce((total, share) => total + share, 0);
  assert.equal(sum.toFixed(4), relationship.score.toFixed(4));
  assert.match(row.tooltip, /not a probability/);
});
