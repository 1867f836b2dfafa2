// Which items are worth weighing against one item: its windows' nearest neighbours, items
// sharing a name (rarest names first) or a confirmed alias of one, items stating a figure about the same attribute,
// items giving the same subject metadata value (rarest first), byte-identical items, the files it
// links to, and the
// items it is already related to. Never all pairs: every source is an index look-up with a cap
// (limits.ts).

import type { StoredEntity, WorkspaceStore } from '../store/contract.ts';
import type { CandidateLimits } from './limits.ts';
import { metadataValueKey, type MetadataValue } from '../parse/metadata.ts';
import { spreadOver } from './itemCosine.ts';
import { subjectMetadata, type ItemProfile } from './profile.ts';

export type CandidateSource = 'vector' | 'entity' | 'alias' | 'claim' | 'metadata' | 'content_hash' | 'link' | 'existing';

export async function gatherCandidates(
  store: WorkspaceStore,
  subject: ItemProfile,
  modelId: string | null,
  limits: CandidateLimits,
  entityItems: Map<string, number>,
  /** Items giving themselves each of the item's metadata values (metadataValueKey). */
  metadataItems: Map<string, number>,
  /** The item's existing relationships, by the other item's id. */
  related: Map<string, unknown>,
  /** Confirmed aliases of the item's names. */
  aliases: Map<string, { key: string }[]>,
): Promise<Map<string, Set<CandidateSource>>> {
  const candidates = new Map<string, Set<CandidateSource>>();
  const add = (itemId: string, source: CandidateSource) => {
    if (itemId === subject.item.id) return;
    const sources = candidates.get(itemId) ?? new Set<CandidateSource>();
    sources.add(source);
    candidates.set(itemId, sources);
  };
  const id = subject.item.id;

  if (subject.item.contentHash) {
    for (const other of await store.itemsWithContentHash(subject.item.contentHash, id, limits.contentMatches)) add(other, 'content_hash');
  }

  if (modelId && subject.vectors.length > 0) {
    const neighbours = await store.searchVectorsMany(modelId, spreadOver(subject.vectors, limits.vectorWindows), limits.neighboursPerWindow + 1);
    for (const hit of neighbours.flat()) add(hit.itemId, 'vector');
  }

  for (const key of rarestKeys(subject.entities, entityItems, limits.entityKeys)) {
    for (const other of await store.itemsMentioning(key, id, limits.itemsPerEntityKey)) add(other, 'entity');
  }

  const aliasKeys = [...aliases.values()].flat().map((alias) => alias.key);
  for (const key of aliasKeys.slice(0, limits.entityKeys)) {
    for (const other of await store.itemsMentioning(key, id, limits.itemsPerEntityKey)) add(other, 'alias');
  }

  const attributes = new Map(subject.claims.map((claim) => [`${claim.kind}|${claim.attribute}|${claim.unit}`, claim]));
  for (const claim of [...attributes.values()].slice(0, limits.claimAttributes)) {
    for (const other of await store.itemsWithClaimsOn(claim.kind, claim.attribute, claim.unit, id, limits.itemsPerClaimAttribute)) {
      add(other, 'claim');
    }
  }

  for (const value of rarestMetadata(subject, metadataItems, limits.metadataValues)) {
    for (const other of await store.itemsWithMetadata(value, id, limits.itemsPerMetadataValue)) add(other, 'metadata');
  }

  // Every file the item links to: its author named them, so none is left to a cap.
  for (const link of subject.links ?? []) add(link.toItemId, 'link');

  for (const other of [...related.keys()].slice(0, limits.existingRelationships)) add(other, 'existing');
  return candidates;
}

/** Keys mentioned by at least one other item, rarest first; dates say when, not what, and are left out. */
function rarestKeys(entities: readonly StoredEntity[], itemsMentioning: Map<string, number>, limit: number): string[] {
  const keys = [...new Set(entities.filter((entity) => entity.type !== 'date').map((entity) => entity.key))];
  return keys
    .filter((key) => (itemsMentioning.get(key) ?? 0) > 1)
    .sort((a, b) => itemsMentioning.get(a)! - itemsMentioning.get(b)! || a.localeCompare(b))
    .slice(0, limit);
}

/** The item's subject metadata values some other item also gives, rarest first. */
function rarestMetadata(subject: ItemProfile, itemsSharing: Map<string, number>, limit: number): MetadataValue[] {
  const count = (value: MetadataValue): number => itemsSharing.get(metadataValueKey(value)) ?? 0;
  return subjectMetadata(subject)
    .filter((value) => count(value) > 1)
    .sort((a, b) => count(a) - count(b) || metadataValueKey(a).localeCompare(metadataValueKey(b)))
    .slice(0, limit);
}
