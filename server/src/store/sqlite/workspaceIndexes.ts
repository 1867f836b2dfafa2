// Each workspace gets its own FTS5 tables. BM25 scores depend on corpus statistics (document
// frequencies, average length); a table shared by workspaces would let one person's documents
// shape the ranking of another's, which the privacy boundary forbids. Per-workspace tables also
// keep the query plan simple: the full-text match is the whole search, no workspace filter to
// interleave with it.

import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';

export interface WorkspaceIndexNames {
  items: string;
  chunks: string;
}

export function workspaceIndexNames(workspace: string): WorkspaceIndexNames {
  // A digest, not the name itself: table names cannot be bound as parameters.
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  return { items: `item_fts_${key}`, chunks: `chunk_fts_${key}` };
}

/**
 * Creates the workspace's lexical indexes if missing, filling them from the stored chunks and
 * texts (a store written before they existed, or one whose index was dropped by a migration).
 */
export function ensureWorkspaceIndexes(db: Database.Database, workspace: string): WorkspaceIndexNames {
  const names = workspaceIndexNames(workspace);
  const exists = (name: string) =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  db.transaction(() => {
    if (!exists(names.chunks)) {
      db.exec(`CREATE VIRTUAL TABLE ${names.chunks} USING fts5 (
        text, content = '', contentless_delete = 1, tokenize = 'porter unicode61')`);
      db.prepare(`INSERT INTO ${names.chunks} (rowid, text) SELECT seq, text FROM chunks WHERE workspace = ?`).run(workspace);
    }
    if (!exists(names.items)) {
      db.exec(`CREATE VIRTUAL TABLE ${names.items} USING fts5 (
        title, text, content = '', contentless_delete = 1, tokenize = 'porter unicode61')`);
      db.prepare(
        `INSERT INTO ${names.items} (rowid, title, text)
         SELECT items.seq, COALESCE(items.title, ''), json_extract(item_texts.document, '$.text')
         FROM items JOIN item_texts ON item_texts.item_id = items.id
         WHERE items.workspace = ? AND items.status = 'indexed' AND items.deleted_at IS NULL`,
      ).run(workspace);
    }
  }).immediate();
  return names;
}
