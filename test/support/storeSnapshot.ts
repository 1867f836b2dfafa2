// A comparable picture of a store's contents, read straight from the SQLite file, plus the
// invariants a healthy store keeps (no orphan chunks, no stuck leases, lexical index in step).

import Database from 'better-sqlite3';
import path from 'node:path';
import { workspaceIndexNames } from '../../server/src/store/sqlite/workspaceIndexes.ts';

export interface StoreSnapshot {
  items: { path: string; status: string; hash: string | null; version: number; parser: string | null; title: string | null }[];
  chunkIds: string[];
  orphanChunks: number;
  duplicateLivePaths: number;
  leasedJobs: number;
  unfinishedJobs: number;
  chunkFtsRows: number;
  chunkRows: number;
}

export function snapshotStore(dataDir: string, workspace: string): StoreSnapshot {
  const db = new Database(path.join(dataDir, 'relata.sqlite'), { readonly: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      items: db
        .prepare(
          `SELECT path, status, content_hash AS hash, version, parser_version AS parser, title
           FROM items WHERE deleted_at IS NULL ORDER BY path`,
        )
        .all() as StoreSnapshot['items'],
      chunkIds: (db.prepare('SELECT id FROM chunks ORDER BY id').all() as { id: string }[]).map((row) => row.id),
      orphanChunks: count(
        `SELECT COUNT(*) AS n FROM chunks LEFT JOIN items ON items.id = chunks.item_id
         WHERE items.id IS NULL OR items.deleted_at IS NOT NULL OR items.status != 'indexed'`,
      ),
      duplicateLivePaths: count(
        `SELECT COUNT(*) AS n FROM (SELECT path FROM items WHERE deleted_at IS NULL GROUP BY workspace, path HAVING COUNT(*) > 1)`,
      ),
      leasedJobs: count(`SELECT COUNT(*) AS n FROM jobs WHERE status = 'leased'`),
      unfinishedJobs: count(`SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'leased')`),
      chunkFtsRows: count(`SELECT COUNT(*) AS n FROM ${workspaceIndexNames(workspace).chunks}`),
      chunkRows: count('SELECT COUNT(*) AS n FROM chunks'),
    };
  } finally {
    db.close();
  }
}
