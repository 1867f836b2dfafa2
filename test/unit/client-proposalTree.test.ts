// The Proposals view's tree: pending proposals grouped by type and strongest first, Confirmed,
// Rejected and Conflicts sections, inline actions keyed by status, folders on top only when
// several are open.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RelationshipView } from '../../shared/types.ts';
import { proposalTree, type ProposalNode } from '../../client/src/proposals/proposalTree.ts';

function relationship(id: string, type: RelationshipView['type'], score: number, status: RelationshipView['status'] = 'pending'): RelationshipView {
  return {
    id,
    from: { item_id: `${id}-a`, path: `a/${id}.md`, title: `A ${id}` },
    to: { item_id: `${id}-b`, path: `b/${id}.md`, title: null },
    type,
    score,
    score_version: 'relationship-score-v1',
    status,
    near_duplicate: false,
    signals: [{ type: 'shared_entity', value: 'Example Ltd', strength: 1, weight: 0.25, detail: 'Both items refer to this organisation.' }],
    produced_by: 'discover@1',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    decided_by: null,
    decided_at: null,
    note: null,
  };
}

const labels = (nodes: ProposalNode[]) => nodes.map((node) => `${node.label}${'description' in node ? ` (${node.description})` : ''}`);
const children = (node: ProposalNode | undefined) => (node && node.kind !== 'proposal' ? node.children : []);

test('pending proposals are grouped by type, strongest first; decided ones have their own sections', () => {
  const roots = proposalTree([
    {
      folder: 'file:///demo',
      name: 'demo',
      relationships: [
        relationship('r1', 'similar_to', 0.3),
        relationship('r2', 'contradicts', 0.6),
        relationship('r3', 'similar_to', 0.5),
        relationship('r4', 'mentions', 0.4, 'confirmed'),
        relationship('r5', 'supports', 0.3, 'rejected'),
        relationship('r6', 'contradicts', 0.7, 'confirmed'),
      ],
    },
  ]);
  assert.deepEqual(labels(roots), ['Pending review (3)', 'Confirmed (2)', 'Rejected (1)', 'Conflicts (2)']);
  const groups = children(roots[0]);
  assert.deepEqual(labels(groups), ['contradicts (1)', 'similar to (2)']);
  assert.deepEqual(children(groups[1]).map((node) => node.kind === 'proposal' && node.relationship.id), ['r3', 'r1']);
  assert.deepEqual(children(roots[1]).map((node) => node.kind === 'proposal' && node.relationship.id), ['r6', 'r4']);
  assert.deepEqual(children(roots[3]).map((node) => node.kind === 'proposal' && node.relationship.id), ['r6', 'r2']);
});

test('a proposal row names both items, its strength and type, and carries its status for the inline actions', () => {
  const [pending] = proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [relationship('r1', 'similar_to', 0.296)] }]);
  const row = children(children(pending)[0])[0]!;
  assert.equal(row.kind, 'proposal');
  if (row.kind !== 'proposal') return;
  assert.equal(row.label, 'A r1 ↔ b/r1.md', 'an untitled item is named by its path');
  assert.equal(row.description, '0.30 · similar to');
  assert.equal(row.contextValue, 'relata.proposal.pending');
  assert.match(row.tooltip, /suggested by analysis, not yet reviewed/);
  assert.match(row.tooltip, /shared_entity Example Ltd \(strength 1\.00 × weight 0\.25\)/);
  assert.equal(row.folder, 'file:///demo');
});

test('ids stay unique when one relationship appears in two sections', () => {
  const roots = proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [relationship('r1', 'contradicts', 0.5)] }]);
  const ids: string[] = [];
  const walk = (nodes: ProposalNode[]) => nodes.forEach((node) => (ids.push(node.id), walk(children(node))));
  walk(roots);
  assert.equal(new Set(ids).size, ids.length);
});

test('with several folders open, each folder is a node of its own', () => {
  const roots = proposalTree([
    { folder: 'file:///a', name: 'a', relationships: [] },
    { folder: 'file:///b', name: 'b', relationships: [relationship('r1', 'supports', 0.4)] },
  ]);
  assert.deepEqual(roots.map((node) => node.kind), ['folder', 'folder']);
  assert.deepEqual(labels(children(roots[1])), ['Pending review (1)', 'Confirmed (0)', 'Rejected (0)', 'Conflicts (0)']);
});
