// BM25 reads two statistics of a lexical index: how many rows it holds and their average length.
// FTS5's contentless-delete tables (the kind a workspace's index is, so that `relata forget` can
// take a document's words out of it) do not subtract a deleted row from either: measured on
// SQLite 3.51, ten rows, one deleted, the row count stays 10; inserted again, it is 11. Every
// edit of a file replaces its passages, so a long-lived store's statistics drift away from its
// content, and it ranks differently from a store restored or rebuilt from the same files.
//
// The drift is read, not tracked: the row count FTS5 keeps (its "averages" record) against the
// rows it really holds (one `_docsize` row each). Past REBUILD_AT_DRIFT the index is emptied and
// filled again from the stored passages and texts, so the statistics are exact once more; below
// it, the difference in ranking is too small to change an order, and a rebuild on every save of a
// large folder would cost more than it gives.

import type { ScopedSql } from './scopedSql.ts';
import { fillChunkIndex, fillItemIndex, type WorkspaceIndexNames } from './workspaceIndexes.ts';

/** Phantom rows, as a share of the real ones, at which an index is rebuilt. */
export const REBUILD_AT_DRIFT = 0.05;

/** FTS5 keeps its totals in the row of `<table>_data` with this id (FTS5_AVERAGES_ROWID). */
const AVERAGES_ROWID = 1;

export interface LexicalDrift {
  table: string;
  /** The row count BM25 reads. */
  counted: number;
  /** The rows the index holds. */
  held: number;
}

/** Each of the workspace's two lexical indexes: the rows BM25 counts and the rows there are. */
export function lexicalDrift(sql: ScopedSql, names: WorkspaceIndexNames): LexicalDrift[] {
  return [names.chunks, names.items].map((table) => {
    const counted = countedRows(sql, table);
    const held = sql.row<{ rows: number }>(`SELECT count(*) AS rows FROM ${table}_docsize`)!.rows;
    return { table, counted, held };
  });
}

/** The row count BM25 reads for an index (FTS5's xRowCount): the first number of its averages record. */
export function countedRows(sql: ScopedSql, table: string): number {
  const averages = sql.row<{ block: Buffer }>(`SELECT block FROM ${table}_data WHERE id = ${AVERAGES_ROWID}`);
  return averages ? readVarint(averages.block) : 0;
}

/** Whether an index counts enough rows it no longer holds to be rebuilt. */
export function drifted({ counted, held }: LexicalDrift): boolean {
  return counted - held > held * REBUILD_AT_DRIFT;
}

/**
 * Empties each drifted index and fills it again from the workspace's passages and texts, in one
 * write transaction (readers keep the old index until it commits). Returns the tables rebuilt.
 */
export function rebuildDriftedIndexes(sql: ScopedSql, names: WorkspaceIndexNames): string[] {
  return sql.write(() => {
    const rebuilt: string[] = [];
    for (const drift of lexicalDrift(sql, names)) {
      if (!drifted(drift)) continue;
      sql.run(`INSERT INTO ${drift.table} (${drift.table}) VALUES ('delete-all')`);
      if (drift.table === names.chunks) fillChunkIndex(sql, names);
      else fillItemIndex(sql, names);
      rebuilt.push(drift.table);
    }
    return rebuilt;
  });
}

/** SQLite's variable-length integer (big-endian, 7 bits a byte, the ninth byte whole), as FTS5 writes its totals. */
function readVarint(bytes: Uint8Array): number {
  let value = 0;
  for (let index = 0; index < Math.min(bytes.length, 9); index += 1) {
    const byte = bytes[index]!;
    if (index === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  return value;
}
