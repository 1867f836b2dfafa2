// The scale-out backend: MongoDB for documents, queue and bytes (GridFS), Qdrant for vectors.
// (Being built: see issue 15. Until then opening it says so.)

import type { BlobStore } from '../blobs.ts';
import type { StoreAccess, WorkspaceStore } from '../contract.ts';
import type { MongoQdrantLocation } from '../location.ts';

export interface MongoQdrantOpenOptions {
  location: MongoQdrantLocation;
  workspace: string;
  access?: StoreAccess;
}

export function openMongoQdrantStore(_options: MongoQdrantOpenOptions): { store: WorkspaceStore; blobs: BlobStore } {
  throw new Error('the MongoDB + Qdrant store is not built yet');
}
