// The statement guard reads each statement's table references: every workspace table, on every
// side of every join and in every subquery, is limited to the statement's workspace, and what is
// in a comment or a string literal does not count. The last test records every statement the
// store prepares during a real run (index, search, relationships, vectors, forget) and checks them.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { decisionBasis } from '../../server/src/discover/decisionReview.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { registerIndexedText } from '../../server/src/store/sqlite/itemText.ts';
import { migrate } from '../../server/src/store/sqlite/migrations.ts';
import { ScopedSql, scopeRulesFor } from '../../server/src/store/sqlite/scopedSql.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { StatementScope } from '../../server/src/store/sqlite/statementScope.ts';
import { BLOB_REFERENCES } from '../../server/src/store/sqlite/storeWideSql.ts';
import { ensureWorkspaceIndexes, workspaceIndexNames } from '../../server/src/store/sqlite/workspaceIndexes.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

function schema(t: TestContext): ScopedSql {
  const db = new Database(path.join(tempDir(t), 'relata.sqlite'));
  t.after(() => db.close());
  sqliteVec.load(db);
  // The item index's triggers call the store's own SQL function, as every store connection has it.
  registerIndexedText(db);
  migrate(db);
  db.exec(`CREATE VIRTUAL TABLE vec_f32_4 USING vec0 (workspace TEXT PARTITION KEY, model_id TEXT, embedding FLOAT[4] distance_metric=cosine)`);
  const sql = new ScopedSql(db, 'alice');
  ensureWorkspaceIndexes(sql);
  return sql;
}

const refused = (sql: ScopedSql, text: string, reason: RegExp) =>
  assert.throws(() => sql.rows(text), (error: Error) => /not scoped to the workspace/.test(error.message) && reason.test(error.message), text);

test('a join that scopes only one side is refused, naming the unscoped table', (t) => {
  const sql = schema(t);
  refused(sql, 'SELECT chunks.text FROM chunks JOIN items ON items.id = chunks.item_id WHERE chunks.workspace = @ws', /items is not limited/);
  refused(sql, 'SELECT c.text FROM chunks c, items i WHERE c.workspace = @ws AND i.id = c.item_id', /items \(as i\) is not limited/);
  assert.deepEqual(sql.rows('SELECT chunks.text FROM chunks JOIN items ON items.workspace = @ws AND items.id = chunks.item_id WHERE chunks.workspace = @ws'), []);
});

test('an index hint neither hides a table from the check nor passes for its name', (t) => {
  const sql = schema(t);
  refused(sql, 'SELECT id FROM relationships INDEXED BY relationships_from WHERE from_item = @id', /relationships is not limited/);
  refused(sql, 'SELECT r.id FROM relationships r NOT INDEXED JOIN items i ON i.id = r.from_item WHERE r.workspace = @ws', /items \(as i\) is not limited/);
  assert.deepEqual(sql.rows('SELECT id FROM relationships INDEXED BY relationships_from WHERE relationships.workspace = @ws AND from_item = @id', { id: 'x' }), []);
  assert.deepEqual(sql.rows('SELECT r.id FROM relationships r INDEXED BY relationships_to WHERE r.workspace = @ws AND r.to_item = @id', { id: 'x' }), []);
});

test('a subquery without the scope is refused even when the outer query has it', (t) => {
  const sql = schema(t);
  refused(sql, 'SELECT * FROM items WHERE workspace = @ws AND id IN (SELECT item_id FROM chunks WHERE text LIKE @q)', /chunks is not limited/);
  refused(sql, 'SELECT id, (SELECT COUNT(*) FROM claims WHERE claims.item_id = items.id) AS n FROM items WHERE workspace = @ws', /claims is not limited/);
  refused(sql, 'WITH mine AS (SELECT id FROM relationships) SELECT * FROM mine', /relationships is not limited/);
  refused(sql, 'SELECT id FROM items WHERE workspace = @ws UNION SELECT id FROM relationships', /relationships is not limited/);
});

