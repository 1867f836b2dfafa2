// Finds the store a read-only command should open. With --data, that directory, or, when it is
// where the editor keeps stores (relata.store.dataLocation: one directory per folder), the one of
// the folder this command is about. Otherwise the default data directory of the folder that was
// indexed: the given folder, or the nearest ancestor of a file (or of the current directory) that
// has one.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { defaultDataDir, holdsStore } from '../store/dataDir.ts';
import { UsageError } from './usage.ts';

export function locateDataDir(explicit: string | undefined, near: string): string {
  if (explicit) {
    const resolved = path.resolve(explicit);
    if (holdsStore(resolved)) return resolved;
    const perFolder = nearestStore(near, (folder) => path.join(resolved, path.basename(defaultDataDir(folder))));
    if (perFolder) return perFolder;
    const stores = storesIn(resolved);
    throw new UsageError(
      `no Relata store in ${resolved}` +
        (stores.length > 0
          ? `; it holds the stores of several folders (${stores.join(', ')}): run the command inside the folder, or pass --data ${path.join(explicit, stores[0]!)}`
          : `: run \`relata index <folder> --data ${explicit}\` first`),
    );
  }
  const found = nearestStore(near, defaultDataDir);
  if (found) return found;
  throw new UsageError(`no indexed folder contains ${path.resolve(near)}: run \`relata index <folder>\` first, or pass --data DIR`);
}

/** The store of `near` or of its nearest ancestor, where `dataDirOf` says a folder's store is. */
function nearestStore(near: string, dataDirOf: (folder: string) => string): string | null {
  let candidate = path.resolve(near);
  for (;;) {
    const dataDir = dataDirOf(candidate);
    if (holdsStore(dataDir)) return dataDir;
    const parent = path.dirname(candidate);
    if (parent === candidate) return null;
    candidate = parent;
  }
}

/** The subdirectories of `dir` that hold a store (the editor's one-directory-per-folder layout). */
function storesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && holdsStore(path.join(dir, entry.name)))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
