// What an answer is generated from, fetched deterministically before any model is involved: the
// best search results' passages, the contradictions Relata has recorded between those items, and
// the relationships through which expansion brought an item in. None of it depends on a model, so
// a model that fails, lies or is absent cannot remove a source or hide a disagreement.

import type { ItemRef, RelationshipView, SearchResponse, SearchResultView } from '../../../shared/types.ts';
import type { Embedder } from '../embed/types.ts';
import { toRelationshipView } from '../engine/relationships.ts';
import { readVoiceGroups } from '../engine/voiceGroups.ts';
import { searchWorkspace } from '../ranking/search.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import type { Retrieval } from './answer.ts';
import { conflictsAmong } from './conflicts.ts';
import { hiddenInstructionsOf } from './hiddenInstructions.ts';

/** Enough passages to cover both sides of a disagreement, few enough for a small model's context. */
export const DEFAULT_MAX_SOURCES = 6;

export interface RetrieveOptions {
  maxSources?: number;
}

async function refResolver(store: WorkspaceStore, results: readonly SearchResultView[]): Promise<(itemId: string) => Promise<ItemRef>> {
  const known = new Map<string, ItemRef>(results.map((result) => [result.item_id, { item_id: result.item_id, path: result.path, title: result.title }]));
  return async (itemId) => {
    const cached = known.get(itemId);
    if (cached) return cached;
    const item = await store.getItem(itemId);
    const ref = { item_id: itemId, path: item?.path ?? '(no longer stored)', title: item?.title ?? null };
    known.set(itemId, ref);
    return ref;
  };
}

export async function retrieveForAnswer(
  store: WorkspaceStore,
  embedder: Embedder | null,
  question: string,
  options: RetrieveOptions = {},
): Promise<Retrieval> {
  const maxSources = options.maxSources ?? DEFAULT_MAX_SOURCES;
  const response: SearchResponse = await searchWorkspace(store, embedder, question, { limit: maxSources });
  const results = response.results.filter((result) => result.passage !== null).slice(0, maxSources);
  const ref = await refResolver(store, results);
  const retrieved = new Set(results.map((result) => result.item_id));

  // A source stands for its near-duplicate group: the copies' recorded disagreements are its own.
  const shown = new Map<string, ItemRef>();
  for (const itemId of [...retrieved, ...results.flatMap((result) => (result.also ?? []).map((member) => member.item_id))]) {
    shown.set(itemId, await ref(itemId));
  }
  const touching = shown.size === 0 ? [] : await store.relationshipsTouching([...shown.keys()], { statuses: ['pending', 'confirmed'] });
  // Copies of one document are one voice on a side of a conflict; an exact copy stored as a
  // duplicate has no claims of its own, and states what its original states.
  const voices = await readVoiceGroups(store, [...shown.keys()], touching);
  const conflicts = await conflictsAmong(store, shown, touching, voices);

  const inferredRelationships: RelationshipView[] = [];
  for (const id of new Set(results.flatMap((result) => (result.expanded_via ? [result.expanded_via.relationship_id] : [])))) {
    const relationship = await store.getRelationship(id);
    if (!relationship) continue;
    const refs = new Map<string, ItemRef>();
    for (const itemId of [relationship.fromItemId, relationship.toItemId]) refs.set(itemId, await ref(itemId));
    inferredRelationships.push(toRelationshipView(relationship, refs));
  }

  return {
    sources: results.map((result) => ({
      item_id: result.item_id,
      title: result.title,
      path: result.path,
      location: result.passage!.location,
      passage: result.passage!.text,
      ...(result.also ? { also: result.also } : {}),
    })),
    conflicts,
    inferredRelationships,
    hiddenInstructions: await hiddenInstructionsOf(store, retrieved),
    unavailablePaths: response.unavailable_paths,
  };
}
