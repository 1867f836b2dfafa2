// Every backend counts entities alike: mentions grouped by (key, type, surface, item) become one
// summary per key, its frequency the number of items mentioning it, its surface the most common
// spelling (ties broken alphabetically), most frequent keys first.

import type { EntityType } from '../records/extraction.ts';
import type { EntitySummary } from './contract.ts';

export interface MentionGroup {
  key: string;
  type: EntityType;
  surface: string;
  itemId: string;
  /** Mentions of this surface of the key in this item. */
  mentions: number;
  /** Whether a rule found any of those mentions (else only the model stage did). */
  ruleFound: boolean;
}

export async function summariseMentions(groups: Iterable<MentionGroup> | AsyncIterable<MentionGroup>): Promise<EntitySummary[]> {
  const byKey = new Map<string, { type: EntityType; surfaces: Map<string, number>; items: Set<string>; ruleFound: boolean }>();
  for await (const group of groups) {
    const entry = byKey.get(group.key) ?? { type: group.type, surfaces: new Map(), items: new Set(), ruleFound: false };
    entry.surfaces.set(group.surface, (entry.surfaces.get(group.surface) ?? 0) + group.mentions);
    entry.items.add(group.itemId);
    entry.ruleFound ||= group.ruleFound;
    byKey.set(group.key, entry);
  }
  return [...byKey.entries()]
    .map(([key, entry]) => ({
      key,
      type: entry.type,
      surface: [...entry.surfaces.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0],
      frequency: entry.items.size,
      itemIds: [...entry.items].sort(),
      byModelOnly: !entry.ruleFound,
    }))
    .sort((a, b) => b.frequency - a.frequency || a.key.localeCompare(b.key));
}
