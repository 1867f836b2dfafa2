// Opens the store a command or the language server should use. Today that is the embedded
// SQLite default; a MongoDB + Qdrant backend will be chosen here by configuration.

import type { WorkspaceStore } from './contract.ts';
import { openSqliteStore } from './sqlite/sqliteStore.ts';

export interface OpenStoreOptions {
  dataDir: string;
  workspace: string;
}

export function openStore(options: OpenStoreOptions): WorkspaceStore {
  return openSqliteStore(options);
}

export type { WorkspaceStore } from './contract.ts';
