// Opens an existing store for the read-only commands (status, items, item).

import { openStore } from '../store/index.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import { defaultWorkspace } from '../engine/folderIndex.ts';
import { locateDataDir } from './storeLocation.ts';

export interface OpenedStore {
  store: WorkspaceStore;
  dataDir: string;
  /** The indexed folder, as recorded when it was first indexed. */
  root: string | null;
}

export async function openExistingStore(
  values: Record<string, unknown>,
  near: string,
): Promise<OpenedStore> {
  const dataDir = locateDataDir(values.data as string | undefined, near);
  const store = openStore({ dataDir, workspace: (values.workspace as string | undefined) ?? defaultWorkspace() });
  return { store, dataDir, root: await store.getMeta('folder_root') };
}
