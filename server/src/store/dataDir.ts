// Where a folder's store lives by default: under the user's data home (XDG on Linux, the
// platform's equivalent elsewhere), one directory per folder, never inside the watched folder,
// so indexing cannot feed on its own output.

import envPaths from 'env-paths';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** The SQLite store's file inside its data directory. */
export const DATABASE_FILE = 'relata.sqlite';

/** A rebuilt store waiting to take DATABASE_FILE's place (sqlite/rebuildFiles.ts): `<prefix><time>`. */
export const REBUILT_PREFIX = `${DATABASE_FILE}.rebuilt-`;

/** True when the directory holds a store, or a rebuilt one the next command puts in place. */
export function holdsStore(dataDir: string): boolean {
  if (existsSync(path.join(dataDir, DATABASE_FILE))) return true;
  try {
    return readdirSync(dataDir).some((name) => name.startsWith(REBUILT_PREFIX) && !/-(wal|shm)$/.test(name));
  } catch {
    return false;
  }
}

/** Relata's own directory under the data home; the folders' stores live beneath it. */
export function relataDataHome(): string {
  return envPaths('relata', { suffix: '' }).data;
}

/**
 * A folder's name among others: its base name and a digest of its absolute path. Names its
 * default data directory, and scopes its documents on a shared MongoDB + Qdrant store.
 */
export function folderKey(folder: string): string {
  const absolute = path.resolve(folder);
  const digest = createHash('sha256').update(absolute).digest('hex').slice(0, 12);
  const name = path.basename(absolute).replace(/[^\w.-]+/g, '_') || 'root';
  return `${name}-${digest}`;
}

export function defaultDataDir(folder: string): string {
  return path.join(relataDataHome(), 'folders', folderKey(folder));
}

/** True when `inner` is `outer` or lies beneath it; only the segment `..` climbs (`..notes` is a name). */
export function isInside(inner: string, outer: string): boolean {
  const relative = path.relative(path.resolve(outer), path.resolve(inner));
  return !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
}
