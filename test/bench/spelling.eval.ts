// npm run eval:spelling — what spelling tolerance (server/src/ranking/spelling.ts) does to English
// search quality: SciFact's abstracts in an FTS5 index made as the store makes its own (porter
// unicode61, its fts5vocab), each claim searched by BM25 as typed and with the corrections the
// search would add; nDCG@10 of both, and how many claims were corrected, with examples. Lexical
// alone (the path a correction changes), so it runs in under a minute without an embedding model.

import Database from 'better-sqlite3';
import { loadAbstracts, loadClaims, loadQrels, ndcgAt } from '../support/scifact.ts';
import { correctSpelling } from '../../server/src/ranking/spelling.ts';
import { searchedQuery } from '../../shared/spellingText.ts';
import { toFtsQuery } from '../../server/src/store/sqlite/ftsQuery.ts';
const db = new Database(':memory:');
db.exec(`CREATE VIRTUAL TABLE t USING fts5(title, text, content='', contentless_delete=1, tokenize='porter unicode61')`);
const ids: string[] = [];
const insert = db.prepare('INSERT INTO t(rowid,title,text) VALUES (?,?,?)');
for (const doc of loadAbstracts()) { ids.push(doc.id); insert.run(ids.length, doc.title, doc.text); }
db.exec(`CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')`);
const search = (q: string, limit: number) => { const m = toFtsQuery(q); if (!m) return []; return db.prepare(`SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?`).all(m, limit).map((r: any) => ids[r.rowid - 1]!); };
const store: any = {
  searchItemsLexical: async (q: string, limit: number) => search(q, limit).map((id) => ({ id, itemId: id, bm25: 0 })),
  lexicalVocabulary: async (prefix: string) => db.prepare(`SELECT term, doc FROM v WHERE term >= ? AND term < ?`).all(prefix, prefix.slice(0, -1) + String.fromCodePoint(prefix.codePointAt(prefix.length - 1)! + 1)).map((r: any) => ({ term: r.term, documents: r.doc })),
};
const claims = loadClaims();
for (const split of ['test', 'train'] as const) {
  let before = 0, after = 0, corrected = 0; const examples: string[] = [];
  const qrels = loadQrels(split);
  for (const [id, relevant] of qrels) {
    const text = claims.get(id)!.text;
    const { corrections } = await correctSpelling(store, text);
    if (corrections.length) { corrected++; if (examples.length < 8) examples.push(corrections.map((c) => `${c.typed}→${c.searched}`).join(',')); }
    const b = ndcgAt(10, search(text, 100), relevant); const a = ndcgAt(10, search(searchedQuery(text, corrections), 100), relevant);
    before += b; after += a;
  }
  console.log(`${split}: ${qrels.size} claims, ${corrected} corrected; lexical (item BM25) nDCG@10 as typed ${(before / qrels.size).toFixed(4)}, with spelling tolerance ${(after / qrels.size).toFixed(4)}; e.g. ${examples.join(' | ')}`);
}
