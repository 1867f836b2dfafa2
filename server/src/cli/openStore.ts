// Opens an existing store, to read (status, listings, search, ask: they never wait for a writer)
// or to write (decisions), or the folder index behind it for the commands that run the pipeline on
// what was indexed (reprocess, original).

import { parseEmbeddingChoice } from '../embed/choice.ts';
import { defaultWorkspace, FolderIndex } from '../engine/folderIndex.ts';
import { openStore } from '../store/index.ts';
import type { StoreAccess, WorkspaceStore } from '../store/contract.ts';
import { locateDataDir } from './storeLocation.ts';
import { UsageError } from './usage.ts';

export interface OpenedStore {
  store: WorkspaceStore;
  dataDir: string;
  /** The indexed folder, as recorded when it was first indexed. */
  root: string | null;
}

export async function openExistingStore(
  values: Record<string, unknown>,
  near: string,
  access: StoreAccess,
): Promise<OpenedStore> {
  const dataDir = locateDataDir(values.data as string | undefined, near);
  const store = openStore({ dataDir, workspace: (values.workspace as string | undefined) ?? defaultWorkspace(), access });
  return { store, dataDir, root: await store.getMeta('folder_root') };
}

/**
 * Reads what a command needs from the existing store (paths given on the command line, resolved
 * to the items it holds), closes it, then opens the index of the folder it records, with the
 * embedding model given by `--embedding-model`, if any.
 */
export async function openRecordedFolderIndex<T>(
  values: Record<string, unknown>,
  near: string,
  resolve: (store: WorkspaceStore, root: string) => Promise<T>,
): Promise<{ index: FolderIndex; resolved: T }> {
  // To write, though only read here: the index opened next upgrades an older store, so this must not refuse one.
  const opened = await openExistingStore(values, near, 'write');
  const { root, dataDir } = opened;
  let resolved: T;
  try {
    if (!root) throw new UsageError('this store records no indexed folder');
    resolved = await resolve(opened.store, root);
  } finally {
    await opened.store.close();
  }
  const embeddingModel = values['embedding-model'] as string | undefined;
  const index = await FolderIndex.open({
    folder: root,
    dataDir,
    workspace: values.workspace as string | undefined,
    embedding: embeddingModel === undefined ? undefined : parseEmbeddingChoice(embeddingModel),
  });
  return { index, resolved };
}
