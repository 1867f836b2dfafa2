// Each item's similarity baseline (discover/folderSimilarity.ts) is read against the folder's
// sample alone, so a discovery lane computes it once for as long as the sample stands. Remembered
// by the folder's count of live items instead, every file added or deleted anywhere made every
// baseline be computed again as its item was next met: at 100,000 notes some 130 candidates an
// item, 2 ms each (issue 32), after each new note in watch mode.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { folderSample, similarityBaselines, type FolderSample } from '../../server/src/discover/folderSimilarity.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { clusteredVectors } from '../support/clusteredVectors.ts';
import { addClustered, addDocument, MODEL } from '../support/storedVectors.ts';

async function folderNow(store: WorkspaceStore): Promise<FolderSample> {
  return folderSample(await store.listItems());
}

/** Adds one document whose bytes put it inside the folder's sample (`inSample`) or outside it. */
async function addDocumentLanding(store: WorkspaceStore, inSample: boolean, seed: number): Promise<void> {
  const items = await store.listItems();
  for (let n = 0; n < 200; n += 1) {
    const name = `added-${seed}-${n}`;
    // The hash addDocument gives it (storedVectors.ts): where it would land is known before it is stored.
    const contentHash = Buffer.from(name).toString('hex').padEnd(64, '0').slice(0, 64);
    const landed = folderSample([...items, { ...items[0]!, id: name, path: `${name}.md`, contentHash }]).sample.some((item) => item.id === name);
    if (landed !== inSample) continue;
    await addDocument(store, name, clusteredVectors({ count: 3, dims: MODEL.dims, seed: seed + n, windowsPerDocument: 3 }).vectors);
    return;
  }
  throw new Error('no document lands where the test needs it');
}

test('a baseline is computed once while the sample stands: files added outside it keep it, a change to the sample reads it again', async (t) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-baselines-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const store = openSqliteStore({ dataDir, workspace: 'alice' });
  t.after(() => store.close());
  await addClustered(store, 400, MODEL.dims, 7);

  const items = (await store.listItems()).slice(0, 6);
  const facts = await store.discoveryFacts(items.map((item) => item.id), MODEL.id, 0);
  const subjects = items.map((item) => ({ item, vectors: facts.get(item.id)!.vectors }));
  const first = await similarityBaselines(store, MODEL.id, subjects, await folderNow(store));
  for (const { item } of subjects) assert.ok(first.get(item.id), `${item.path} has a baseline`);

  const { live: liveBefore, key: sampleKey } = await folderNow(store);
  await addDocumentLanding(store, false, 100);
  const folder = await folderNow(store);
  assert.ok(folder.live > liveBefore, 'the folder grew');
  assert.equal(folder.key, sampleKey, 'the added file is outside the sample');
  const again = await similarityBaselines(store, MODEL.id, subjects, folder);
  for (const { item } of subjects) assert.equal(again.get(item.id), first.get(item.id), `${item.path}: the remembered baseline, not computed again`);

  await addDocumentLanding(store, true, 500);
  const changed = await similarityBaselines(store, MODEL.id, subjects, await folderNow(store));
  for (const { item } of subjects) {
    assert.notEqual(changed.get(item.id), first.get(item.id), `${item.path}: read again against the new sample`);
    assert.ok(changed.get(item.id), `${item.path} still has a baseline`);
  }
});