test('@ws in a comment or a string literal is no scope', (t) => {
  const sql = schema(t);
  refused(sql, 'SELECT * FROM items -- WHERE workspace = @ws', /items is not limited/);
  refused(sql, 'SELECT * FROM items /* workspace = @ws */', /items is not limited/);
  refused(sql, "SELECT * FROM items WHERE path <> 'workspace = @ws'", /items is not limited/);
  refused(sql, `SELECT * FROM items WHERE "workspace = @ws" IS NOT NULL`, /items is not limited/);
});

test('a scope that does not hold on its own (OR) does not count', (t) => {
  const sql = schema(t);
  refused(sql, 'SELECT * FROM items WHERE workspace = @ws OR 1 = 1', /items is not limited/);
  refused(sql, 'SELECT * FROM items WHERE (workspace = @ws OR status = @status)', /items is not limited/);
  assert.deepEqual(sql.rows("SELECT * FROM items WHERE (workspace = @ws AND status = 'indexed') AND (path = @a OR path = @b)", { a: 'x', b: 'y' }), []);
});

test('writes must stay in the workspace: INSERT binds @ws, an upsert and an UPDATE cannot reach another', (t) => {
  const sql = schema(t);
  refused(sql, "INSERT INTO meta (workspace, key, value) VALUES ('bob', @key, @value)", /does not bind @ws/);
  refused(sql, 'INSERT INTO meta (key, value) VALUES (@key, @value)', /does not set its workspace column/);
  refused(
    sql,
    'INSERT INTO item_texts (item_id, workspace, content_hash, parser_version, document) VALUES (@id, @ws, @h, @p, @d) ON CONFLICT (item_id) DO UPDATE SET document = excluded.document',
    /can update a row of another workspace/,
  );
  refused(sql, "UPDATE items SET workspace = 'bob' WHERE workspace = @ws", /moves rows to another workspace/);
  refused(sql, 'DELETE FROM chunks WHERE item_id = @id', /chunks is not limited/);
  sql.run('INSERT INTO meta (workspace, key, value) VALUES (@ws, @key, @value) ON CONFLICT (workspace, key) DO UPDATE SET value = excluded.value', { key: 'k', value: 'v' });
  assert.equal(sql.row<{ value: string }>('SELECT value FROM meta WHERE workspace = @ws AND key = @key', { key: 'k' })?.value, 'v');
});

test('per-workspace indexes: another workspace is refused; vectors are reached by a scoped row or the partition', (t) => {
  const sql = schema(t);
  const bob = workspaceIndexNames('bob').chunks;
  const own = workspaceIndexNames('alice').chunks;
  refused(sql, `SELECT rowid FROM ${bob} WHERE ${bob} MATCH @q`, new RegExp(`${bob} belongs to another workspace`));
  assert.deepEqual(sql.rows(`SELECT rowid FROM ${own} WHERE ${own} MATCH @q`, { q: 'word' }), []);
  refused(sql, 'DELETE FROM vec_f32_4 WHERE rowid = @seq', /vec_f32_4 is not limited/);
  refused(sql, 'SELECT e.embedding FROM vectors v JOIN vec_f32_4 e ON e.rowid = v.seq', /vectors \(as v\) is not limited/);
  sql.run('DELETE FROM vec_f32_4 WHERE rowid = (SELECT seq FROM vectors WHERE workspace = @ws AND seq = @seq)', { seq: 1 });
  sql.rows('SELECT e.embedding FROM vectors v JOIN vec_f32_4 e ON e.rowid = v.seq WHERE v.workspace = @ws');
  sql.rows('SELECT rowid FROM vec_f32_4 WHERE embedding MATCH @query AND k = 3 AND workspace = @ws', { query: Buffer.from(new Float32Array([1, 0, 0, 0]).buffer) });
});

test('a statement about no workspace table is not a workspace statement', (t) => {
  const sql = schema(t);
  refused(sql, "SELECT name FROM sqlite_master WHERE name = 'items'", /touches no workspace table/);
});

