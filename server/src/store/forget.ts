// Forgetting deleted documents. The store removes their text and everything derived from it in one
// transaction and reports which bytes nothing refers to any more; only then are those blobs
// removed, so a failed transaction never loses bytes an item still needs. A crash between the two
// leaves an unreferenced blob behind: forgetting the same item again removes it.

import type { BlobStore } from './blobs.ts';
import type { WorkspaceStore } from './contract.ts';

export interface ForgetResult {
  forgotten: string[];
  /** Original files removed from the store (bytes another item, version or workspace uses stay). */
  blobsRemoved: number;
}

export async function forgetDocuments(store: WorkspaceStore, blobs: BlobStore, itemIds: readonly string[]): Promise<ForgetResult> {
  const { forgotten, unreferencedHashes } = await store.forgetItems(itemIds);
  for (const hash of unreferencedHashes) await blobs.remove(hash);
  return { forgotten, blobsRemoved: unreferencedHashes.length };
}
