// Related in the language server is answered by a search thread (its own read-only connection and
// vector graph), not by the main thread, which would otherwise keep a graph of every window too
// and catch it up while the folder is embedded. A thread's answer is the one relatedTo gives on
// the store itself, and a path that is no indexed item is a RelatedItemError there as here.

import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { RelatedItemError, relatedTo } from '../../server/src/engine/related.ts';
import { SearchThreads } from '../../server/src/ranking/searchThreads.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const REPORT = 'maintenance/gantry-crane-gc2-refurbishment-report.md';

test('Related from a search thread is the store’s own Related, vectors included; an unknown path is a RelatedItemError', { timeout: 10 * 60_000 }, async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'demo');
  cpSync(path.join(REPO_ROOT, 'docs', 'demo'), folder, { recursive: true });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'related-thread', embedding: { kind: 'use-lite', threads: 1 } });
  t.after(() => index.close());
  await index.index();
  const threads = new SearchThreads({ location: index.location, workspace: index.store.workspace });
  t.after(() => threads.close());

  const listed = await index.store.listItems();
  const items = listed.filter((item) => item.status === 'indexed');
  assert.ok(items.length >= 8, `the demo folder is indexed (${items.length} items)`);
  const options = { limit: 6, minPendingScore: 0.2 };
  for (const item of items.slice(0, 5).concat(items.filter((candidate) => candidate.path === REPORT))) {
    const [inThread, here] = await Promise.all([threads.related(item.path, options), relatedTo(index.store, item.path, options)]);
    assert.deepEqual(inThread, here, item.path);
  }
  const report = await threads.related(REPORT, options);
  assert.ok(
    report.entries.some((entry) => entry.kind !== 'relationship' && entry.similarity !== null),
    'a content neighbour was found by its vectors, with its similarity',
  );

  await assert.rejects(threads.related('no/such/note.md', options), (error: unknown) => error instanceof RelatedItemError && /no\/such\/note\.md/.test(error.message));
  // A file that failed to parse (the demo keeps one) says why, in the thread's words as in relatedTo's.
  const failed = listed.find((item) => item.status === 'failed');
  assert.ok(failed, 'the demo folder holds a file that fails');
  const reason = await relatedTo(index.store, failed.path, options).then(() => 'answered', (error: Error) => error.message);
  await assert.rejects(threads.related(failed.path, options), (error: unknown) => error instanceof RelatedItemError && error.message === reason);
  // The thread is still there for the next request.
  assert.deepEqual(await threads.related(REPORT, options), report);
});
