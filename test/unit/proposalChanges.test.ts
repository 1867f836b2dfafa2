// The note after re-indexing: proposals withdrawn, new or changed are counted and the edited file
// named; a proposal a person decided meanwhile is not a change made by re-indexing; nothing
// changed, nothing said.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeProposalChanges, proposalChanges, type ProposalSnapshot } from '../../server/src/lsp/proposalChanges.ts';

const snapshot = (pending: [string, string, string][], versions: [string, number][]): ProposalSnapshot => ({
  pending: new Map(pending.map(([id, type, score]) => [id, { type, score }])),
  versions: new Map(versions),
});

test('"3 proposals changed after notes.md was edited": withdrawn, new and changed are counted, the file named', () => {
  const before = snapshot([['r1', 'supports', '0.61'], ['r2', 'similar_to', '0.40'], ['r3', 'contradicts', '0.70']], [['notes.md', 1], ['budget.md', 1]]);
  const after = snapshot([['r3', 'contradicts', '0.74'], ['r4', 'supports', '0.55']], [['notes.md', 2], ['budget.md', 1]]);
  const changes = proposalChanges(before, after, new Set());
  assert.deepEqual(changes, { withdrawn: 2, added: 1, changed: 1, edited: ['notes.md'] });
  assert.equal(describeProposalChanges(changes), '4 proposals changed after notes.md was edited: 2 withdrawn, 1 new, 1 with a new type or strength.');
});

test('a proposal a person confirmed meanwhile is not counted as withdrawn', () => {
  const before = snapshot([['r1', 'supports', '0.61']], [['a.md', 1]]);
  const after = snapshot([], [['a.md', 1]]);
  assert.equal(describeProposalChanges(proposalChanges(before, after, new Set(['r1']))), null);
});

test('nothing changed, nothing said; several files are named, many counted', () => {
  const same = snapshot([['r1', 'supports', '0.61']], [['a.md', 1]]);
  assert.equal(describeProposalChanges(proposalChanges(same, same, new Set())), null);
  const many = snapshot([], [['a.md', 2], ['b.md', 2], ['c.md', 2], ['d.md', 1]]);
  const before = snapshot([['r1', 'supports', '0.61']], [['a.md', 1], ['b.md', 1], ['c.md', 1]]);
  assert.match(describeProposalChanges(proposalChanges(before, many, new Set()))!, /^1 proposal changed after 4 files were edited: 1 withdrawn\.$/);
});
