// The relationship graph as the editor draws it: items as nodes, relationships as edges with their
// type, strength and review status. Typed once for the language server (which builds it from the
// store), the graph request of protocol.ts and the graph webview. An edge's strength is the
// relationship's strength (0-1 weighted signals under its score version): not a similarity, not a
// relevance, and not a probability.

import { REVIEW_ORDER } from './reviewOrder.ts';
import type { RelationshipStatus, RelationshipType } from './types.ts';

/** Every relationship type, in the order the graph's legend and filter list them (contradictions first). */
export const GRAPH_TYPES: readonly RelationshipType[] = REVIEW_ORDER;

export const GRAPH_STATUSES: readonly RelationshipStatus[] = ['pending', 'confirmed', 'rejected'];

/** Rejected relationships are hidden unless asked for. */
export const DEFAULT_GRAPH_STATUSES: readonly RelationshipStatus[] = ['pending', 'confirmed'];

/** Steps out from the current file in the neighbourhood view: its relationships, then theirs. */
export const DEFAULT_NEIGHBOURHOOD_DEPTH = 2;

/** What the graph can draw and stay responsive (measured by `npm run bench:graph`, docs/PERFORMANCE.md). */
export const GRAPH_LIMITS = { items: 2000, relationships: 10_000 } as const;

export interface GraphFilter {
  /** Relationship types to draw; every type when absent. */
  types?: readonly RelationshipType[];
  statuses: readonly RelationshipStatus[];
  /** Leave out relationships weaker than this (relationship strength, 0-1). */
  minStrength: number;
}

export interface GraphNode {
  /** Unique across folders: the folder URI and the item id. */
  id: string;
  folder: string;
  item_id: string;
  /** Folder-relative path, as the store keeps it. */
  path: string;
  title: string | null;
  /** Edges drawn at this node. */
  degree: number;
}

export interface GraphEdge {
  /** Unique across folders: the folder URI and the relationship id. */
  id: string;
  folder: string;
  relationship_id: string;
  source: string;
  target: string;
  type: RelationshipType;
  /** Relationship strength 0-1 (weighted signals), not a probability. */
  strength: number;
  status: RelationshipStatus;
}

/** Where the view is centred: the neighbourhood of one item, or everything. */
export type GraphScope = { kind: 'neighbourhood'; node: string; depth: number } | { kind: 'all' };

export interface RelationshipGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  scope: GraphScope;
  /** What was left out to stay within the limits (the weakest edges, the least connected items); null when nothing was. */
  leftOut: { items: number; relationships: number } | null;
}
