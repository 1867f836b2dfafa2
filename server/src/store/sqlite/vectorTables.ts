// The sqlite-vec tables that hold every vector, one per dimension, and how they are laid out.
//
// sqlite-vec keeps vectors in chunks: one blob per chunk, read by offset. SQLite stores a large
// blob as a chain of overflow pages and reading at an offset walks the chain from its start, so
// reading one vector by rowid (discovery reads every window of ~100 candidate items) touches half
// a chunk's pages on average. With sqlite-vec's default of 1,024 vectors of 512 dimensions that is
// ~256 pages per vector: cheap while the table is in the page cache, ~0.3 ms once the workspace
// outgrows it, so discovery slowed as the folder grew. 64 vectors a chunk keeps a read to ~16
// pages at any size, and exact search over them is as fast (docs/PERFORMANCE.md, "Discovery").

import type Database from 'better-sqlite3';

/** Vectors per sqlite-vec chunk (a multiple of 8, as sqlite-vec requires). */
export const VECTOR_CHUNK_SIZE = 64;

const TABLE = /^vec_f32_(\d+)$/;

export function vectorTableName(dims: number): string {
  if (!Number.isInteger(dims) || dims <= 0 || dims > 8192) throw new Error(`unsupported vector dimension: ${dims}`);
  return `vec_f32_${dims}`;
}

export function createVectorTableSql(dims: number): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${vectorTableName(dims)} USING vec0 (
    workspace TEXT PARTITION KEY, model_id TEXT, embedding FLOAT[${dims}] distance_metric=cosine, chunk_size=${VECTOR_CHUNK_SIZE})`;
}

/**
 * Rewrites every vector table of the store in chunks of VECTOR_CHUNK_SIZE, keeping each vector's
 * rowid (the `vectors` row's seq, which saved vector-index graphs refer to) and bytes. sqlite-vec
 * cannot alter or rename a table, so the vectors go through a temporary table. Runs inside the
 * migration's transaction: a failure leaves the old tables as they were.
 */
export function rechunkVectorTables(db: Database.Database): void {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING vec0%'").pluck().all() as string[];
  for (const name of tables) {
    const match = TABLE.exec(name);
    if (!match) continue;
    const dims = Number(match[1]);
    db.exec(`
      CREATE TEMP TABLE relata_rechunk AS SELECT rowid AS seq, workspace, model_id, embedding FROM ${name};
      DROP TABLE ${name};
      ${createVectorTableSql(dims)};
      INSERT INTO ${name} (rowid, workspace, model_id, embedding)
        SELECT seq, workspace, model_id, embedding FROM temp.relata_rechunk ORDER BY seq;
      DROP TABLE temp.relata_rechunk;
    `);
  }
}
