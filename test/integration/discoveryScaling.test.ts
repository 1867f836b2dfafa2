// The look-ups that keep discovering one item flat as the folder grows (issue 14, item 8) answer
// exactly what the slower forms they replaced did. A name's frequency is read from the entity
// key index alone, which is right only because a deleted item keeps no entities; vectors live in
// small sqlite-vec chunks, and a store written with the old large chunks is rewritten on open
// with every vector's rowid and bytes kept. Real stores built from real files throughout.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { ModelDescriptor } from '../../server/src/embed/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { DATABASE_FILE, openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { VECTOR_CHUNK_SIZE } from '../../server/src/store/sqlite/vectorTables.ts';
import { seededRandom } from '../support/generateCorpus.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const ORGANISATION = 'organisation:okafor crane works ltd';

function report(n: number): string {
  return `# Report ${n}\n\nOkafor Crane Works Ltd inspected the gantry crane on site ${n} and filed the findings with the warehouse team.\n`;
}

async function indexed(t: import('node:test').TestContext, files: Record<string, string>) {
  const root = tempDir(t, 'relata-discovery-scaling-');
  const folder = writeFiles(path.join(root, 'folder'), files);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'scaling', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  return { folder, index };
}

test('a name counts each item that mentions it once, however often the item repeats it, and stops at the cap', async (t) => {
  const { index } = await indexed(t, {
    'a.md': report(1),
    'b.md': `${report(2)}\nOkafor Crane Works Ltd will return. Okafor Crane Works Ltd signed the sheet.\n`,
    'c.md': report(3),
  });
  assert.equal((await index.store.entityItemCounts([ORGANISATION], 1000)).get(ORGANISATION), 3);
  assert.equal((await index.store.entityItemCounts([ORGANISATION], 2)).get(ORGANISATION), 2, 'the count stops at the cap');
  assert.equal((await index.store.entityItemCounts(['organisation:nobody at all'], 1000)).has('organisation:nobody at all'), false);
});

test('a deleted item no longer counts toward the frequency of the names it mentioned', async (t) => {
  const { folder, index } = await indexed(t, { 'a.md': report(1), 'b.md': report(2), 'c.md': report(3) });
  assert.equal((await index.store.entityItemCounts([ORGANISATION], 1000)).get(ORGANISATION), 3);
  rmSync(path.join(folder, 'b.md'));
  await index.index();
  const deleted = (await index.store.listItems({ includeDeleted: true })).find((item) => item.path === 'b.md');
  assert.ok(deleted?.deletedAt, 'b.md is recorded as deleted');
  assert.equal((await index.store.entityItemCounts([ORGANISATION], 1000)).get(ORGANISATION), 2);
  assert.deepEqual(
    (await index.store.itemsMentioning(ORGANISATION, 'no-such-item', 20)).sort(),
    (await index.store.listItems()).filter((item) => item.path !== 'b.md').map((item) => item.id).sort(),
    'the deleted item is not a candidate either',
  );
});

const MODEL: ModelDescriptor = { id: 'scaling-test-8', dims: 8, version: '1', maxTokens: 128 };

test('a store written with large vector chunks is rewritten in small ones on open, every vector kept by rowid, byte for byte', async (t) => {
  const { index } = await indexed(t, { 'a.md': report(1), 'b.md': report(2) });
  const dataDir = index.dataDir;
  const random = seededRandom(3);
  const store = index.store;
  await store.registerModel(MODEL);
  // Enough windows for several chunks of the new size, so rowids map to different chunks and offsets.
  for (const item of await store.listItems()) {
    const [chunk] = await store.listChunks(item.id);
    const entries = Array.from({ length: VECTOR_CHUNK_SIZE + 40 }, (_, window) => ({
      chunkId: chunk!.id, window, start: 0, end: 1, vector: Float32Array.from({ length: MODEL.dims }, () => random() - 0.5),
    }));
    assert.ok(await store.storeVectors(item.id, item.contentHash!, MODEL, entries));
  }
  const query = Float32Array.from({ length: MODEL.dims }, () => random() - 0.5);
  const nearest = await store.searchVectors(MODEL.id, query, 12);
  await index.close();

  // As the previous schema left it: sqlite-vec's default chunks, and no record of the rewrite.
  const file = path.join(dataDir, DATABASE_FILE);
  const db = new Database(file);
  sqliteVec.load(db);
  const vectors = () => db.prepare('SELECT rowid, embedding FROM vec_f32_8 ORDER BY rowid').all() as { rowid: number; embedding: Buffer }[];
  const written = vectors();
  db.exec(`CREATE TEMP TABLE kept AS SELECT rowid AS seq, workspace, model_id, embedding FROM vec_f32_8;
    DROP TABLE vec_f32_8;
    CREATE VIRTUAL TABLE vec_f32_8 USING vec0 (workspace TEXT PARTITION KEY, model_id TEXT, embedding FLOAT[8] distance_metric=cosine);
    INSERT INTO vec_f32_8 (rowid, workspace, model_id, embedding) SELECT seq, workspace, model_id, embedding FROM temp.kept;`);
  const version = (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v;
  // The rechunking is migration 9: it and every later one (each idempotent) are unrecorded again.
  db.prepare('DELETE FROM schema_migrations WHERE version >= 9').run();
  db.close();

  const reopened = openSqliteStore({ dataDir, workspace: 'scaling' });
  t.after(() => reopened.close());
  assert.deepEqual(await reopened.searchVectors(MODEL.id, query, 12), nearest, 'the same nearest windows, with the same similarities');
  const after = new Database(file, { readonly: true });
  sqliteVec.load(after);
  t.after(() => after.close());
  const definition = (after.prepare("SELECT sql FROM sqlite_master WHERE name = 'vec_f32_8'").get() as { sql: string }).sql;
  assert.match(definition, new RegExp(`chunk_size=${VECTOR_CHUNK_SIZE}\\b`));
  assert.equal((after.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v, version);
  const rewritten = after.prepare('SELECT rowid, embedding FROM vec_f32_8 ORDER BY rowid').all() as { rowid: number; embedding: Buffer }[];
  assert.equal(rewritten.length, 2 * (VECTOR_CHUNK_SIZE + 40));
  assert.deepEqual(rewritten, written, 'every vector under its rowid, byte for byte');
});
