// Relationship expansion: after direct matching, items linked to the strongest matches are
// pulled in, under the design's rules. Pure over RelationshipRecords, so the rules are tested
// without a store:
//   - only from the top `maxSeeds` direct matches;
//   - only through relationships scoring at least `minScore`;
//   - never through a relationship a person rejected;
//   - only through confirmed ones when `confirmedOnly`.
// An item reached this way that is not itself a direct match becomes an expansion hit, labelled
// as such; any item reached through a confirmed relationship earns the confirmed bonus.

import type { RelationshipRecord } from '../store/contract.ts';
import type { PathResult } from './paths.ts';
import type { ExpansionSettings } from './weights.ts';

export function followable(relationship: RelationshipRecord, settings: ExpansionSettings): boolean {
  if (relationship.status === 'rejected') return false;
  if (settings.confirmedOnly && relationship.status !== 'confirmed') return false;
  return relationship.score >= settings.minScore;
}

/**
 * @param directRanking direct matches, best first (seeds are taken from its head)
 * @param relationships relationships touching the seeds (any extra ones are ignored)
 */
export function expandFromSeeds(
  directRanking: readonly string[],
  relationships: readonly RelationshipRecord[],
  settings: ExpansionSettings,
): { expansion: PathResult; confirmed: PathResult } {
  const seeds = new Set(directRanking.slice(0, settings.maxSeeds));
  const direct = new Set(directRanking);
  const expansion = new Map<string, PathResult['hits'][number]>();
  const confirmed = new Map<string, PathResult['hits'][number]>();
  const strongestFirst = [...relationships].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  for (const relationship of strongestFirst) {
    if (!followable(relationship, settings)) continue;
    const ends: [string, string][] = [
      [relationship.fromItemId, relationship.toItemId],
      [relationship.toItemId, relationship.fromItemId],
    ];
    for (const [seed, reached] of ends) {
      if (!seeds.has(seed) || reached === seed) continue;
      const hit = { itemId: reached, rank: 0, score: relationship.score, relationship, seedItemId: seed };
      if (!direct.has(reached) && !expansion.has(reached)) expansion.set(reached, hit);
      if (relationship.status === 'confirmed' && !confirmed.has(reached)) confirmed.set(reached, { ...hit, score: 1 });
    }
  }
  return {
    expansion: { path: 'expansion', hits: [...expansion.values()] },
    confirmed: { path: 'confirmed_relationship', hits: [...confirmed.values()] },
  };
}
