// The relationship graph's data: which relationships become edges (type, review status, minimum
// strength), the neighbourhood of the current item, folders kept apart, and what the limits
// leave out. The drawing itself is the webview's; this is what it is given.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_GRAPH_STATUSES, type GraphFilter } from '../../shared/graph.ts';
import type { ItemRef, RelationshipView } from '../../shared/types.ts';
import { buildRelationshipGraph, graphNodeId, type FolderGraphInput } from '../../server/src/engine/relationshipGraph.ts';
import { relationshipView } from '../support/relationshipViews.ts';

const FOLDER = 'file:///work/notes';
const OTHER = 'file:///work/invoices';

const item = (id: string): ItemRef => ({ item_id: id, path: `docs/${id}.md`, title: `Title ${id}` });

function relationship(
  id: string,
  from: string,
  to: string,
  score: number,
  status: RelationshipView['status'] = 'pending',
  type: RelationshipView['type'] = 'similar_to',
): RelationshipView {
  return relationshipView({
    id,
    from: item(from),
    to: item(to),
    type,
    score,
    status,
    signals: [{ type: 'semantic_similarity', value: '0.80', strength: 0.8, weight: 0.35, detail: 'Passages close in meaning.' }],
    decided_by: status === 'pending' ? null : 'ana',
    decided_at: status === 'pending' ? null : '2025-01-02T00:00:00Z',
  });
}

const everything: GraphFilter = { statuses: DEFAULT_GRAPH_STATUSES, minStrength: 0 };
const edgeIds = (graph: { edges: { relationship_id: string }[] }) => graph.edges.map((edge) => edge.relationship_id).sort();
const nodePaths = (graph: { nodes: { item_id: string }[] }) => graph.nodes.map((node) => node.item_id).sort();

/** a–b–c–d in a chain, e linked to nothing, and a rejected a–e. */
const chain: FolderGraphInput = {
  folder: FOLDER,
  items: ['a', 'b', 'c', 'd', 'e'].map(item),
  relationships: [
    relationship('ab', 'a', 'b', 0.9, 'confirmed', 'supports'),
    relationship('bc', 'b', 'c', 0.5),
    relationship('cd', 'c', 'd', 0.3, 'pending', 'contradicts'),
    relationship('ae', 'a', 'e', 0.7, 'rejected'),
  ],
};

test('rejected relationships are not drawn unless asked for, and every item is a node in the whole view', () => {
  const graph = buildRelationshipGraph([chain], { filter: everything });
  assert.deepEqual(edgeIds(graph), ['ab', 'bc', 'cd']);
  assert.deepEqual(nodePaths(graph), ['a', 'b', 'c', 'd', 'e'], 'an item without relationships is still an item of the folder');
  assert.deepEqual(graph.scope, { kind: 'all' });
  assert.equal(graph.leftOut, null);

  const withRejected = buildRelationshipGraph([chain], { filter: { statuses: ['pending', 'confirmed', 'rejected'], minStrength: 0 } });
  assert.deepEqual(edgeIds(withRejected), ['ab', 'ae', 'bc', 'cd']);
  assert.equal(withRejected.edges.find((edge) => edge.relationship_id === 'ae')?.status, 'rejected');
});

test('an edge carries the relationship type, its strength and its review status', () => {
  const graph = buildRelationshipGraph([chain], { filter: everything });
  const ab = graph.edges.find((edge) => edge.relationship_id === 'ab')!;
  assert.deepEqual(
    { source: ab.source, target: ab.target, type: ab.type, strength: ab.strength, status: ab.status, folder: ab.folder },
    { source: graphNodeId(FOLDER, 'a'), target: graphNodeId(FOLDER, 'b'), type: 'supports', strength: 0.9, status: 'confirmed', folder: FOLDER },
  );
  const b = graph.nodes.find((node) => node.item_id === 'b')!;
  assert.equal(b.degree, 2, 'b is drawn with two edges: a–b and b–c');
  assert.equal(b.path, 'docs/b.md');
});

test('filters by type, by status and by minimum strength', () => {
  assert.deepEqual(edgeIds(buildRelationshipGraph([chain], { filter: { ...everything, types: ['contradicts', 'supports'] } })), ['ab', 'cd']);
  assert.deepEqual(edgeIds(buildRelationshipGraph([chain], { filter: { statuses: ['confirmed'], minStrength: 0 } })), ['ab']);
  assert.deepEqual(edgeIds(buildRelationshipGraph([chain], { filter: { ...everything, minStrength: 0.5 } })), ['ab', 'bc'], 'a strength equal to the minimum is kept');
});

