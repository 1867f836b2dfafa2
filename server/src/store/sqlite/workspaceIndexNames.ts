// The names of a workspace's FTS5 tables, and which tables are any workspace's: pure, so that
// the statement guard (scopedSql.ts, storeWideSql.ts) knows them without importing the code that
// creates the tables (workspaceIndexes.ts), which runs its statements through that guard.

import { createHash } from 'node:crypto';

export interface WorkspaceIndexNames {
  items: string;
  chunks: string;
  /** Each item's title in trigrams: what the title path's substring look-up reads (search/titlePath.ts). */
  titles: string;
}

/** Any workspace's index, or one of FTS5's shadow tables behind it: the statement guard refuses another workspace's. */
export const PER_WORKSPACE_INDEX = /^(item|chunk|title)_fts_[0-9a-f]{16}(_\w+)?$/;

export function workspaceIndexNames(workspace: string): WorkspaceIndexNames {
  // A digest, not the name itself: table names cannot be bound as parameters.
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  return { items: `item_fts_${key}`, chunks: `chunk_fts_${key}`, titles: `title_fts_${key}` };
}

/**
 * The FTS5 shadow tables of the workspace's indexes that Relata reads itself: where FTS5 keeps its
 * totals and each row's length (lexicalStatistics.ts). Another workspace's stay refused.
 */
export function statisticsTables(names: WorkspaceIndexNames): string[] {
  return [names.items, names.chunks].flatMap((table) => [`${table}_data`, `${table}_docsize`]);
}
