// The one question about the shared MongoDB that no single scope can answer: whether any item or
// version, of any workspace and folder, other than forgotten ones, still refers to some bytes.
// Blobs are content-addressed and shared store-wide (gridFsBlobs.ts), so only then may they go.
// Kept apart from the scoped collections and named for what it is, like sqlite/storeWideSql.ts:
// the answer is a count, never a document, and says nothing another workspace's own ingest of
// the same bytes would not.

import type { Collection } from 'mongodb';
import type { ItemDocument } from './collections.ts';

/** How many items not forgotten, in any scope, hold these bytes now or in one of their versions. */
export async function storeWideBlobReferences(items: Collection<ItemDocument>, hash: string): Promise<number> {
  return items.countDocuments({ forgottenAt: null, $or: [{ contentHash: hash }, { 'versions.contentHash': hash }] }, { limit: 1 });
}

/** Those of `hashes` no item or version of any scope refers to any more, sorted. */
export async function storeWideUnreferenced(items: Collection<ItemDocument>, hashes: Iterable<string>): Promise<string[]> {
  const unreferenced: string[] = [];
  for (const hash of new Set(hashes)) if ((await storeWideBlobReferences(items, hash)) === 0) unreferenced.push(hash);
  return unreferenced.sort();
}
