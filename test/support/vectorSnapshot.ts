// What the store holds in vectors, read straight from the SQLite file: per chunk, which models
// and windows cover it, for checks that no chunk is left out or covered by two models.

import Database from 'better-sqlite3';
import path from 'node:path';

export interface ChunkCoverage {
  chunkId: string;
  textLength: number;
  models: string[];
  /** [window, start, end, seq] in window order. */
  windows: [number, number, number, number][];
}

export function vectorCoverage(dataDir: string): ChunkCoverage[] {
  const db = new Database(path.join(dataDir, 'relata.sqlite'), { readonly: true });
  try {
    const chunks = db.prepare('SELECT id, length(text) AS n FROM chunks ORDER BY id').all() as { id: string; n: number }[];
    const vectors = db
      .prepare('SELECT chunk_id, model_id, window, char_start, char_end, seq FROM vectors ORDER BY chunk_id, window')
      .all() as { chunk_id: string; model_id: string; window: number; char_start: number; char_end: number; seq: number }[];
    return chunks.map((chunk) => {
      const own = vectors.filter((vector) => vector.chunk_id === chunk.id);
      return {
        chunkId: chunk.id,
        textLength: chunk.n,
        models: [...new Set(own.map((vector) => vector.model_id))],
        windows: own.map((vector) => [vector.window, vector.char_start, vector.char_end, vector.seq]),
      };
    });
  } finally {
    db.close();
  }
}