test('every statement the store prepares in a real run is scoped on every side', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    'supplier.md': '# Supplier review\n\nExample Ltd supplied 40 pumps in March 2024 for 12,000 EUR. Dr. Carla Mendes signed the review.\n',
    'audit.md': '# Audit\n\nThe audit found that Example Ltd supplied 40 pumps for 12,000 EUR. Carla Mendes approved it.\n',
    'notes/plan.md': '# Plan\n\nReplace the pumps at the north site before winter. Contact carla@example.com.\n',
  });
  const prepared = new Set<string>();
  const original = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, source: string) {
    prepared.add(source);
    return original.call(this, source);
  } as typeof original;
  t.after(() => {
    Database.prototype.prepare = original;
  });

  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' } });
  await index.index();
  await searchWorkspace(index.store, null, 'Example Ltd pumps');
  const [relationship] = await index.store.listRelationships();
  assert.ok(relationship, 'the two reviews are related');
  await index.store.decideRelationship(relationship.id, (current) => ({
    status: 'confirmed', score: current.score, signals: current.signals, by: 'alice', note: null, basis: decisionBasis(current.type, current.signals),
  }));
  await index.store.relationshipHistory(relationship.id);
  await index.store.listAliases();
  rmSync(path.join(folder, 'audit.md'));
  await index.index();
  await index.forget(['audit.md']);
  await index.close();

  // Vectors, exact and through a saved graph, then forgotten.
  const vectorStore = openSqliteStore({ dataDir, workspace: 'alice', vectorIndex: { exactBelow: 1, log: () => undefined } });
  const model = { id: 'probe', dims: 4, version: '1', maxTokens: 16 };
  await vectorStore.registerModel(model);
  const plan = (await vectorStore.listItems()).find((item) => item.path === 'notes/plan.md')!;
  const chunks = await vectorStore.chunksWithoutVectors(plan.id, model.id);
  await vectorStore.storeVectors(plan.id, plan.contentHash!, model, chunks.map((chunk) => ({ chunkId: chunk.id, window: 0, start: 0, end: 1, vector: new Float32Array([1, 0, 0, 0]) })));
  await vectorStore.searchVectors(model.id, new Float32Array([1, 0, 0, 0]), 3);
  await vectorStore.bestSimilarities(model.id, new Float32Array([1, 0, 0, 0]), [plan.id]);
  await vectorStore.discoveryFacts([plan.id], model.id, 5);
  await vectorStore.modelUsage();
  await vectorStore.close();
  const reopened = openSqliteStore({ dataDir, workspace: 'alice', vectorIndex: { exactBelow: 1, log: () => undefined } });
  await reopened.searchVectors(model.id, new Float32Array([0, 1, 0, 0]), 3);
  await reopened.tombstone('notes/plan.md');
  await reopened.forgetItems([plan.id]);
  await reopened.scrubForgotten();
  await reopened.close();

  const db = new Database(path.join(dataDir, 'relata.sqlite'), { readonly: true });
  sqliteVec.load(db);
  const rules = scopeRulesFor(db, 'alice');
  db.close();
  const touched = new Set<string>();
  const unscoped: string[] = [];
  for (const text of prepared) {
    if (text === BLOB_REFERENCES) continue; // blobs are shared by every workspace: see storeWideSql.ts
    const tables = StatementScope.tablesOf(text, rules);
    tables.forEach((table) => touched.add(table));
    if (tables.length === 0) continue; // the schema, migrations and sequences (storeWideSql.ts)
    const problems = StatementScope.problems(text, rules);
    if (problems.length > 0) unscoped.push(`${problems.join('; ')}\n  ${text.replace(/\s+/g, ' ')}`);
  }
  assert.deepEqual(unscoped, []);
  const own = workspaceIndexNames('alice');
  for (const table of ['items', 'item_versions', 'item_texts', 'chunks', 'entities', 'claims', 'item_phrases', 'item_extractions', 'relationships', 'relationship_events', 'item_discoveries', 'item_metadata', 'jobs', 'meta', 'embedding_models', 'vectors', 'vec_f32_4', 'vector_removals', 'vector_indexes', 'entity_aliases', own.items, own.chunks]) {
    assert.ok(touched.has(table), `the run exercised statements on ${table}`);
  }
  assert.ok(prepared.size > 100, `${prepared.size} statements checked`);
});
