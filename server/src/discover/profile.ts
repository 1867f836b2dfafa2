// What discovery knows about one item when weighing it against another: its entities, claims,
// key phrases, the date it states about itself and its vectors. Loaded once per item per run.

import type { ItemRecord, StoredClaim, StoredEntity, WorkspaceStore } from '../store/contract.ts';
import type { PhraseCount } from '../extract/types.ts';

export interface ItemProfile {
  item: ItemRecord;
  entities: StoredEntity[];
  claims: StoredClaim[];
  phrases: PhraseCount[];
  /** The first date the item states (ISO), taken as the date of what it describes; null when it states none. */
  date: string | null;
  vectors: Float32Array[];
}

export async function loadProfile(store: WorkspaceStore, item: ItemRecord, modelId: string | null): Promise<ItemProfile> {
  // A duplicate's content lives on its original: only its bytes' identity can relate it.
  if (item.status !== 'indexed') return { item, entities: [], claims: [], phrases: [], date: null, vectors: [] };
  const [entities, claims, phrases, chunks, vectors] = await Promise.all([
    store.listEntities(item.id),
    store.listClaims(item.id),
    store.listPhrases(item.id),
    store.listChunks(item.id),
    modelId ? store.itemVectors(item.id, modelId) : Promise.resolve([]),
  ]);
  const ordinal = new Map(chunks.map((chunk) => [chunk.id, chunk.ordinal]));
  const firstDate = entities
    .filter((entity) => entity.type === 'date' && entity.value)
    .sort((a, b) => (ordinal.get(a.chunkId) ?? 0) - (ordinal.get(b.chunkId) ?? 0) || a.start - b.start)[0];
  return { item, entities, claims, phrases, date: firstDate?.value ?? null, vectors };
}

/** Words an item is about, for deciding whether two claims concern the same subject. */
export function topicsOf(profile: ItemProfile): string[] {
  return [profile.item.title ?? '', ...profile.phrases.slice(0, 12).map((phrase) => phrase.key)].filter(Boolean);
}
