// The recency path: a small preference for what changed lately, decaying by half every 180 days.
// The date is when the store first saw the item's current bytes (its version's date): the one
// date Relata knows for every item and can vouch for. A document's own dates (in its text or
// front matter) say what it is about, not how current it is, and a file's modification time
// is not recorded and changes on a copy; so neither is used. For a folder indexed once, every
// item is equally recent and this path changes no order.

import type { SearchItemInfo } from '../store/contract.ts';
import type { PathResult } from './paths.ts';
import { RECENCY_HALF_LIFE_DAYS } from './weights.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export function recencyStrength(ageDays: number): number {
  return Math.pow(0.5, Math.max(0, ageDays) / RECENCY_HALF_LIFE_DAYS);
}

export function recencyPath(items: readonly SearchItemInfo[], now: Date): PathResult {
  return {
    path: 'recency',
    hits: items.map((item) => {
      const ageDays = Math.max(0, (now.getTime() - Date.parse(item.versionSeenAt)) / DAY_MS);
      return { itemId: item.itemId, rank: 0, score: recencyStrength(ageDays), ageDays };
    }),
  };
}
