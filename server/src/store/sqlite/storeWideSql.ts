// Statements that are about the store file rather than one workspace's data: the schema, the
// migrations' own table, SQLite's sequences, and whether any workspace still refers to some bytes.
// They cannot be scoped to a workspace, so they are kept apart from ScopedSql and named for what
// they are; a statement here that reads or writes workspace rows is refused, with one exception
// that says why below.

import type Database from 'better-sqlite3';
import { StatementScope } from './statementScope.ts';
import { PER_WORKSPACE_INDEX } from './workspaceIndexNames.ts';

/** Tables that hold workspace data in a `workspace` column, from the schema itself (lower case). */
export function workspaceTables(db: Database.Database): Set<string> {
  const rows = db
    .prepare(
      `SELECT lower(m.name) AS name FROM sqlite_master m
       WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'workspace')`,
    )
    .all() as { name: string }[];
  return new Set(rows.map((row) => row.name));
}

/** A statement on the schema, sequences or migrations: refused if it names a table holding workspace data. */
export function storeStatement(db: Database.Database, text: string): Database.Statement {
  const tables = workspaceTables(db);
  const named = StatementScope.tablesOf(text, {
    workspaceTables: tables,
    ownTables: new Set(),
    isPerWorkspaceTable: (name) => PER_WORKSPACE_INDEX.test(name),
    isRowidKeyed: () => false,
  });
  if (named.length > 0) throw new Error(`a store-wide statement may not read or write workspace data (${named.join(', ')}): ${text}`);
  return db.prepare(text);
}

/**
 * Whether any item or version, in any workspace of this data directory, other than forgotten ones,
 * still refers to these bytes. Blobs are content-addressed and shared by every workspace of the data
 * directory, so whether one may be removed cannot be answered inside one workspace. The answer is a
 * count, never a row, and says nothing another workspace's own ingest of the same bytes would not.
 */
export const BLOB_REFERENCES = `
  SELECT (SELECT COUNT(*) FROM items WHERE content_hash = @hash AND forgotten_at IS NULL)
       + (SELECT COUNT(*) FROM item_versions v JOIN items i ON i.id = v.item_id
          WHERE v.content_hash = @hash AND i.forgotten_at IS NULL) AS n`;

export function blobReferences(db: Database.Database, hash: string): number {
  return (db.prepare(BLOB_REFERENCES).get({ hash }) as { n: number }).n;
}
