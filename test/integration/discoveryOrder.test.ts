// Which way round a new relationship reads does not depend on which of its two items was
// discovered first: discovery in two lanes (or by two indexers) finishes the items of a folder in
// an order nobody chose, and a pair proposed from one end must not be turned round by the other.
// The demo folder is indexed twice with nothing stored by discovery (a storage threshold above any
// score), then every item discovered in path order in one store and in reverse order in the other.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { discoverItem } from '../../server/src/discover/discoverItem.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/index.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const DEMO = path.join(REPO_ROOT, 'docs', 'demo');

async function discoveredInOrder(t: import('node:test').TestContext, reversed: boolean) {
  const index = await FolderIndex.open({
    folder: DEMO,
    dataDir: tempDir(t),
    workspace: 'discovery-order',
    embedding: { kind: 'use-lite', threads: 1 },
    // The run's own discovery stores nothing, so the order below is the only one that counts.
    settings: { thresholds: { ...DEFAULT_THRESHOLDS, storeScore: 2 } },
  });
  try {
    await index.index();
    assert.equal((await index.store.listRelationships()).length, 0, 'the run itself proposed nothing');
    const modelId = index.loadedEmbeddingModel()?.id ?? null;
    assert.ok(modelId, 'the demo folder was embedded');
    // By path: item ids are random, a path is the same in both stores.
    const items = (await index.store.listItems()).filter((item) => item.status === 'indexed').sort((a, b) => (a.path < b.path ? -1 : 1));
    for (const item of reversed ? items.reverse() : items) await discoverItem(index.store, item.id, { modelId, thresholds: DEFAULT_THRESHOLDS });
    return (await listRelationshipViews(index.store, DEFAULT_THRESHOLDS))
      .map((view) => `${[view.from.path, view.to.path].sort().join(' ~ ')}: ${view.from.path} ${view.type} ${view.to.path}`)
      .sort();
  } finally {
    await index.close();
  }
}

test('a new relationship reads the same way round whichever of its items is discovered first', { timeout: 10 * 60_000 }, async (t) => {
  const forwards = await discoveredInOrder(t, false);
  const backwards = await discoveredInOrder(t, true);
  assert.ok(forwards.length >= 5, `the demo folder has pairs to compare (${forwards.length})`);
  assert.deepEqual(backwards, forwards);
});
