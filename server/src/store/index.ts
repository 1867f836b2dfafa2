// Opens the store a command, a worker or the language server should use: the embedded SQLite
// default, or MongoDB + Qdrant, chosen by the StoreLocation alone. Nothing else in the engine
// knows which backend it talks to.

import path from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { FileBlobStore, type BlobStore } from './blobs.ts';
import type { StoreAccess, WorkspaceStore } from './contract.ts';
import type { StoreLocation } from './location.ts';
import { openMongoQdrantStore } from './mongoQdrant/index.ts';
import { openSqliteStore } from './sqlite/sqliteStore.ts';

export interface OpenStoreOptions {
  /** The SQLite data directory; shorthand for `location: { backend: 'sqlite', dataDir }`. */
  dataDir?: string;
  location?: StoreLocation;
  workspace: string;
  /** 'write' unless given; commands that only read open with 'read' so they never wait for a writer. */
  access?: StoreAccess;
  /** SQLite: WAL checkpoints in a thread of their own (sqlite/walCheckpoints.ts). */
  checkpointInThread?: boolean;
  /** SQLite: false to re-score vector look-ups from the database rather than a copy in memory (SqliteStoreOptions). */
  holdVectors?: boolean;
  /** SQLite: false to answer vector look-ups from a graph that is catching up, not exactly (SqliteStoreOptions). */
  exactWhileCatchingUp?: boolean;
  /** SQLite, opened to read: save the vector graphs it builds to their files (SqliteStoreOptions). */
  saveGraphsWhenReading?: boolean;
  /** SQLite: read saved vector graphs off the thread, look-ups not ready meanwhile (SqliteStoreOptions). */
  loadGraphsInBackground?: boolean;
  /** SQLite: look vectors up in the process's shared graph through this port (SqliteStoreOptions). */
  sharedGraph?: MessagePort;
}

export interface OpenedStore {
  store: WorkspaceStore;
  /** Where the store keeps original bytes. */
  blobs: BlobStore;
}

export function locationOf(options: Pick<OpenStoreOptions, 'dataDir' | 'location'>): StoreLocation {
  if (options.location) return options.location;
  if (options.dataDir) return { backend: 'sqlite', dataDir: options.dataDir };
  throw new Error('openStore needs a data directory or a store location');
}

export function openStoreWithBlobs(options: OpenStoreOptions): OpenedStore {
  const location = locationOf(options);
  if (location.backend === 'mongodb-qdrant') return openMongoQdrantStore({ location, workspace: options.workspace, access: options.access });
  return {
    store: openSqliteStore({
      dataDir: location.dataDir,
      databaseFile: location.databaseFile,
      workspace: options.workspace,
      access: options.access,
      checkpointInThread: options.checkpointInThread,
      holdVectors: options.holdVectors,
      exactWhileCatchingUp: options.exactWhileCatchingUp,
      saveGraphsWhenReading: options.saveGraphsWhenReading,
      loadGraphsInBackground: options.loadGraphsInBackground,
      sharedGraph: options.sharedGraph,
    }),
    blobs: new FileBlobStore(path.join(location.dataDir, 'blobs')),
  };
}

export function openStore(options: OpenStoreOptions): WorkspaceStore {
  return openStoreWithBlobs(options).store;
}

export type { StoreAccess, WorkspaceStore } from './contract.ts';
export type { StoreLocation } from './location.ts';
export { StoreBusyError } from './storeBusy.ts';
