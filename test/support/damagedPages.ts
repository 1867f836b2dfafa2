// Damage exactly the pages of chosen tables in a store's SQLite file, as a bad sector or a stray
// write would: the write-ahead log is checkpointed first, SQLite's dbstat table says which pages
// belong to the tables, and those pages are overwritten with random bytes. Everything else stays
// readable, so a test can ask whether one damaged table costs only what depends on it.

import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Overwrites every page of the tables whose names match the GLOB pattern; returns how many. */
export function damageTablePages(dataDir: string, tableGlob: string): number {
  const file = path.join(dataDir, 'relata.sqlite');
  const db = new Database(file);
  let pages: number[];
  let pageSize: number;
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    pageSize = db.pragma('page_size', { simple: true }) as number;
    pages = (db.prepare('SELECT pageno FROM dbstat WHERE name GLOB ? ORDER BY pageno').all(tableGlob) as { pageno: number }[]).map((row) => row.pageno);
  } finally {
    db.close();
  }
  if (pages.length === 0) throw new Error(`${file}: no page belongs to a table matching ${tableGlob}`);
  const fd = openSync(file, 'r+');
  try {
    for (const page of pages) writeSync(fd, randomBytes(pageSize), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
  return pages.length;
}