test('the neighbourhood of an item reaches as many relationships out as its depth, with the edges among what it reaches', () => {
  const one = buildRelationshipGraph([chain], { filter: everything, focus: { folder: FOLDER, itemId: 'b', depth: 1 } });
  assert.deepEqual(nodePaths(one), ['a', 'b', 'c']);
  assert.deepEqual(edgeIds(one), ['ab', 'bc']);
  assert.deepEqual(one.scope, { kind: 'neighbourhood', node: graphNodeId(FOLDER, 'b'), depth: 1 });

  const two = buildRelationshipGraph([chain], { filter: everything, focus: { folder: FOLDER, itemId: 'a', depth: 2 } });
  assert.deepEqual(nodePaths(two), ['a', 'b', 'c'], 'e is reached only through a rejected relationship, which is not drawn');

  const lonely = buildRelationshipGraph([chain], { filter: everything, focus: { folder: FOLDER, itemId: 'e', depth: 2 } });
  assert.deepEqual(nodePaths(lonely), ['e'], 'an item without drawn relationships is shown alone');
  assert.deepEqual(lonely.edges, []);
});

test('the neighbourhood follows the filters: a filtered-out relationship is not a path', () => {
  const graph = buildRelationshipGraph([chain], { filter: { ...everything, minStrength: 0.6 }, focus: { folder: FOLDER, itemId: 'a', depth: 3 } });
  assert.deepEqual(nodePaths(graph), ['a', 'b']);
});

test('two folders are kept apart even when their items share an id', () => {
  const other: FolderGraphInput = { folder: OTHER, items: ['a', 'b'].map(item), relationships: [relationship('ab', 'a', 'b', 0.4)] };
  const graph = buildRelationshipGraph([chain, other], { filter: everything });
  assert.equal(graph.nodes.length, 7);
  assert.equal(new Set(graph.nodes.map((node) => node.id)).size, 7);
  const crossing = graph.edges.filter((edge) => edge.folder === OTHER);
  assert.deepEqual(crossing.map((edge) => [edge.source, edge.target]), [[graphNodeId(OTHER, 'a'), graphNodeId(OTHER, 'b')]]);
  const focused = buildRelationshipGraph([chain, other], { filter: everything, focus: { folder: OTHER, itemId: 'a', depth: 3 } });
  assert.deepEqual(focused.nodes.map((node) => node.id).sort(), [graphNodeId(OTHER, 'a'), graphNodeId(OTHER, 'b')]);
});

test('a relationship whose item is not drawn (deleted, or a copy) is left out rather than drawn to nowhere', () => {
  const input: FolderGraphInput = { ...chain, items: ['a', 'b', 'c'].map(item) };
  const graph = buildRelationshipGraph([input], { filter: everything });
  assert.deepEqual(edgeIds(graph), ['ab', 'bc']);
  assert.equal(graph.nodes.find((node) => node.item_id === 'c')?.degree, 1);
});

test('over the limits, the items nearest the focus and the strongest relationships are kept, and what was left out is counted', () => {
  // A star around hub h with ten spokes of rising strength, and a chain s0–x beyond the first spoke.
  const spokes = Array.from({ length: 10 }, (_, index) => `s${index}`);
  const star: FolderGraphInput = {
    folder: FOLDER,
    items: ['h', 'x', ...spokes].map(item),
    relationships: [...spokes.map((spoke, index) => relationship(`h-${spoke}`, 'h', spoke, 0.3 + index * 0.05)), relationship('s0-x', 's0', 'x', 0.99)],
  };
  const byEdges = buildRelationshipGraph([star], { filter: everything, focus: { folder: FOLDER, itemId: 'h', depth: 2 }, limits: { items: 100, relationships: 3 } });
  assert.deepEqual(edgeIds(byEdges), ['h-s8', 'h-s9', 's0-x']);
  assert.deepEqual(byEdges.leftOut, { items: 0, relationships: 8 });

  const byItems = buildRelationshipGraph([star], { filter: everything, focus: { folder: FOLDER, itemId: 'h', depth: 2 }, limits: { items: 4, relationships: 100 } });
  assert.ok(byItems.nodes.some((node) => node.item_id === 'h'), 'the focus is always kept');
  assert.ok(!byItems.nodes.some((node) => node.item_id === 'x'), 'x, two steps out, goes before any direct neighbour');
  assert.equal(byItems.nodes.length, 4);
  assert.equal(byItems.edges.length, 3);
  assert.deepEqual(byItems.leftOut, { items: 8, relationships: 8 });
});

test('a focus that is not among the items is refused, naming the item and its folder', () => {
  assert.throws(
    () => buildRelationshipGraph([chain], { filter: everything, focus: { folder: FOLDER, itemId: 'missing', depth: 1 } }),
    /item missing is not among the items drawn for file:\/\/\/work\/notes/,
  );
});
