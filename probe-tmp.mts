import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
const db = new Database('/work/bench100k/run/data/folder-82470a8297d7/relata.sqlite', { readonly: true });
sqliteVec.load(db);
db.pragma('cache_size = -65536');
const ws = db.prepare("SELECT DISTINCT workspace FROM items LIMIT 3").all(); console.log(ws);
const W = (ws[0] as any).workspace;
const ids = (db.prepare('SELECT id FROM items WHERE workspace = ? ORDER BY random() LIMIT 2400').all(W) as any[]).map((r) => r.id);
const model = (db.prepare('SELECT id, dims FROM embedding_models WHERE workspace = ?').get(W) as any);
console.log(model);
const q: Record<string, string> = {
  entities: `SELECT e.* FROM entities e JOIN chunks c ON c.workspace = @ws AND c.id = e.chunk_id WHERE e.workspace = @ws AND e.item_id IN (SELECT value FROM json_each(@ids)) ORDER BY e.item_id, c.ordinal, e.char_start`,
  claims: `SELECT * FROM claims WHERE workspace = @ws AND item_id IN (SELECT value FROM json_each(@ids)) ORDER BY item_id, chunk_id, char_start`,
  phrases: `SELECT item_id, key, phrase, count FROM (SELECT item_id, key, phrase, count, ROW_NUMBER() OVER (PARTITION BY item_id ORDER BY count DESC, key) AS rank FROM item_phrases WHERE workspace = @ws AND item_id IN (SELECT value FROM json_each(@ids))) WHERE rank <= 30 ORDER BY item_id, rank`,
  metadata: `SELECT item_id, key, value, label, text FROM item_metadata WHERE workspace = @ws AND item_id IN (SELECT value FROM json_each(@ids)) ORDER BY item_id, ordinal`,
  vectors: `SELECT v.item_id, e.embedding FROM vectors v CROSS JOIN vec_f32_${model.dims} e ON e.rowid = v.seq WHERE v.workspace = @ws AND v.model_id = @modelId AND v.item_id IN (SELECT value FROM json_each(@ids)) ORDER BY v.item_id, v.chunk_id, v.window`,
  vectorSeqs: `SELECT v.item_id, v.seq FROM vectors v WHERE v.workspace = @ws AND v.model_id = @modelId AND v.item_id IN (SELECT value FROM json_each(@ids)) ORDER BY v.item_id, v.chunk_id, v.window`,
};
for (let round = 0; round < 2; round++) for (const [name, sql] of Object.entries(q)) {
  const st = db.prepare(sql);
  let rows = 0; const t = process.hrtime.bigint();
  for (let b = 0; b < 20; b++) rows += st.all({ ws: W, ids: JSON.stringify(ids.slice(b * 120, b * 120 + 120)), modelId: model.id }).length;
  console.log(round, name.padEnd(10), (Number(process.hrtime.bigint() - t) / 1e6 / 20).toFixed(1), 'ms per 120 items', (rows / 20).toFixed(0), 'rows');
}
