// Ways to damage a copy of a store the way disks and people do: random bytes over one page of the
// SQLite file, over every page of chosen tables, over its header, over a vector table's rows; a
// blob removed or rewritten. Each works
// on a checkpointed file, so the bytes on disk are the whole store.

import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { closeSync, cpSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

export const PAGE_SIZE = 4096;

export function copyStore(from: string, to: string): string {
  cpSync(from, to, { recursive: true });
  return to;
}

/** Folds the write-ahead log into the file, so overwriting a page of the file damages what SQLite reads. */
export function checkpoint(file: string): void {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/**
 * Overwrites, with random bytes, the b-tree page (table or index, leaf or interior) nearest the
 * middle of the file, or of one table when `owner` is given. Returns which page it was and whose.
 */
export function damageMiddlePage(file: string, owner?: string): { page: number; owner: string; pages: number } {
  checkpoint(file);
  const db = new Database(file, { readonly: true });
  const pages = db.pragma('page_count', { simple: true }) as number;
  const candidates = db
    .prepare(
      `SELECT name, pageno FROM dbstat WHERE pagetype IN ('leaf', 'internal') AND name NOT LIKE 'sqlite_%' AND (@owner IS NULL OR name = @owner)`,
    )
    .all({ owner: owner ?? null }) as { name: string; pageno: number }[];
  db.close();
  const target = candidates.sort((a, b) => Math.abs(a.pageno - pages / 2) - Math.abs(b.pageno - pages / 2))[0];
  if (!target) throw new Error(`no b-tree page${owner ? ` of ${owner}` : ''} in ${file}`);
  overwrite(file, (target.pageno - 1) * PAGE_SIZE, randomBytes(PAGE_SIZE));
  return { page: target.pageno, owner: target.name, pages };
}

/**
 * Overwrites every page of the tables and indexes whose names match the GLOB pattern, as a bad
 * sector or a stray write would; everything else stays readable, so a test can ask whether one
 * damaged table costs only what depends on it. Returns how many pages.
 */
export function damageTablePages(dataDir: string, tableGlob: string): number {
  const file = path.join(dataDir, 'relata.sqlite');
  checkpoint(file);
  const db = new Database(file, { readonly: true });
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = (db.prepare('SELECT pageno FROM dbstat WHERE name GLOB ? ORDER BY pageno').all(tableGlob) as { pageno: number }[]).map((row) => row.pageno);
  db.close();
  if (pages.length === 0) throw new Error(`${file}: no page belongs to a table matching ${tableGlob}`);
  for (const page of pages) overwrite(file, (page - 1) * pageSize, randomBytes(pageSize));
  return pages.length;
}

/** Random bytes over the first page's header: SQLite no longer recognises the file. */
export function damageHeader(file: string): void {
  checkpoint(file);
  overwrite(file, 0, randomBytes(100));
}

/** Random bytes over every stored vector of a sqlite-vec table (its shadow table of vector chunks), lengths kept. */
export function damageVectorRows(file: string, table: string): void {
  const db = new Database(file);
  db.prepare(`UPDATE ${table}_vector_chunks00 SET vectors = randomblob(length(vectors))`).run();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

export function blobPath(dataDir: string, hash: string): string {
  return path.join(dataDir, 'blobs', hash.slice(0, 2), hash);
}

function overwrite(file: string, offset: number, bytes: Uint8Array): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}
