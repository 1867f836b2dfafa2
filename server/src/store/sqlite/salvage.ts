// What `relata index --rebuild` carries out of the store it replaces: the people's part,
// which the folder cannot give back (relationship decisions and their history, decided aliases),
// with each relationship's two item paths, since item ids are random and a fresh store gives the
// same files new ones. Everything else (items, passages, vectors, extraction, proposals) is
// derived from the folder and is rebuilt from it.
//
// The file is read on its own read-only connection, table by table and row by row, so one
// damaged page costs the rows on it and not the rest: each table is walked forwards and then
// backwards by rowid, which reaches the rows on both sides of a page SQLite cannot read. The
// walks name the table (NOT INDEXED), so a damaged index does not matter.

import type Database from 'better-sqlite3';
import { openToRead } from './readConnection.ts';
import type { EntityAliasView } from '../../../../shared/types.ts';
import type { RelationshipEvent, RelationshipRecord } from '../contract.ts';
import { toView, type AliasRow } from './aliasTables.ts';
import { toRecord, type RelationshipRow } from './relationshipTables.ts';
import { toEvent, type EventRow } from './rows.ts';

export interface CarriedRelationship {
  /** As it was in the old store, with the old store's item ids. */
  record: RelationshipRecord;
  fromPath: string;
  toPath: string;
  history: RelationshipEvent[];
}

export interface Salvage {
  relationships: CarriedRelationship[];
  aliases: EntityAliasView[];
  /** What could not be read, in words ("relationships: some rows unreadable (…); 4 read"). */
  unreadable: string[];
  /** Other workspaces found in the file: the rebuild indexes only this one. */
  otherWorkspaces: string[];
}

/** Reads what a store holds of people's decisions for one workspace; never throws for damage. */
export function salvageDecisions(file: string, workspace: string): Salvage {
  const salvage: Salvage = { relationships: [], aliases: [], unreadable: [], otherWorkspaces: [] };
  let db: Database.Database;
  try {
    db = openToRead(file);
  } catch (error) {
    salvage.unreadable.push(`the whole store: ${(error as Error).message}`);
    return salvage;
  }
  try {
    const read = <T>(table: string, columns: string, where: string, key: (row: T) => string): T[] => {
      const { rows, error } = readAround<T>(db, table, columns, where, workspace, key);
      if (error) salvage.unreadable.push(`${table}: some rows could not be read (${error}); ${rows.length} read`);
      return rows;
    };
    const paths = new Map(
      read<{ id: string; path: string }>('items', 'id, path', 'workspace = ?', (row) => row.id).map((row) => [row.id, row.path]),
    );
    const events = new Map<string, RelationshipEvent[]>();
    const eventRows = read<SalvagedEventRow>('relationship_events', 'rowid AS rowid_, *', 'workspace = ?', (row) => String(row.rowid_));
    for (const row of eventRows.sort((a, b) => a.rowid_ - b.rowid_)) {
      const list = events.get(row.relationship_id) ?? [];
      list.push(toEvent(row));
      events.set(row.relationship_id, list);
    }
    for (const row of read<RelationshipRow>('relationships', '*', 'workspace = ?', (row) => row.id)) {
      let record: RelationshipRecord;
      try {
        record = toRecord(row);
      } catch (error) {
        salvage.unreadable.push(`relationship ${row.id}: ${(error as Error).message}`);
        continue;
      }
      const fromPath = paths.get(record.fromItemId);
      const toPath = paths.get(record.toItemId);
      if (fromPath === undefined || toPath === undefined) {
        if (record.status !== 'pending') salvage.unreadable.push(`a ${record.status} relationship (${record.id}): the item row of one end could not be read`);
        continue;
      }
      salvage.relationships.push({ record, fromPath, toPath, history: events.get(record.id) ?? [] });
    }
    salvage.aliases = read<AliasRow>('entity_aliases', '*', "workspace = ? AND status <> 'pending'", (row) => row.id).map(toView);
    try {
      salvage.otherWorkspaces = (db.prepare('SELECT DISTINCT workspace FROM meta NOT INDEXED').pluck().all() as string[]).filter((name) => name !== workspace);
    } catch {
      // Only used to warn that other workspaces are not rebuilt; the damage is named above.
    }
  } finally {
    db.close();
  }
  return salvage;
}

interface SalvagedEventRow extends EventRow {
  rowid_: number;
  relationship_id: string;
}

/** The table's rows for the workspace, walked by rowid from both ends; the first error met, if any. */
function readAround<T>(
  db: Database.Database,
  table: string,
  columns: string,
  where: string,
  workspace: string,
  key: (row: T) => string,
): { rows: T[]; error: string | null } {
  const found = new Map<string, T>();
  let error: string | null = null;
  for (const order of ['ASC', 'DESC']) {
    try {
      for (const row of db.prepare(`SELECT ${columns} FROM ${table} NOT INDEXED WHERE ${where} ORDER BY rowid ${order}`).iterate(workspace) as Iterable<T>) {
        found.set(key(row), row);
      }
      if (order === 'ASC') break;
    } catch (failure) {
      error ??= (failure as Error).message;
    }
  }
  return { rows: [...found.values()], error };
}
