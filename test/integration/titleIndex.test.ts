// The title path reads the embedded store's trigram index of titles instead of every title
// (searchQueries.ts titleMatches). The index only narrows: what it returns must be exactly what a
// scan of every live indexed title returns, in the same order, whatever the case, script, quotes
// or length of the text, after titles change, items are forgotten, a store is imported, and in a
// store written before the index existed. Each case compares the store's answer with that scan,
// run on a connection of its own to the same real file.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { workspaceIndexNames } from '../../server/src/store/sqlite/workspaceIndexes.ts';
import { indexDocument } from '../contract/documents.ts';
import { tempDir } from '../support/tempFolder.ts';

const WORKSPACE = 'titles';

const TITLES = [
  'Gantry crane refurbishment report',
  'GANTRY CRANE SHORT',
  'Étude de faisabilité ÉTÉ',
  'étude de faisabilité été',
  'Crane "Titan" inspection',
  'Crane “Titan” notes',
  'Погрузочный кран: отчёт',
  '港口起重机报告',
  'Rocket 🚀🚀 launch log',
  '50% of budget_2026 spent',
];

/** What the title path returned before it had an index: every live indexed title read. */
function scan(file: string, text: string, limit: number): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db
        .prepare(
          `SELECT id FROM items WHERE workspace = ? AND status = 'indexed' AND deleted_at IS NULL
           AND title IS NOT NULL AND instr(lower(title), lower(?)) > 0 ORDER BY length(title), path LIMIT ?`,
        )
        .all(WORKSPACE, text, limit) as { id: string }[]
    ).map((row) => row.id);
  } finally {
    db.close();
  }
}

async function storeOfTitles(t: TestContext): Promise<{ store: WorkspaceStore; file: string; dataDir: string }> {
  const dataDir = tempDir(t);
  const store = openSqliteStore({ dataDir, workspace: WORKSPACE });
  t.after(() => store.close());
  for (const [n, title] of TITLES.entries()) await indexDocument(store, `notes/note-${n}.md`, `# ${title}\n\nBody of note ${n}.\n`);
  return { store, file: path.join(dataDir, 'relata.sqlite'), dataDir };
}

const QUERIES = [
  'crane',
  'CRANE',
  'gantry crane r',
  'étude',
  'ÉTUDE',
  'Été',
  'été',
  '"Titan"',
  '“Titan”',
  'crane "',
  'кран',
  'КРАН',
  '起重机',
  '🚀🚀',
  '🚀 launch',
  '50%',
  'budget_2026',
  'get_2',
  'AND OR NOT',
  'no such title',
];

async function sameAsScan(store: WorkspaceStore, file: string, label: string): Promise<void> {
  for (const query of QUERIES) {
    for (const limit of [1, 3, 40]) assert.deepEqual(await store.searchTitles(query, limit), scan(file, query, limit), `${label}: "${query}", limit ${limit}`);
  }
}

test('titles found through the trigram index are exactly those a scan of every title finds, in its order', async (t) => {
  const { store, file } = await storeOfTitles(t);
  await sameAsScan(store, file, 'indexed');
  // The cases that matter are there: case folded beyond ASCII by the index and kept apart by lower(),
  // text shorter than a trigram, and quotes that are FTS5 syntax.
  assert.equal((await store.searchTitles('ÉTUDE', 40)).length, 1);
  assert.equal((await store.searchTitles('étude', 40)).length, 1);
  assert.equal((await store.searchTitles('CRANE', 40)).length, 4);
  assert.equal((await store.searchTitles('🚀🚀', 40)).length, 1);
  assert.equal((await store.searchTitles('"Titan"', 40)).length, 1);
});

test('a changed title, a deleted and a forgotten item leave the index as a scan finds the titles', async (t) => {
  const { store, file } = await storeOfTitles(t);
  await indexDocument(store, 'notes/note-0.md', '# Harbour dredging plan\n\nBody of note 0, rewritten.\n');
  await store.tombstone('notes/note-1.md');
  await store.tombstone('notes/note-4.md');
  const forgotten = (await store.listItems({ includeDeleted: true })).filter((item) => item.path === 'notes/note-4.md').map((item) => item.id);
  await store.forgetItems(forgotten);
  await store.scrubForgotten();
  await sameAsScan(store, file, 'after changes');
  assert.deepEqual(await store.searchTitles('refurbishment', 10), []);
  assert.equal((await store.searchTitles('dredging', 10)).length, 1);
  // The forgotten title's trigrams are merged out of the index, not only marked deleted.
  const db = new Database(file, { readonly: true });
  t.after(() => db.close());
  const titles = workspaceIndexNames(WORKSPACE).titles;
  const rows = db.prepare(`SELECT count(*) AS n FROM ${titles} WHERE ${titles} MATCH ?`).get('"inspection"') as { n: number };
  assert.equal(rows.n, 0);
});

test('an imported store and a store written before the title index answer as a scan does', async (t) => {
  const { store, file, dataDir } = await storeOfTitles(t);
  const copyDir = tempDir(t);
  const copy = openSqliteStore({ dataDir: copyDir, workspace: WORKSPACE });
  t.after(() => copy.close());
  await copy.importRecords(store.exportRecords());
  await sameAsScan(copy, path.join(copyDir, 'relata.sqlite'), 'imported');
  await store.close();

  // A store of the version before: its title index absent; opening it to write builds it from the titles.
  const db = new Database(file);
  db.exec(`DROP TABLE ${workspaceIndexNames(WORKSPACE).titles}`);
  db.close();
  const reopened = openSqliteStore({ dataDir, workspace: WORKSPACE });
  t.after(() => reopened.close());
  await sameAsScan(reopened, file, 'reopened without the index');
});
