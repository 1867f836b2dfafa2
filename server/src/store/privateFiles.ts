// A store holds people's documents, their text and what was found in them: only the user who runs
// Relata may read it. Directories are created 0700 and files 0600 whatever the umask; a store left
// readable by an older Relata (0755 / 0644) is tightened when it is opened, not refused.

import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside, relataDataHome } from './dataDir.ts';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Group or other users have some access. */
const isLoose = (mode: number) => (mode & 0o077) !== 0;

/** Creates `dir` (and missing parents) owner-only, or tightens it; true when it had to be tightened. */
export function privateDir(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const { mode } = statSync(dir);
  if (!isLoose(mode)) return false;
  chmodSync(dir, PRIVATE_DIR_MODE);
  return true;
}

/** Creates `file` empty and owner-only if missing, or tightens it; SQLite gives its -wal and -shm the mode of this file. */
export function privateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  if (isLoose(statSync(file).mode)) chmodSync(file, PRIVATE_FILE_MODE);
}

/**
 * Makes a store's data directory private before anything is written to it. The directories Relata
 * owns above it (under the data home, whose names reveal the folders indexed) are made private too.
 * A directory that was readable by others is an older store: everything in it is tightened once.
 */
export function preparePrivateDataDir(dataDir: string): void {
  const home = relataDataHome();
  const owned = isInside(dataDir, home) ? ancestorsFrom(home, dataDir) : [dataDir];
  const tightened = owned.map(privateDir);
  if (tightened[tightened.length - 1] || hasLooseEntries(dataDir)) tightenTree(dataDir);
}

function ancestorsFrom(top: string, dir: string): string[] {
  const chain = [path.resolve(dir)];
  for (let current = chain[0]!; current !== path.resolve(top); ) {
    current = path.dirname(current);
    chain.unshift(current);
  }
  return chain;
}

/** The top level only: cheap enough for every open, and an older store always has loose files there. */
function hasLooseEntries(dir: string): boolean {
  return readdirSync(dir, { withFileTypes: true }).some((entry) => {
    if (entry.isSymbolicLink()) return false;
    return isLoose(lstatSync(path.join(dir, entry.name)).mode);
  });
}

/** Never follows a link: a link inside the store must not make Relata chmod a file elsewhere. */
function tightenTree(dir: string): void {
  chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const target = path.join(dir, entry.name);
    if (entry.isDirectory()) tightenTree(target);
    else if (entry.isFile() && isLoose(lstatSync(target).mode)) chmodSync(target, PRIVATE_FILE_MODE);
  }
}
