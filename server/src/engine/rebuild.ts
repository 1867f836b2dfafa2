// `relata index --rebuild`: a fresh store from the folder that keeps what people decided. The
// decisions and history that can still be read are carried out of the live store; the new store is
// built beside it (store/sqlite/rebuildFiles.ts) and each decision is re-attached to its pair by the
// two items' paths; only then does the new store take the live one's place, by renames, the old file
// kept. A rebuild killed at any point leaves the live store with every decision. A decision meets
// the new evidence through the same review rule as a rediscovery (discover/decisionReview.ts): a
// confirmation whose evidence changed returns to review, a rejection stays and notes the change.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { reviewAgainstDecision } from '../discover/decisionReview.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import type { SqliteLocation } from '../store/location.ts';
import { otherProcessesWithStoreOpen } from '../store/sqlite/lockHolder.ts';
import {
  guardLiveStore,
  REBUILDING_FILE,
  removePartialStore,
  replaceLiveStore,
  settleInterruptedRebuild,
  type LiveStoreGuard,
} from '../store/sqlite/rebuildFiles.ts';
import { salvageDecisions, type Salvage } from '../store/sqlite/salvage.ts';
import { DATABASE_FILE } from '../store/sqlite/sqliteStore.ts';

/** A rebuild under way: what was carried out of the live store, and where the new one is built. */
export interface Rebuild {
  salvage: Salvage;
  /** The new store's location: the data directory, under another file name. */
  location: SqliteLocation;
  /** What settling an earlier, interrupted rebuild did, one line each. */
  settled: string[];
  guard: LiveStoreGuard;
}

export interface RebuildReport {
  kept_as: string | null;
  /** Decided relationships re-attached to a pair discovery proposed again, and those recorded for their pair as they stood. */
  relationships: { reattached: number; recorded: number; returned_to_review: number };
  aliases: number;
  /** What could not be carried, in words: unreadable rows, pairs whose files are gone. */
  lost: string[];
  /** Other workspaces of the old store, which this rebuild does not index. */
  other_workspaces: string[];
}

/** Locks the live store against writes, reads the decisions out of it, and names where the new store is built. */
export function startRebuild(dataDir: string, workspace: string): Rebuild {
  const file = path.join(dataDir, DATABASE_FILE);
  // A process that still has the file open (the folder's language server, a watcher) would go on
  // reading and writing the old file after the swap, and its work would be lost to the new store.
  const users = otherProcessesWithStoreOpen(file);
  if (users.length > 0) {
    throw new Error(
      `${file} is open in ${users.join(', ')}: stop ${users.length === 1 ? 'it' : 'them'} (in the editor, the folder's Relata ` +
        'language server) before rebuilding, so nothing is written to the file set aside',
    );
  }
  const guard = guardLiveStore(dataDir);
  try {
    const settled = settleInterruptedRebuild(dataDir, { remove: true, locked: true });
    const salvage = existsSync(file) ? salvageDecisions(file, workspace) : { relationships: [], aliases: [], unreadable: [], otherWorkspaces: [] };
    return { salvage, location: { backend: 'sqlite', dataDir, databaseFile: REBUILDING_FILE }, settled, guard };
  } catch (error) {
    guard?.close();
    throw error;
  }
}

/** Puts the complete new store (closed by the caller) in the live one's place; where the old one is kept. */
export function finishRebuild(rebuild: Rebuild): string | null {
  try {
    return replaceLiveStore(rebuild.location.dataDir, rebuild.guard);
  } catch (error) {
    removePartialStore(rebuild.location.dataDir, rebuild.guard);
    throw error;
  }
}

/** A rebuild that failed on its way: its partial store is removed and the live store stays as it was. */
export function abandonRebuild(rebuild: Rebuild): void {
  removePartialStore(rebuild.location.dataDir, rebuild.guard);
}

/** Re-attaches what was carried to the freshly indexed store's items, by path. */
export async function reattachDecisions(store: WorkspaceStore, rebuild: Rebuild): Promise<RebuildReport> {
  const { salvage } = rebuild;
  const report: RebuildReport = {
    kept_as: null,
    relationships: { reattached: 0, recorded: 0, returned_to_review: 0 },
    aliases: 0,
    lost: salvage.unreadable.map((what) =>
      what.startsWith('the whole store')
        ? `${what}: every relationship decision, its history and every alias decision of workspace ${store.workspace} could not be read and is not carried over`
        : what,
    ),
    other_workspaces: salvage.otherWorkspaces,
  };
  for (const carried of salvage.relationships) {
    const { record } = carried;
    const decided = record.status !== 'pending' || record.changedSinceDecision !== null;
    const [from, to] = [await store.getItemByPath(carried.fromPath), await store.getItemByPath(carried.toPath)];
    if (!from || !to) {
      const gone = [!from && carried.fromPath, !to && carried.toPath].filter(Boolean).join(' and ');
      if (decided) report.lost.push(`the ${record.status} relationship ${carried.fromPath} ↔ ${carried.toPath}: ${gone} is no longer in the folder`);
      continue;
    }
    // An undecided proposal is the folder's to make again: carried only onto a pair discovery proposed anew.
    if (!decided && !(await store.relationshipBetween(from.id, to.id))) continue;
    const outcome = await store.restoreRelationship({ ...record, fromItemId: from.id, toItemId: to.id }, carried.history, reviewAgainstDecision);
    report.relationships[outcome] += 1;
    const now = await store.relationshipBetween(from.id, to.id);
    if (record.status === 'confirmed' && now?.status === 'pending') report.relationships.returned_to_review += 1;
  }
  for (const alias of salvage.aliases) {
    await store.restoreAlias(alias);
    report.aliases += 1;
  }
  return report;
}
