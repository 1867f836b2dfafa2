// A restart on an existing store: the Proposals view asked for relationships before the store had
// opened and was told of none; the server says the relationships changed as soon as the store is
// open, so the view shows what the store holds without waiting for the first pass to end (on a
// 2,000-note folder whose extractors had changed, that pass took over an hour and the view stayed
// empty, seen in code-server). The real built server, a real folder and store.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { RelationshipsChangedNotification, RelationshipsRequest, type FolderRelationships } from '../../shared/protocol.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { copyDemoFiles, tempDir } from '../support/tempFolder.ts';

const COST_DOCUMENTS = ['maintenance/gantry-crane-gc2-refurbishment-report.md', 'finance/q2-2025-capital-budget-review.md'];

test('on a restart the stored relationships are announced when the store opens, before the first pass ends, and again after it', { skip: needsBuild, timeout: 180_000 }, async (t) => {
  const root = tempDir(t);
  const folder = copyDemoFiles(path.join(root, 'folder'), COST_DOCUMENTS);
  const options = { folder, workspace: 'restart', settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none' } };
  const first = await startServer(t, options);
  await first.watching();
  const stored = (await first.connection.sendRequest(RelationshipsRequest.type, {})).folders[0]!.relationships;
  assert.ok(stored.length > 0, 'precondition: the two cost documents are related');
  assert.equal(await first.shutdown(), 0);

  // What the view would read on each announcement, read the moment it arrives.
  const readOnAnnouncement: Promise<FolderRelationships[]>[] = [];
  const second = await startServer(t, {
    ...options,
    beforeListen: (connection) =>
      connection.onNotification(RelationshipsChangedNotification.type, () => void readOnAnnouncement.push(connection.sendRequest(RelationshipsRequest.type, {}).then((answer) => answer.folders))),
  });
  await second.watching();
  assert.ok(readOnAnnouncement.length >= 2, `announced when the store opened and after the pass: ${readOnAnnouncement.length} announcement(s)`);
  const [firstRead] = await Promise.all(readOnAnnouncement);
  assert.deepEqual(firstRead?.[0]?.relationships.map((relationship) => relationship.id).sort(), stored.map((relationship) => relationship.id).sort(), 'the first announcement already finds every stored relationship');
});
