// Places the graph's items: ForceAtlas2 (graphology-layout-forceatlas2) run on the page's own
// thread, a few iterations at a time, so the page keeps answering while a large graph settles
// (the library's web-worker variant needs a blob: worker, which the webviews' CSP does not allow).
// Items already placed keep their place as a starting point, so a filter change moves little.
// No DOM here: `npm run bench:graph` times the same code in Node.

import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import type { RelationshipGraph } from '../../shared/graph.ts';

export interface Position {
  x: number;
  y: number;
}

/** Iterations per step between which the page may paint and handle input. */
const STEP_ITERATIONS = 10;

/** Enough iterations to settle a small neighbourhood; fewer, with Barnes-Hut, for a whole folder. */
function iterationsFor(order: number): number {
  if (order <= 200) return 300;
  if (order <= 800) return 150;
  return 80;
}

/**
 * Runs the layout a step at a time: each `next()` runs a few iterations and yields the share done
 * (0-1); the generator returns every node's position. A caller drives it synchronously (the
 * benchmark) or between frames (the page).
 */
export function* layoutSteps(graph: Pick<RelationshipGraph, 'nodes' | 'edges'>, previous: ReadonlyMap<string, Position> = new Map()): Generator<number, Map<string, Position>> {
  const layout = new Graph({ type: 'undirected', multi: true, allowSelfLoops: false });
  const count = graph.nodes.length;
  graph.nodes.forEach((node, index) => {
    // New items start on a sunflower spiral, so no two start on one spot and the result does not depend on chance.
    const radius = 10 * Math.sqrt(index + 1);
    const angle = index * 2.399963;
    const start = previous.get(node.id) ?? { x: radius * Math.cos(angle), y: radius * Math.sin(angle) };
    layout.addNode(node.id, { x: start.x, y: start.y, size: 1 });
  });
  for (const edge of graph.edges) layout.addEdge(edge.source, edge.target, { weight: 0.2 + edge.strength });

  const total = iterationsFor(count);
  const settings = { ...forceAtlas2.inferSettings(layout), barnesHutOptimize: count > 400, edgeWeightInfluence: 1 };
  if (count > 1 && graph.edges.length > 0) {
    for (let done = 0; done < total; done += STEP_ITERATIONS) {
      forceAtlas2.assign(layout, { iterations: Math.min(STEP_ITERATIONS, total - done), settings, getEdgeWeight: 'weight' });
      yield Math.min(1, (done + STEP_ITERATIONS) / total);
    }
  }
  const positions = new Map<string, Position>();
  layout.forEachNode((id, attributes) => positions.set(id, { x: attributes['x'] as number, y: attributes['y'] as number }));
  return spread(positions);
}

/**
 * ForceAtlas2's scale depends on the graph (a small neighbourhood can settle within a few units),
 * and the view's zoom has limits; the layout is scaled so items sit about 70 units apart, which
 * the view can fit at a readable zoom whatever the graph.
 */
function spread(positions: Map<string, Position>): Map<string, Position> {
  if (positions.size < 2) return positions;
  const xs = [...positions.values()].map((position) => position.x);
  const ys = [...positions.values()].map((position) => position.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const extent = Math.max(Math.max(...xs) - minX, Math.max(...ys) - minY, 1e-6);
  const scale = (70 * Math.sqrt(positions.size)) / extent;
  for (const position of positions.values()) {
    position.x = (position.x - minX) * scale;
    position.y = (position.y - minY) * scale;
  }
  return positions;
}

/** The whole layout at once (the benchmark, and tests). */
export function layoutNow(graph: Pick<RelationshipGraph, 'nodes' | 'edges'>, previous?: ReadonlyMap<string, Position>): Map<string, Position> {
  const steps = layoutSteps(graph, previous);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
