// Builds the relationship graph the editor draws (shared/graph.ts) from each folder's items and
// relationships: the filters (type, review status, minimum strength), the neighbourhood of one
// item or everything, and the limits that keep the drawing responsive. Pure, so the language
// server, the benchmark and the tests build the same graph from the same input.

import {
  GRAPH_LIMITS,
  type GraphEdge,
  type GraphFilter,
  type GraphNode,
  type GraphScope,
  type RelationshipGraph,
} from '../../../shared/graph.ts';
import type { ItemRef, RelationshipView } from '../../../shared/types.ts';

export interface FolderGraphInput {
  /** The folder's URI. */
  folder: string;
  /** The items to draw as nodes: the folder's live originals (no copies, nothing deleted or failed). */
  items: readonly ItemRef[];
  relationships: readonly RelationshipView[];
}

export interface GraphOptions {
  filter: GraphFilter;
  /** Centre on this item and go `depth` relationships out; every item when absent. */
  focus?: { folder: string; itemId: string; depth: number };
  limits?: { items: number; relationships: number };
}

/** A node's id: items of two folders may share an id, so the folder is part of it. */
export const graphNodeId = (folder: string, itemId: string) => `${folder}#${itemId}`;

export function buildRelationshipGraph(folders: readonly FolderGraphInput[], options: GraphOptions): RelationshipGraph {
  const limits = options.limits ?? GRAPH_LIMITS;
  const { filter } = options;
  const types = filter.types ? new Set(filter.types) : null;
  const statuses = new Set(filter.statuses);

  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  for (const { folder, items, relationships } of folders) {
    for (const item of items) {
      const id = graphNodeId(folder, item.item_id);
      nodes.set(id, { id, folder, item_id: item.item_id, path: item.path, title: item.title, degree: 0 });
    }
    for (const relationship of relationships) {
      if (!statuses.has(relationship.status) || (types && !types.has(relationship.type))) continue;
      if (relationship.score < filter.minStrength) continue;
      const source = graphNodeId(folder, relationship.from.item_id);
      const target = graphNodeId(folder, relationship.to.item_id);
      // A relationship whose item is no longer drawn (deleted, or now a copy) has nothing to attach to.
      if (source === target || !nodes.has(source) || !nodes.has(target)) continue;
      edges.push({
        id: graphNodeId(folder, relationship.id),
        folder,
        relationship_id: relationship.id,
        source,
        target,
        type: relationship.type,
        strength: relationship.score,
        status: relationship.status,
      });
    }
  }

  const { scope, distance } = reach(nodes, edges, options.focus);
  const inScope = [...distance.keys()];
  const inScopeEdges = edges.filter((edge) => distance.has(edge.source) && distance.has(edge.target));

  // Over the limit: keep the items nearest the focus, then the best connected, then the strongest edges.
  const candidateDegree = degrees(inScopeEdges);
  const keptNodes = new Set(
    inScope.length <= limits.items
      ? inScope
      : inScope
          .sort((a, b) => distance.get(a)! - distance.get(b)! || (candidateDegree.get(b) ?? 0) - (candidateDegree.get(a) ?? 0) || (a < b ? -1 : 1))
          .slice(0, limits.items),
  );
  const keptEdges = inScopeEdges
    .filter((edge) => keptNodes.has(edge.source) && keptNodes.has(edge.target))
    .sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1))
    .slice(0, limits.relationships);

  const degree = degrees(keptEdges);
  const shownNodes = [...nodes.values()]
    .filter((node) => keptNodes.has(node.id))
    .map((node) => ({ ...node, degree: degree.get(node.id) ?? 0 }));
  const leftOutItems = inScope.length - keptNodes.size;
  const leftOutRelationships = inScopeEdges.length - keptEdges.length;
  return {
    nodes: shownNodes,
    edges: keptEdges,
    scope,
    leftOut: leftOutItems > 0 || leftOutRelationships > 0 ? { items: leftOutItems, relationships: leftOutRelationships } : null,
  };
}

/** Each node in scope with its distance from the focus (0 for every node when there is none). */
function reach(
  nodes: ReadonlyMap<string, GraphNode>,
  edges: readonly GraphEdge[],
  focus: GraphOptions['focus'],
): { scope: GraphScope; distance: Map<string, number> } {
  if (!focus) return { scope: { kind: 'all' }, distance: new Map([...nodes.keys()].map((id) => [id, 0])) };
  const start = graphNodeId(focus.folder, focus.itemId);
  if (!nodes.has(start)) throw new Error(`item ${focus.itemId} is not among the items drawn for ${focus.folder}`);
  const neighbours = new Map<string, string[]>();
  for (const edge of edges) {
    (neighbours.get(edge.source) ?? neighbours.set(edge.source, []).get(edge.source)!).push(edge.target);
    (neighbours.get(edge.target) ?? neighbours.set(edge.target, []).get(edge.target)!).push(edge.source);
  }
  const distance = new Map([[start, 0]]);
  let frontier = [start];
  for (let step = 1; step <= focus.depth && frontier.length > 0; step++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const neighbour of neighbours.get(id) ?? []) {
        if (distance.has(neighbour)) continue;
        distance.set(neighbour, step);
        next.push(neighbour);
      }
    }
    frontier = next;
  }
  return { scope: { kind: 'neighbourhood', node: start, depth: focus.depth }, distance };
}

function degrees(edges: readonly GraphEdge[]): Map<string, number> {
  const degree = new Map<string, number>();
  for (const edge of edges) {
    degree.set(edge.source, (degree.get(edge.source) ?? 0) + 1);
    degree.set(edge.target, (degree.get(edge.target) ?? 0) + 1);
  }
  return degree;
}
