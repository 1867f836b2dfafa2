// Turns a path a person typed (absolute, or relative to the current directory) into the item at
// that path in the indexed folder, with an error that says which folder was searched.

import path from 'node:path';
import type { ItemRecord, WorkspaceStore } from '../store/contract.ts';
import { leavesFolder } from '../workspace/folderBoundary.ts';
import { UsageError } from './usage.ts';

export async function itemAtPath(store: WorkspaceStore, root: string | null, given: string): Promise<ItemRecord> {
  if (!root) throw new UsageError('this store records no indexed folder');
  const absolute = path.resolve(given);
  const relative = path.relative(root, absolute).split(path.sep).join('/');
  const item = leavesFolder(relative) ? null : await store.getItemByPath(relative);
  if (!item) throw new UsageError(`${absolute}: not an item of ${root}`);
  return item;
}
