// What discovery reads of the whole folder rather than of one item: the live items' paths and
// titles that links resolve against, and the sample each item's similarity baseline is read
// against (folderSimilarity.ts). Reading every item and indexing it for every item discovered made
// one item's discovery grow with the folder (issue 32: 0.1 s of CPU at 100 notes, 2 s at 2,000),
// so it is built once and kept per store while the store's count of item changes stands
// (WorkspaceStore.itemsGeneration); a store that cannot count gets it built anew each time.

import type { ItemRecord, WorkspaceStore } from '../store/contract.ts';
import { folderSample, type FolderSample } from './folderSimilarity.ts';
import { folderLinkIndex } from './links/itemLinks.ts';
import type { LinkIndex } from './links/resolve.ts';

export interface FolderView {
  /** The live items by path, suffix and title, for resolving any item's links. */
  links: LinkIndex;
  similarity: FolderSample;
}

const kept = new WeakMap<WorkspaceStore, { generation: number; view: FolderView }>();

/** The folder as it stands now, built from one read of its items only when an item changed since the last. */
export async function folderView(store: WorkspaceStore): Promise<FolderView> {
  // Read before the list: a change landing between the two makes the next call build again, never keep a stale view.
  const generation = await store.itemsGeneration();
  const known = kept.get(store);
  if (generation !== null && known?.generation === generation) return known.view;
  const view = viewOf(await store.listItems());
  if (generation !== null) kept.set(store, { generation, view });
  return view;
}

function viewOf(items: readonly ItemRecord[]): FolderView {
  return { links: folderLinkIndex(items), similarity: folderSample(items) };
}
