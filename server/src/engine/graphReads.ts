// What the relationship graph is drawn from, read from one folder's store. The whole folder (the
// "show all" view) needs every live indexed item and every listed relationship; the current file's
// neighbourhood, the default view, needs only what it can hold, so it is walked out from the file
// one relationship at a time through the store's relationships-by-item look-up (issue 32: reading
// the whole folder for a view of tens of items cost seconds of CPU at 100,000 items). Both hand the
// pure builder (relationshipGraph.ts) the same views, so it answers alike.

import type { GraphFilter } from '../../../shared/graph.ts';
import type { ItemRef } from '../../../shared/types.ts';
import type { Thresholds } from '../scoring/model.ts';
import type { RelationshipRecord, WorkspaceStore } from '../store/contract.ts';
import type { FolderGraphInput } from './relationshipGraph.ts';
import { listRelationshipViews, toRelationshipView } from './relationships.ts';
import { byCodePoint } from './treeRings.ts';

/** Every live indexed item of the folder and every relationship listed at the folder's thresholds. */
export async function wholeFolderGraphInput(store: WorkspaceStore, folder: string, thresholds: Thresholds): Promise<FolderGraphInput> {
  const items = (await store.listItems()).filter((item) => item.status === 'indexed');
  return {
    folder,
    items: items.map((item) => ({ item_id: item.id, path: item.path, title: item.title })),
    relationships: await listRelationshipViews(store, thresholds),
  };
}

/**
 * The items within `depth` drawn relationships of `itemId` and every drawn relationship among them:
 * what the builder keeps of the whole folder for that neighbourhood, and nothing more. A
 * relationship is drawn when the whole folder's listing has it (a pending one at the storage
 * threshold or over) and the filter lets it through, and both its ends are live indexed items; only
 * those are paths outward. The last ring's relationships are read for the edges among what was
 * reached, not to go further. Items come in the order the whole folder's listing gives (path, in
 * code-point order), so the builder lists the nodes alike.
 */
export async function neighbourhoodGraphInput(
  store: WorkspaceStore,
  folder: string,
  focus: { itemId: string; depth: number },
  filter: GraphFilter,
  thresholds: Thresholds,
): Promise<FolderGraphInput> {
  const types = filter.types ? new Set(filter.types) : null;
  const listed = (record: RelationshipRecord) => (record.status !== 'pending' || record.score >= thresholds.storeScore) && (!types || types.has(record.type));
  const reached = new Map<string, ItemRef>();
  const lookedUp = new Set<string>();
  const relationships = new Map<string, RelationshipRecord>();

  const reach = async (ids: readonly string[]): Promise<string[]> => {
    for (const id of ids) lookedUp.add(id);
    const found = await store.searchItemInfo(ids);
    for (const item of found) reached.set(item.itemId, { item_id: item.itemId, path: item.path, title: item.title });
    return found.map((item) => item.itemId);
  };

  let ring = await reach([focus.itemId]);
  for (let step = 0; ring.length > 0; step += 1) {
    const touching = await store.relationshipsTouching(ring, { statuses: filter.statuses, minScore: filter.minStrength });
    const beyond = new Set<string>();
    for (const record of touching.filter(listed)) {
      relationships.set(record.id, record);
      for (const end of [record.fromItemId, record.toItemId]) if (!lookedUp.has(end)) beyond.add(end);
    }
    if (step === focus.depth) break;
    ring = await reach([...beyond]);
  }

  const among = [...relationships.values()].filter((record) => reached.has(record.fromItemId) && reached.has(record.toItemId));
  return {
    folder,
    items: [...reached.values()].sort(byCodePoint),
    relationships: among.map((record) => toRelationshipView(record, reached)),
  };
}
