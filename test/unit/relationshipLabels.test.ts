// Hand labels of proposals: counted only while their pair and type are still proposed, whichever
// way round the pair is stored.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { labelShares, proposalKey, type LabelledProposal } from '../support/relationshipLabels.ts';

const row = (pair: string, type: string, label: LabelledProposal['label']): LabelledProposal => ({ pair, type, label, note: '' });

test('labels count while their pair and type are proposed, in either direction; unlabelled rows do not count', () => {
  const proposed = new Set([proposalKey('b.md', 'a.md', 'supports'), proposalKey('c.md', 'd.md', 'contradicts')]);
  const shares = labelShares(
    [row('a.md -> b.md', 'supports', 'right'), row('c.md -> d.md', 'supports', 'wrong'), row('c.md -> d.md', 'contradicts', 'trivial'), row('e.md -> f.md', 'supports', '')],
    proposed,
  );
  assert.deepEqual(shares, { labelled: 3, current: 2, counts: { right: 1, trivial: 1, wrong: 0 } });
});
