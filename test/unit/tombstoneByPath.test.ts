// A file seen at a path with no live item revives the latest item deleted there (SqliteStore's
// latestTombstoneAt). That look-up runs once per new file, so it must seek the deleted rows by path
// through an index (items_tombstone_path, migration 19) rather than read every item of the folder.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openStore } from '../../server/src/store/index.ts';
import { DATABASE_FILE } from '../../server/src/store/sqlite/sqliteStore.ts';
import { tempDir } from '../support/tempFolder.ts';

test('a file returning to a deleted path revives the latest item deleted there, found through the tombstone index', async (t) => {
  const dataDir = path.join(tempDir(t), 'data');
  const store = openStore({ dataDir, workspace: 'plan' });
  const onDisk = () => true;
  const first = await store.recordIngest({ path: 'notes/a.md', contentHash: 'h1', size: 1 }, onDisk);
  for (let n = 0; n < 200; n++) await store.recordIngest({ path: `notes/other-${n}.md`, contentHash: `o${n}`, size: 1 }, onDisk);
  await store.tombstone('notes/a.md');
  const back = await store.recordIngest({ path: 'notes/a.md', contentHash: 'h2', size: 1 }, onDisk);
  assert.ok('itemId' in first && 'itemId' in back);
  assert.equal(back.itemId, first.itemId, 'the deleted item is revived, keeping its id');
  await store.close();

  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  t.after(() => db.close());
  const plan = db
    .prepare(
      `EXPLAIN QUERY PLAN SELECT * FROM items WHERE workspace = @ws AND path = @path AND deleted_at IS NOT NULL
       ORDER BY deleted_at DESC LIMIT 1`,
    )
    .all({ ws: 'plan', path: 'notes/a.md' }) as { detail: string }[];
  const details = plan.map((row) => row.detail).join('; ');
  assert.match(details, /SEARCH items USING INDEX items_tombstone_path \(workspace=\? AND path=\?/, details);
  assert.doesNotMatch(details, /TEMP B-TREE/, 'no sort: the index gives the latest deletion first');
});
