// Discovery run in its own thread (the language server's way, pipeline/threads/discoveryInThread.ts)
// proposes exactly what discovery on the calling thread does: the demo folder indexed both ways
// with the real default model gives the same relationships, pair by pair, signal by signal.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { RelationshipView } from '../../shared/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/index.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const DEMO = path.join(REPO_ROOT, 'docs', 'demo');

/** What a reviewer sees of each relationship, in a stable order. */
const essence = (views: RelationshipView[]) =>
  views
    .map((view) => ({ from: view.from.path, to: view.to.path, type: view.type, score: view.score, status: view.status, signals: view.signals }))
    .sort((a, b) => `${a.from}|${a.to}`.localeCompare(`${b.from}|${b.to}`));

async function discovered(t: import('node:test').TestContext, discoveryThread: boolean): Promise<RelationshipView[]> {
  const root = tempDir(t);
  const index = await FolderIndex.open({ folder: DEMO, dataDir: root, workspace: 'discovery-thread', embedding: { kind: 'use-lite', threads: 1 }, discoveryThread });
  try {
    await index.index();
    return await listRelationshipViews(index.store, DEFAULT_THRESHOLDS);
  } finally {
    await index.close();
  }
}

test('discovery in its own thread proposes the same relationships as discovery on the calling thread', { timeout: 15 * 60_000 }, async (t) => {
  const here = await discovered(t, false);
  const inThread = await discovered(t, true);
  assert.ok(here.length > 0, 'the demo folder has relationships to compare');
  assert.deepEqual(essence(inThread), essence(here));
});
