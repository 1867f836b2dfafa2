// Opens the store a command or the language server should use. Today that is the embedded
// SQLite default; a MongoDB + Qdrant backend will be chosen here by configuration.

import type { StoreAccess, WorkspaceStore } from './contract.ts';
import { openSqliteStore } from './sqlite/sqliteStore.ts';

export interface OpenStoreOptions {
  dataDir: string;
  workspace: string;
  /** 'write' unless given; commands that only read open with 'read' so they never wait for a writer. */
  access?: StoreAccess;
}

export function openStore(options: OpenStoreOptions): WorkspaceStore {
  return openSqliteStore(options);
}

export type { StoreAccess, WorkspaceStore } from './contract.ts';
export { StoreBusyError } from './storeBusy.ts';
