// `relata index --rebuild`: a fresh store from the folder that keeps what people decided. Before
// indexing, the decisions and history that can still be read are carried out of the old store and
// the old file is set aside (kept, never deleted); after indexing, each decision is re-attached to
// its pair by the two items' paths. A decision meets the new evidence through the same review rule
// as a rediscovery (discover/decisionReview.ts): a confirmation whose evidence changed returns to
// review, a rejection stays and notes the change.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { reviewAgainstDecision } from '../discover/decisionReview.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import { otherProcessesWithStoreOpen } from '../store/sqlite/lockHolder.ts';
import { salvageDecisions, setStoreFileAside, type Salvage } from '../store/sqlite/salvage.ts';
import { DATABASE_FILE } from '../store/sqlite/sqliteStore.ts';

export interface SetAsideStore {
  salvage: Salvage;
  /** Where the old file went; null when there was none. */
  keptAs: string | null;
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

/** Reads the decisions out of the data directory's store and moves its file aside. */
export function setStoreAside(dataDir: string, workspace: string): SetAsideStore {
  const file = path.join(dataDir, DATABASE_FILE);
  if (!existsSync(file)) return { salvage: { relationships: [], aliases: [], unreadable: [], otherWorkspaces: [] }, keptAs: null };
  // A process that still has the file open (the folder's language server, a watcher) would go on
  // writing to the file set aside, and its work would be lost to the new store.
  const users = otherProcessesWithStoreOpen(file);
  if (users.length > 0) {
    throw new Error(
      `${file} is open in ${users.join(', ')}: stop ${users.length === 1 ? 'it' : 'them'} (in the editor, the folder's Relata ` +
        'language server) before rebuilding, so nothing is written to the file set aside',
    );
  }
  const salvage = salvageDecisions(file, workspace);
  return { salvage, keptAs: setStoreFileAside(file) };
}

/** Re-attaches what was carried to the freshly indexed store's items, by path. */
export async function reattachDecisions(store: WorkspaceStore, setAside: SetAsideStore): Promise<RebuildReport> {
  const { salvage } = setAside;
  const report: RebuildReport = {
    kept_as: setAside.keptAs,
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
