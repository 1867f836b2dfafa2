// Near-duplicates are flagged, never merged, and shown once. A list a person reads (search
// results, Ask's sources, the hover, the Proposals tree) would otherwise spend a row on every
// copy and draft of one document. Items joined by an exact-duplicate or near-duplicate link are
// one group (connected components), the best-ranked member represents it and names the others.
// Pure over item ids and links, so every list collapses by the same rule; the store keeps every
// item and relationship as it is.

import type { DuplicateKind, RelationshipStatus, SignalView } from '../../../shared/types.ts';

/** Two items that are copies of each other: byte-identical, or alike at or above the near-duplicate similarity. */
export interface DuplicateLink {
  a: string;
  b: string;
  kind: DuplicateKind;
  /** The relationship's cosine; null for identical bytes without one. */
  similarity: number | null;
}

/** What a relationship must carry for its two ends to count as copies. */
export interface LinkSource {
  fromItemId: string;
  toItemId: string;
  status: RelationshipStatus;
  nearDuplicate: boolean;
  signals: readonly Pick<SignalView, 'type' | 'value'>[];
}

/**
 * The link a relationship stands for, or null. A rejected relationship links nothing: the
 * person said the two are not related, so they are not shown as one.
 */
export function duplicateLinkOf(relationship: LinkSource): DuplicateLink | null {
  if (relationship.status === 'rejected') return null;
  const identical = relationship.signals.some((signal) => signal.type === 'content_hash_match');
  if (!identical && !relationship.nearDuplicate) return null;
  const cosine = relationship.signals.find((signal) => signal.type === 'semantic_similarity');
  const similarity = cosine ? Number.parseFloat(cosine.value) : NaN;
  return {
    a: relationship.fromItemId,
    b: relationship.toItemId,
    kind: identical ? 'duplicate' : 'near_duplicate',
    similarity: Number.isFinite(similarity) ? similarity : null,
  };
}

/** An exact copy stored as a duplicate (status duplicate, duplicate_of) links to its original. */
export function duplicateOfLink(itemId: string, duplicateOf: string): DuplicateLink {
  return { a: itemId, b: duplicateOf, kind: 'duplicate', similarity: null };
}

export interface DuplicateMember {
  itemId: string;
  kind: DuplicateKind;
  similarity: number | null;
}

export interface NearDuplicateGroup {
  /** The best-ranked member. */
  representative: string;
  /** The other members, nearest first, then in ranked order. */
  also: DuplicateMember[];
}

/**
 * Groups `ranked` (best first) by the links. A link's end outside `ranked` joins its group as an
 * `also` (an exact copy that is never a result itself, say) but never represents it. Groups come
 * out in the order of their representatives; an item without links is a group of one.
 */
export function nearDuplicateGroups(ranked: readonly string[], links: readonly DuplicateLink[]): NearDuplicateGroup[] {
  const rank = new Map<string, number>();
  for (const itemId of ranked) if (!rank.has(itemId)) rank.set(itemId, rank.size);
  const neighbours = new Map<string, DuplicateLink[]>();
  for (const link of links) {
    if (link.a === link.b) continue;
    for (const end of [link.a, link.b]) neighbours.set(end, [...(neighbours.get(end) ?? []), link]);
  }
  const placed = new Set<string>();
  const groups: NearDuplicateGroup[] = [];
  for (const representative of rank.keys()) {
    if (placed.has(representative)) continue;
    placed.add(representative);
    const also: (DuplicateMember & { hops: number })[] = [];
    // Breadth first from the representative: each member is described by the path that reached it
    // (a near-duplicate anywhere on it makes it a near-duplicate, at the path's lowest similarity).
    const queue: (DuplicateMember & { hops: number })[] = [{ itemId: representative, kind: 'duplicate', similarity: null, hops: 0 }];
    while (queue.length > 0) {
      const current = queue.shift()!;
      const next = [...(neighbours.get(current.itemId) ?? [])].sort((x, y) => order(rank, other(x, current.itemId), other(y, current.itemId)));
      for (const link of next) {
        const reached = other(link, current.itemId);
        if (placed.has(reached)) continue;
        placed.add(reached);
        const member = {
          itemId: reached,
          kind: current.kind === 'near_duplicate' || link.kind === 'near_duplicate' ? ('near_duplicate' as const) : ('duplicate' as const),
          similarity: lowest(current.similarity, link.similarity),
          hops: current.hops + 1,
        };
        also.push(member);
        queue.push(member);
      }
    }
    also.sort((x, y) => x.hops - y.hops || order(rank, x.itemId, y.itemId));
    groups.push({ representative, also: also.map(({ itemId, kind, similarity }) => ({ itemId, kind, similarity })) });
  }
  return groups;
}

const other = (link: DuplicateLink, end: string) => (link.a === end ? link.b : link.a);

/** Ranked items first in their order, then the others by id, so the result never depends on link order. */
function order(rank: ReadonlyMap<string, number>, x: string, y: string): number {
  const rx = rank.get(x) ?? Number.POSITIVE_INFINITY;
  const ry = rank.get(y) ?? Number.POSITIVE_INFINITY;
  return rx !== ry ? rx - ry : x < y ? -1 : x > y ? 1 : 0;
}

function lowest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}
