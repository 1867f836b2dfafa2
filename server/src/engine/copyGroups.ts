// Near-duplicates shown once in the views built from relationships. The hover lists an item's
// relationships: the same relationship with a document's copies and drafts is one line naming
// them. The Proposals tree needs the groups themselves, so that the relationships of one group
// are one row whose members stay decidable one by one (client/src/proposals/proposalTree.ts).

import type { CopyGroup } from '../../../shared/protocol.ts';
import type { RelationshipView } from '../../../shared/types.ts';
import { duplicateLinksAmong } from '../ranking/duplicateLinks.ts';
import { duplicateLinkOf, nearDuplicateGroups, type DuplicateLink } from '../ranking/nearDuplicateGroups.ts';
import type { WorkspaceStore } from '../store/contract.ts';

const otherEnd = (relationship: RelationshipView, itemId: string) => (relationship.from.item_id === itemId ? relationship.to : relationship.from);

/**
 * One relationship per group of the other ends (strongest first in, strongest first out): the
 * strongest relationship with a member represents the group and names the others in `also`.
 */
export async function relationshipsShownOnce(store: WorkspaceStore, itemId: string, relationships: readonly RelationshipView[]): Promise<RelationshipView[]> {
  const byOther = new Map<string, RelationshipView>();
  for (const relationship of relationships) {
    const other = otherEnd(relationship, itemId);
    if (!byOther.has(other.item_id)) byOther.set(other.item_id, relationship);
  }
  const others = [...byOther.keys()];
  const copies = await duplicateLinksAmong(store, others, new Map(relationships.map((r) => [otherEnd(r, itemId).item_id, otherEnd(r, itemId).path])));
  // The hovered item is not one of its own neighbours' copies.
  const links = copies.links.filter((copyLink) => copyLink.a !== itemId && copyLink.b !== itemId);
  return nearDuplicateGroups(others, links).map((group) => {
    const relationship = byOther.get(group.representative)!;
    return group.also.length > 0 ? { ...relationship, also: copies.also(group) } : relationship;
  });
}

const link = (relationship: RelationshipView): DuplicateLink | null =>
  duplicateLinkOf({
    fromItemId: relationship.from.item_id,
    toItemId: relationship.to.item_id,
    status: relationship.status,
    nearDuplicate: relationship.near_duplicate,
    signals: relationship.signals,
  });

/**
 * The copy groups among the items of a list of relationships, read from the list itself. An
 * item represents its group when it has the strongest relationship that is not a copy link,
 * then by path: the copy a person works with usually carries the evidence.
 */
export function copyGroupsAmong(relationships: readonly RelationshipView[]): CopyGroup[] {
  const links: DuplicateLink[] = [];
  const best = new Map<string, number>();
  const paths = new Map<string, string>();
  for (const relationship of relationships) {
    const copyLink = link(relationship);
    if (copyLink) links.push(copyLink);
    for (const end of [relationship.from, relationship.to]) {
      paths.set(end.item_id, end.path);
      best.set(end.item_id, Math.max(best.get(end.item_id) ?? -1, copyLink ? -1 : relationship.score));
    }
  }
  const ranked = [...paths.keys()].sort((a, b) => best.get(b)! - best.get(a)! || paths.get(a)!.length - paths.get(b)!.length || paths.get(a)!.localeCompare(paths.get(b)!));
  return nearDuplicateGroups(ranked, links)
    .filter((group) => group.also.length > 0)
    .map((group) => ({
      representative: group.representative,
      also: group.also.map((member) => ({ item_id: member.itemId, path: paths.get(member.itemId)!, kind: member.kind, similarity: member.similarity })),
    }));
}
