// Finds the store a read-only command should open. With --data, that directory. Otherwise the
// default data directory of the folder that was indexed: the given folder, or the nearest
// ancestor of a file (or of the current directory) that has one.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { DATABASE_FILE, defaultDataDir } from '../store/dataDir.ts';
import { UsageError } from './usage.ts';

export function locateDataDir(explicit: string | undefined, near: string): string {
  if (explicit) {
    const resolved = path.resolve(explicit);
    if (!existsSync(path.join(resolved, DATABASE_FILE))) {
      throw new UsageError(`no Relata store in ${resolved}: run \`relata index <folder> --data ${explicit}\` first`);
    }
    return resolved;
  }
  let candidate = path.resolve(near);
  for (;;) {
    const dataDir = defaultDataDir(candidate);
    if (existsSync(path.join(dataDir, DATABASE_FILE))) return dataDir;
    const parent = path.dirname(candidate);
    if (parent === candidate) break;
    candidate = parent;
  }
  throw new UsageError(`no indexed folder contains ${path.resolve(near)}: run \`relata index <folder>\` first, or pass --data DIR`);
}
