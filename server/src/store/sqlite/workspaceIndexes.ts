// Each workspace gets its own FTS5 tables. BM25 scores depend on corpus statistics (document
// frequencies, average length); a table shared by workspaces would let one person's documents
// shape the ranking of another's, which the privacy boundary forbids. Per-workspace tables also
// keep the query plan simple: the full-text match is the whole search, no workspace filter to
// interleave with it.

import { INDEXED_TEXT_FUNCTION, itemIndexTextSql } from './itemText.ts';
import type { ScopedSql } from './scopedSql.ts';
import { workspaceIndexNames, type WorkspaceIndexNames } from './workspaceIndexNames.ts';

export { workspaceIndexNames, type WorkspaceIndexNames } from './workspaceIndexNames.ts';

/**
 * Creates the workspace's lexical indexes if missing, filling them from the stored chunks and
 * texts (a store written before they existed, or one whose index was dropped by a migration).
 */
export function ensureWorkspaceIndexes(sql: ScopedSql): WorkspaceIndexNames {
  const { db } = sql;
  const names = workspaceIndexNames(sql.workspace);
  // Only a store missing them takes the write lock: opening to write must not queue behind another writer.
  if (workspaceIndexesExist(sql)) return names;
  sql.write(() => {
    if (!tableExists(sql, names.chunks)) {
      db.exec(`CREATE VIRTUAL TABLE ${names.chunks} USING fts5 (
        text, content = '', contentless_delete = 1, tokenize = 'porter unicode61')`);
      fillChunkIndex(sql, names);
    }
    if (!tableExists(sql, names.items)) {
      db.exec(`CREATE VIRTUAL TABLE ${names.items} USING fts5 (
        title, text, content = '', contentless_delete = 1, tokenize = 'porter unicode61')`);
      fillItemIndex(sql, names);
    }
    if (!tableExists(sql, names.titles)) {
      // Trigrams answer "which titles contain this text" from the index (any text of three
      // characters or more) instead of reading every title: at 100,000 items the scan took ~50 ms
      // of every search. Folded case, so it finds a superset of what the title path keeps.
      db.exec(`CREATE VIRTUAL TABLE ${names.titles} USING fts5 (
        title, content = '', contentless_delete = 1, tokenize = 'trigram')`);
      fillTitleIndex(sql, names);
    }
  });
  return names;
}

/** Indexes every stored passage of the workspace (into an empty index). */
export function fillChunkIndex(sql: ScopedSql, names: WorkspaceIndexNames): void {
  sql.run(`INSERT INTO ${names.chunks} (rowid, text) SELECT seq, ${INDEXED_TEXT_FUNCTION}(text) FROM chunks WHERE workspace = @ws`);
}

/** Indexes every indexed item's title and whole text (into an empty index). */
export function fillItemIndex(sql: ScopedSql, names: WorkspaceIndexNames): void {
  sql.run(
    `INSERT INTO ${names.items} (rowid, title, text)
     SELECT items.seq, ${INDEXED_TEXT_FUNCTION}(COALESCE(items.title, '')), ${itemIndexTextSql('item_texts')}
     FROM items JOIN item_texts ON item_texts.workspace = @ws AND item_texts.item_id = items.id
     WHERE items.workspace = @ws AND items.status = 'indexed' AND items.deleted_at IS NULL`,
  );
}

/** Indexes the title of every item the item index holds (into an empty index). */
export function fillTitleIndex(sql: ScopedSql, names: WorkspaceIndexNames): void {
  sql.run(
    `INSERT INTO ${names.titles} (rowid, title)
     SELECT items.seq, items.title FROM items
     WHERE items.workspace = @ws AND items.status = 'indexed' AND items.deleted_at IS NULL AND items.title IS NOT NULL`,
  );
}

/** Whether the workspace's lexical indexes exist: a store opened to read uses them only if so (it cannot create them). */
export function workspaceIndexesExist(sql: ScopedSql): boolean {
  const names = workspaceIndexNames(sql.workspace);
  return tableExists(sql, names.chunks) && tableExists(sql, names.items) && tableExists(sql, names.titles);
}

// A pragma, not a statement: whether a table exists is about the schema, not any workspace's rows.
function tableExists(sql: ScopedSql, name: string): boolean {
  return (sql.db.pragma(`table_info(${name})`) as unknown[]).length > 0;
}
