// Discovery run in its own threads (the language server's way, pipeline/threads/discoveryLanes.ts)
// proposes exactly what discovery on the calling thread does: the demo folder indexed both ways
// with the real default model gives the same relationships, pair by pair, signal by signal, and
// direction by direction, with one lane and with two items discovered at once.

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

/** A finish is reported a store call after it happened: spans overlap only by more than this. */
const SLACK_MS = 5;

/** The demo folder indexed, its relationships, and the most discover jobs that ran at once. */
async function discovered(t: import('node:test').TestContext, discoveryThread: boolean, discoveryLanes = 1) {
  const root = tempDir(t);
  const index = await FolderIndex.open({
    folder: DEMO,
    dataDir: root,
    workspace: 'discovery-thread',
    embedding: { kind: 'use-lite', threads: 1 },
    discoveryThread,
    settings: { discoveryLanes },
  });
  try {
    // Each discover job as the span it ran in: reported when it finished, with how long it took.
    const spans: [number, number][] = [];
    await index.index({
      onProgress: ({ last }) => {
        if (last?.type === 'job-finished' && last.job.stage === 'discover') spans.push([performance.now() - last.elapsedMs, performance.now()]);
      },
    });
    const mostAtOnce = Math.max(0, ...spans.map(([start]) => spans.filter(([from, to]) => from <= start + SLACK_MS && start + SLACK_MS < to).length));
    return { views: await listRelationshipViews(index.store, DEFAULT_THRESHOLDS), mostAtOnce };
  } finally {
    await index.close();
  }
}

test('discovery in its own threads proposes the same relationships as discovery on the calling thread', { timeout: 15 * 60_000 }, async (t) => {
  const here = await discovered(t, false);
  const inThread = await discovered(t, true);
  const twoLanes = await discovered(t, true, 2);
  assert.ok(here.views.length > 0, 'the demo folder has relationships to compare');
  assert.equal(here.mostAtOnce, 1, 'on the calling thread, one item at a time');
  assert.equal(inThread.mostAtOnce, 1, 'one lane, one item at a time');
  assert.equal(twoLanes.mostAtOnce, 2, 'two lanes discovered two items at once');
  assert.deepEqual(essence(inThread.views), essence(here.views));
  assert.deepEqual(essence(twoLanes.views), essence(here.views));
});
