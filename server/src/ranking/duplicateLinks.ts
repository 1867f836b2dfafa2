// Reads from the store what nearDuplicateGroups needs for one list of items: the copy links
// among them (relationships flagged near-duplicate or of identical bytes, never rejected ones),
// the exact copies of them the store keeps as duplicates (never a result of their own), and the
// paths that name every member. One read for search, Ask, the hover and the Proposals tree.

import type { AlsoItem } from '../../../shared/types.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import { duplicateLinkOf, type DuplicateLink, type NearDuplicateGroup } from './nearDuplicateGroups.ts';

export interface DuplicateLinks {
  links: DuplicateLink[];
  /** Name an `also` member (paths of the items linked, read once). */
  also(group: NearDuplicateGroup): AlsoItem[];
}

/**
 * Links between two of `itemIds`, plus links from one of them to an exact copy outside the list;
 * `known` gives paths the caller already has.
 */
export async function duplicateLinksAmong(
  store: WorkspaceStore,
  itemIds: readonly string[],
  known: ReadonlyMap<string, string> = new Map(),
): Promise<DuplicateLinks> {
  const listed = new Set(itemIds);
  const touching = listed.size === 0 ? [] : await store.relationshipsTouching([...listed], { statuses: ['pending', 'confirmed'] });
  const links: DuplicateLink[] = [];
  for (const relationship of touching) {
    const link = duplicateLinkOf(relationship);
    if (!link) continue;
    const inside = listed.has(link.a) && listed.has(link.b);
    if (inside || link.kind === 'duplicate') links.push(link);
  }
  const paths = new Map(known);
  for (const itemId of new Set(links.flatMap((link) => [link.a, link.b]))) {
    if (paths.has(itemId)) continue;
    const item = await store.getItem(itemId);
    paths.set(itemId, item?.path ?? '(no longer stored)');
  }
  return {
    links,
    also: (group) =>
      group.also.map((member) => ({ item_id: member.itemId, path: paths.get(member.itemId)!, kind: member.kind, similarity: member.similarity })),
  };
}
