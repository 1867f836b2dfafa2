// The scale-out backend: MongoDB for documents, the job queue and original bytes (GridFS), Qdrant
// for vectors, shared by many workspaces and folders, each store bound to one of each (scope.ts).
// Opening connects to nothing: the first operation does (connection.ts), so a command that never
// touches the store never waits for a server, and the drivers load only when this backend is used.

import type { BlobStore } from '../blobs.ts';
import type { StoreAccess, WorkspaceStore } from '../contract.ts';
import type { MongoQdrantLocation } from '../location.ts';
import { ALIAS_INDEXES } from './aliases.ts';
import { BLOB_REFERENCE_INDEXES, DOCUMENT_INDEXES, type IndexSpec } from './collections.ts';
import { StoreConnection } from './connection.ts';
import { GridFsBlobStore } from './gridFsBlobs.ts';
import { JOB_INDEXES } from './jobQueue.ts';
import { MongoQdrantStore } from './mongoQdrantStore.ts';
import { RELATIONSHIP_INDEXES } from './relationships.ts';
import { VECTOR_INDEXES } from './vectorPoints.ts';

export interface MongoQdrantOpenOptions {
  location: MongoQdrantLocation;
  workspace: string;
  access?: StoreAccess;
}

/** Every index of the store's collections, each led by the scope, and the store-wide blob-reference ones: made by the first writer. */
export const STORE_INDEXES: readonly IndexSpec[] = [
  ...DOCUMENT_INDEXES,
  ...BLOB_REFERENCE_INDEXES,
  ...JOB_INDEXES,
  ...VECTOR_INDEXES,
  ...RELATIONSHIP_INDEXES,
  ...ALIAS_INDEXES,
];

export function openMongoQdrantStore(options: MongoQdrantOpenOptions): { store: WorkspaceStore; blobs: BlobStore } {
  if (!options.workspace.trim()) throw new Error('a workspace name is required to open the store');
  if (!options.location.folder.trim()) throw new Error('a folder key is required to open a store on MongoDB + Qdrant');
  const access = options.access ?? 'write';
  const connection = new StoreConnection({ location: options.location, access, indexes: STORE_INDEXES });
  const store = new MongoQdrantStore(connection, options.location, options.workspace, access);
  const blobs = new GridFsBlobStore({
    db: () => connection.db(),
    driver: () => connection.driver(),
    requireWrite: (what) => store.requireWrite(what),
  });
  return { store, blobs };
}

export { StoreUnreachableError } from './connection.ts';
