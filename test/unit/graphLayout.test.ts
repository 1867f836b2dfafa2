// The graph view's layout (webview-ui/src/graphLayout.ts, ForceAtlas2): every item gets its own
// place, related items end nearer each other than unrelated ones, the result does not depend on
// chance, and a graph of any size comes out at the scale the view can fit.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GraphEdge, GraphNode } from '../../shared/graph.ts';
import { layoutNow } from '../../webview-ui/src/graphLayout.ts';

const node = (id: string): GraphNode => ({ id, folder: 'file:///f', item_id: id, path: `${id}.md`, title: null, degree: 0 });
const edge = (source: string, target: string): GraphEdge => ({
  id: `${source}-${target}`,
  folder: 'file:///f',
  relationship_id: `${source}-${target}`,
  source,
  target,
  type: 'supports',
  strength: 0.8,
  status: 'pending',
});

/** Two triangles (a, b, c) and (x, y, z) joined by one edge c–x. */
const twoGroups = {
  nodes: ['a', 'b', 'c', 'x', 'y', 'z'].map(node),
  edges: [edge('a', 'b'), edge('b', 'c'), edge('a', 'c'), edge('x', 'y'), edge('y', 'z'), edge('x', 'z'), edge('c', 'x')],
};

const distance = (positions: Map<string, { x: number; y: number }>, a: string, b: string) =>
  Math.hypot(positions.get(a)!.x - positions.get(b)!.x, positions.get(a)!.y - positions.get(b)!.y);

test('every item gets a distinct, finite place, and the same graph is laid out the same way', () => {
  const first = layoutNow(twoGroups);
  assert.equal(first.size, 6);
  const places = [...first.values()];
  assert.ok(places.every((place) => Number.isFinite(place.x) && Number.isFinite(place.y)));
  assert.equal(new Set(places.map((place) => `${place.x.toFixed(3)},${place.y.toFixed(3)}`)).size, 6);
  assert.deepEqual([...layoutNow(twoGroups)], [...first]);
});

test('items of one group end nearer each other than items of the other group', () => {
  const positions = layoutNow(twoGroups);
  assert.ok(distance(positions, 'a', 'b') < distance(positions, 'a', 'z'));
  assert.ok(distance(positions, 'y', 'z') < distance(positions, 'b', 'y'));
});

test('a small neighbourhood and a large graph both come out about 70 units per item across', () => {
  const chain = { nodes: ['p', 'q', 'r'].map(node), edges: [edge('p', 'q'), edge('q', 'r')] };
  const extent = (positions: Map<string, { x: number; y: number }>) => {
    const xs = [...positions.values()].map((place) => place.x);
    const ys = [...positions.values()].map((place) => place.y);
    return Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  };
  assert.equal(Math.round(extent(layoutNow(chain))), Math.round(70 * Math.sqrt(3)));
  assert.equal(Math.round(extent(layoutNow(twoGroups))), Math.round(70 * Math.sqrt(6)));
});
