// An item's whole text is stored once: item_texts keeps the parsed blocks and not the joined text
// beside them (store/sqlite/itemText.ts), yet every reader sees the same document as before: the
// text read back is the blocks joined, the item's lexical index holds the whole text (a word that
// only the text has is found), and the index rebuilt from item_texts finds it too.

import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { joinBlocks } from '../../server/src/parse/document.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { ITEM_INDEX_MAX_CHARS } from '../../server/src/store/sqlite/itemText.ts';
import { workspaceIndexNames } from '../../server/src/store/sqlite/workspaceIndexes.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const GUIDE = '# Crane guide\n\nThe gantry crane is inspected weekly.\n\n## Faults\n\nA zanzibarite alarm means the hoist brake slipped.\n';

test('item_texts keeps the blocks once, and readers get the joined text and a full lexical index', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'guide.md': GUIDE });
  const dataDir = path.join(root, 'data');
  let index = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' } });
  await index.index();
  const item = (await index.store.listItems())[0]!;
  const parsed = await index.store.getParsedText(item.id);
  assert.ok(parsed);
  assert.equal(parsed.document.text, joinBlocks(parsed.document.blocks));
  assert.match(parsed.document.text, /zanzibarite alarm/);
  const lexical = async () =>
    (await searchWorkspace(index.store, null, 'zanzibarite')).results.filter((result) => result.contributions.lexical_items !== undefined);
  assert.equal((await lexical()).length, 1, 'the item index holds the whole text');
  await index.close();

  const db = new Database(path.join(dataDir, 'relata.sqlite'));
  const stored = JSON.parse((db.prepare('SELECT document FROM item_texts').get() as { document: string }).document);
  assert.equal('text' in stored, false, 'the joined text is not stored beside the blocks');
  assert.ok(stored.blocks.length >= 3);
  // Without its item index, the store rebuilds it from item_texts at the next open.
  db.exec(`DROP TABLE ${workspaceIndexNames('alice').items}`);
  db.close();
  index = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  assert.equal((await lexical()).length, 1, 'the rebuilt item index holds the whole text');
});

test('the item index receives the first ITEM_INDEX_MAX_CHARS of a huge text; the passage index still finds a word past it', { timeout: 180_000 }, async (t) => {
  const root = tempDir(t);
  const filler = 'The hoist was inspected and the brake held under load. ';
  const head = filler.repeat(Math.ceil((ITEM_INDEX_MAX_CHARS + 1024) / filler.length));
  const folder = writeFiles(path.join(root, 'folder'), {
    'huge.txt': `Quokkanite appears once near the start.\n\n${head}\n\nA zanzibarite alarm appears once at the end.\n`,
  });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const paths = async (word: string) => (await searchWorkspace(index.store, null, word)).results[0]?.contributions ?? {};
  assert.ok((await paths('quokkanite')).lexical_items !== undefined, 'a word in the first 4 MiB is in the item index');
  const late = await paths('zanzibarite');
  assert.equal(late.lexical_items, undefined, 'a word past the first 4 MiB is not in the item index');
  assert.ok(late.lexical_chunks !== undefined, 'but its passage is found');
});
