// One voice per copy group (relationship-score-v2, rule 6). A document filed three times says its
// figure once: byte-identical copies and near-duplicates are one group, and whatever the group
// states (a support, a contradiction) counts once, anchored on the group's original. Without this
// a memo and its two copies outvote one report three to one, a false corroboration. Ask's
// conflicts, the MCP conflicts tool (and @relata through it) and `relata relationships` all group
// by this one rule. Nothing is merged or deleted: this decides how things are counted and shown.

import { duplicateLinkOf, type LinkSource } from '../ranking/nearDuplicateGroups.ts';
import type { ItemRecord, RelationshipRecord, WorkspaceStore } from '../store/contract.ts';

/** What grouping needs of an item. */
export type GroupedItem = Pick<ItemRecord, 'id' | 'path' | 'createdAt' | 'duplicateOf' | 'contentHash' | 'deletedAt'>;

export interface VoiceGroup {
  /** The member that speaks for the group. */
  original: string;
  /** Every member, the original first, then by path. */
  members: string[];
}

export interface VoiceGroups<T extends GroupedItem = GroupedItem> {
  /** The group of an item; an item without copies (or not given) is a group of one. */
  groupOf(itemId: string): VoiceGroup;
  originalOf(itemId: string): string;
  sameVoice(a: string, b: string): boolean;
  /** The other members with the item's very bytes: they state whatever it states. */
  identicalTo(itemId: string): string[];
  item(itemId: string): T | undefined;
}

/**
 * Groups `items` by the copy links among them: a duplicate and the item it duplicates, live items
 * with the same content hash, and relationships of identical bytes or flagged near-duplicate
 * (never rejected ones: a person said those two are not one document). Links to items not given
 * are ignored. The original is the earliest member (created, then path), except that an item
 * another member duplicates is preferred: the store already chose it as the original of its bytes.
 */
export function voiceGroups<T extends GroupedItem>(items: readonly T[], relationships: readonly LinkSource[]): VoiceGroups<T> {
  const byId = new Map(items.map((item) => [item.id, item]));
  const parent = new Map([...byId.keys()].map((id) => [id, id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let at = id; at !== root; ) {
      const next = parent.get(at)!;
      parent.set(at, root);
      at = next;
    }
    return root;
  };
  const join = (a: string, b: string) => {
    if (byId.has(a) && byId.has(b)) parent.set(find(a), find(b));
  };

  const byHash = new Map<string, string>();
  for (const item of items) {
    if (item.duplicateOf) join(item.id, item.duplicateOf);
    if (!item.contentHash || item.deletedAt) continue;
    const first = byHash.get(item.contentHash);
    if (first) join(item.id, first);
    else byHash.set(item.contentHash, item.id);
  }
  for (const relationship of relationships) {
    const link = duplicateLinkOf(relationship);
    if (link) join(link.a, link.b);
  }

  const duplicated = new Set(items.flatMap((item) => (item.duplicateOf && byId.has(item.duplicateOf) ? [item.duplicateOf] : [])));
  const earliest = (a: T, b: T) => a.createdAt.localeCompare(b.createdAt) || a.path.localeCompare(b.path);
  const members = new Map<string, T[]>();
  for (const item of items) members.set(find(item.id), [...(members.get(find(item.id)) ?? []), item]);
  const groups = new Map<string, VoiceGroup>();
  for (const group of members.values()) {
    const candidates = group.some((item) => duplicated.has(item.id)) ? group.filter((item) => duplicated.has(item.id)) : group;
    const original = [...candidates].sort(earliest)[0]!;
    const others = group.filter((item) => item !== original).sort((a, b) => a.path.localeCompare(b.path));
    const voice = { original: original.id, members: [original.id, ...others.map((item) => item.id)] };
    for (const item of group) groups.set(item.id, voice);
  }

  const groupOf = (itemId: string): VoiceGroup => groups.get(itemId) ?? { original: itemId, members: [itemId] };
  return {
    groupOf,
    originalOf: (itemId) => groupOf(itemId).original,
    sameVoice: (a, b) => a === b || groupOf(a).original === groupOf(b).original,
    identicalTo: (itemId) => {
      const hash = byId.get(itemId)?.contentHash;
      return hash ? groupOf(itemId).members.filter((member) => member !== itemId && byId.get(member)!.contentHash === hash) : [];
    },
    item: (itemId) => byId.get(itemId),
  };
}

/**
 * The copy groups of `itemIds`, read from the store within bounds: the relationships touching
 * these items (or `touching`, when the caller has just read them) and the items at either end of
 * a copy link or named as an original. A copy two links away, through an item not asked about,
 * is not reached; the groups of the items asked about are whole as far as their own links go.
 */
export async function readVoiceGroups(
  store: WorkspaceStore,
  itemIds: readonly string[],
  touching?: readonly RelationshipRecord[],
): Promise<VoiceGroups<ItemRecord>> {
  const asked = [...new Set(itemIds)];
  const relationships = touching ?? (asked.length === 0 ? [] : await store.relationshipsTouching(asked, { statuses: ['pending', 'confirmed'] }));
  const links = relationships.filter((relationship) => duplicateLinkOf(relationship) !== null);
  const items = new Map<string, ItemRecord>();
  const read = async (id: string) => {
    if (items.has(id)) return;
    const item = await store.getItem(id);
    if (item) items.set(id, item);
  };
  for (const id of new Set([...asked, ...links.flatMap((link) => [link.fromItemId, link.toItemId])])) await read(id);
  for (const item of [...items.values()]) if (item.duplicateOf) await read(item.duplicateOf);
  return voiceGroups([...items.values()], links);
}
