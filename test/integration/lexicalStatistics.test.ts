// A store that lived through many edits ranks as a store built afresh from the same files: FTS5's
// contentless-delete tables keep counting replaced passages in BM25's statistics
// (store/sqlite/lexicalStatistics.ts), so a run rebuilds an index that drifted. Real folder, real
// pipeline, real SQLite; the two stores' BM25 scores are compared for the same queries.

import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const NOTES: Record<string, string> = {
  'crane.md': '# Crane\n\nThe crane in bay four passed its inspection on Monday.\n',
  'forklift.md': '# Forklift\n\nThe forklift collided with a rack; the inspection found a bent mast.\n',
  'budget.md': '# Budget\n\nThe refurbishment of the crane cost 42,000 EUR.\n',
  'rota.md': '# Rota\n\nInspections are booked every Monday for the cranes and forklifts.\n',
};
const QUERIES = ['crane inspection', 'forklift', 'Monday'];

async function open(t: import('node:test').TestContext, folder: string, dataDir: string): Promise<FolderIndex> {
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  return index;
}

async function scores(index: FolderIndex): Promise<Record<string, string[]>> {
  const byQuery: Record<string, string[]> = {};
  for (const query of QUERIES) {
    const items = await index.store.searchItemsLexical(query, 10);
    const chunks = await index.store.searchChunksLexical(query, 10);
    const named = async (hits: typeof items) =>
      Promise.all(hits.map(async (hit) => `${(await index.store.getItem(hit.itemId))?.path} ${hit.bm25.toFixed(6)}`));
    byQuery[query] = [...(await named(items)), ...(await named(chunks))].sort();
  }
  return byQuery;
}

test('after many edits, BM25 scores equal those of a store built afresh from the same files', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), NOTES);
  const lived = await open(t, folder, path.join(root, 'lived'));
  await lived.index();
  // Each edit replaces the crane note's passage and its whole-text row; FTS5 keeps counting the old ones.
  for (let edit = 1; edit <= 12; edit += 1) {
    writeFileSync(path.join(folder, 'crane.md'), `${NOTES['crane.md']}\nEdit ${edit}: checked again.\n`);
    await lived.index();
  }
  const fresh = await open(t, folder, path.join(root, 'fresh'));
  await fresh.index();
  assert.deepEqual(await scores(lived), await scores(fresh));
});

test('a deleted file stops counting in the statistics the next run ranks with', async (t) => {
  const root = tempDir(t);
  const many = Object.fromEntries(Array.from({ length: 30 }, (_, n) => [`extra-${n}.md`, `# Extra ${n}\n\nA note about pallets number ${n}.\n`]));
  const folder = writeFiles(path.join(root, 'folder'), { ...NOTES, ...many });
  const lived = await open(t, folder, path.join(root, 'lived'));
  await lived.index();
  for (const name of Object.keys(many)) rmSync(path.join(folder, name));
  await lived.index();
  await lived.forget('all-deleted');
  await lived.index();
  const fresh = await open(t, folder, path.join(root, 'fresh'));
  await fresh.index();
  assert.deepEqual(await scores(lived), await scores(fresh));
});
