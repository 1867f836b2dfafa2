// Opens an existing store, to read (status, listings, search, ask: they never wait for a writer)
// or to write (decisions), or the folder index behind it for the commands that run the pipeline on
// what was indexed (reprocess, original). Which store, and where, comes from storeFlags.ts.

import { parseEmbeddingChoice } from '../embed/choice.ts';
import type { FolderIndex } from '../engine/folderIndex.ts';
import { defaultWorkspace } from '../engine/workspaceName.ts';
import { openStoreWithBlobs } from '../store/index.ts';
import type { StoreAccess, WorkspaceStore } from '../store/contract.ts';
import { describeLocation, type StoreLocation } from '../store/location.ts';
import type { CommandValues } from './command.ts';
import { existingStoreLocation, storeChoice } from './storeFlags.ts';
import { UsageError } from './usage.ts';
import type { PipelineSettings } from '../pipeline/settings.ts';

export interface OpenedStore {
  store: WorkspaceStore;
  location: StoreLocation;
  /** The indexed folder, as recorded when it was first indexed. */
  root: string | null;
}

/** The location of the existing store a command about `near` (a file, a folder, the current directory) should open. */
export function existingLocation(values: CommandValues, near: string): StoreLocation {
  return existingStoreLocation(storeChoice(values), near);
}

export async function openExistingStore(values: CommandValues, near: string, access: StoreAccess): Promise<OpenedStore> {
  const location = existingLocation(values, near);
  const { store } = await openStoreWithBlobs({ location, workspace: (values.workspace as string | undefined) ?? defaultWorkspace(), access });
  try {
    const root = await store.getMeta('folder_root');
    // A SQLite store that exists was indexed (locateDataDir checked); a shared server answers for any key.
    if (!root && location.backend === 'mongodb-qdrant') {
      throw new UsageError(
        `nothing is indexed as folder ${location.folder} of workspace ${store.workspace} on ${describeLocation(location)}: ` +
          'run `relata index <folder>` with this store first, or name the folder with --folder (a path or its key)',
      );
    }
    return { store, location, root };
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Reads what a command needs from the existing store (paths given on the command line, resolved
 * to the items it holds), closes it, then opens the index of the folder it records, with the
 * embedding model given by `--embedding-model`, if any.
 */
export async function openRecordedFolderIndex<T>(
  values: CommandValues,
  near: string,
  resolve: (store: WorkspaceStore, root: string) => Promise<T>,
  settings?: Partial<PipelineSettings>,
): Promise<{ index: FolderIndex; resolved: T }> {
  // To write, though only read here: the index opened next upgrades an older store, so this must not refuse one.
  const opened = await openExistingStore(values, near, 'write');
  const { root, location } = opened;
  let resolved: T;
  try {
    if (!root) throw new UsageError('this store records no indexed folder');
    resolved = await resolve(opened.store, root);
  } finally {
    await opened.store.close();
  }
  const embeddingModel = values['embedding-model'] as string | undefined;
  // Loaded here, not at the top: the folder index brings the whole pipeline (every parser and
  // extractor), which the commands that only read the store never need.
  const { FolderIndex } = await import('../engine/folderIndex.ts');
  const index = await FolderIndex.open({
    folder: root,
    location,
    workspace: values.workspace as string | undefined,
    embedding: embeddingModel === undefined ? undefined : parseEmbeddingChoice(embeddingModel),
    settings,
  });
  return { index, resolved };
}
