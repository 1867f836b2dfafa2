// A run that met a full disk says so once, in words a person can act on: which data directory,
// how much is free there, and about how much the rest of the folder still needs. The estimate is
// read from the queue and the items (what is not stored yet, what is stored but not yet cut into
// passages), so it is the size of the work left, at least that of the file that did not fit.

import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { WorkspaceStore } from '../store/contract.ts';
import { DiskFullError, freeBytesAt, isDiskFull, type SpaceNeeded } from '../store/diskFull.ts';
import { describeLocation, type StoreLocation } from '../store/location.ts';

/** The error as a DiskFullError naming where the store is and the space needed, when it is a full disk; else the error itself. */
export async function namingFullDisk(error: unknown, store: WorkspaceStore, folder: string, location: StoreLocation): Promise<unknown> {
  if (!isDiskFull(error) || error instanceof DiskFullError) return error;
  // Reading needs no space; if even that fails, the message still names the place.
  const needed = await spaceNeeded(store, folder).catch(() => ({ filesToStore: 0, bytesToStore: 0, filesToIndex: 0, bytesToIndex: 0 }));
  return location.backend === 'sqlite'
    ? new DiskFullError(`the data directory ${location.dataDir}`, needed, freeBytesAt(location.dataDir), { cause: error })
    : new DiskFullError(describeLocation(location), needed, null, { cause: error });
}

async function spaceNeeded(store: WorkspaceStore, folder: string): Promise<SpaceNeeded> {
  const needed: SpaceNeeded = { filesToStore: 0, bytesToStore: 0, filesToIndex: 0, bytesToIndex: 0 };
  for (const job of await store.listJobs()) {
    if (job.stage !== 'ingest' || (job.status !== 'queued' && job.status !== 'leased')) continue;
    const stats = await lstat(path.join(folder, job.subject)).catch(() => null);
    if (!stats?.isFile()) continue;
    needed.filesToStore += 1;
    needed.bytesToStore += stats.size;
  }
  for (const item of await store.listItems()) {
    if (item.status !== 'pending' || item.deletedAt) continue;
    needed.filesToIndex += 1;
    needed.bytesToIndex += item.size ?? 0;
  }
  return needed;
}
