// The graph view's request, answered by the real language server from a real store: the current
// file's neighbourhood with its relationships as typed, weighted, reviewed edges; a rejection
// hides an edge unless rejected ones are asked for; a file that is no item is said in words; and
// "show all" draws every indexed item of the folder.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { FileStatusRequest, GraphRequest, RejectRequest, RelationshipsRequest } from '../../shared/protocol.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { copyDemoFiles, tempDir } from '../support/tempFolder.ts';

const DOCUMENTS = ['maintenance/gantry-crane-gc2-refurbishment-report.md', 'finance/q2-2025-capital-budget-review.md', 'notes/handover-gc2-2025-05-20.md'];
const REPORT = DOCUMENTS[0]!;

test('the graph request draws the current file\'s neighbourhood and every item, from the folder\'s store', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = copyDemoFiles(path.join(root, 'folder'), DOCUMENTS);
  writeFileSync(path.join(folder, 'lunch-menu.txt'), 'Soup of the day: tomato and basil. Dessert: apple crumble with custard.\n');
  const server = await startServer(t, { folder, workspace: 'reader', settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none' } });
  const { connection, folderUri } = server;
  await server.watching();

  const { folders } = await connection.sendRequest(RelationshipsRequest.type, {});
  const contradiction = folders[0]!.relationships.find((relationship) => relationship.type === 'contradicts');
  assert.ok(contradiction, 'the two cost documents are proposed as contradicting each other');

  const focus = pathToFileURL(path.join(folder, REPORT)).href;
  const around = await connection.sendRequest(GraphRequest.type, { focus });
  assert.equal(around.notice, null);
  assert.equal(around.graph.scope.kind, 'neighbourhood');
  const centre = around.graph.nodes.find((node) => node.path === REPORT);
  assert.ok(centre, 'the current file is a node');
  assert.equal(around.graph.scope.kind === 'neighbourhood' && around.graph.scope.node, centre.id);
  const edge = around.graph.edges.find((candidate) => candidate.relationship_id === contradiction.id);
  assert.ok(edge, 'the contradiction is an edge of the neighbourhood');
  assert.deepEqual(
    { type: edge.type, strength: edge.strength, status: edge.status, folder: edge.folder },
    { type: 'contradicts', strength: contradiction.score, status: 'pending', folder: folderUri },
  );
  assert.ok(!around.graph.nodes.some((node) => node.path === 'lunch-menu.txt'), 'an unrelated item is not in the neighbourhood');

  const contradictionsOnly = await connection.sendRequest(GraphRequest.type, { focus, types: ['contradicts'] });
  assert.deepEqual([...new Set(contradictionsOnly.graph.edges.map((candidate) => candidate.type))], ['contradicts']);
  const weakest = around.graph.edges.reduce((least, candidate) => (candidate.strength < least.strength ? candidate : least));
  const stronger = await connection.sendRequest(GraphRequest.type, { focus, minStrength: weakest.strength + 0.001 });
  assert.ok(!stronger.graph.edges.some((candidate) => candidate.relationship_id === weakest.relationship_id), 'the weakest edge is under the minimum');
  assert.ok(stronger.graph.edges.every((candidate) => candidate.strength > weakest.strength));

  await connection.sendRequest(RejectRequest.type, { folder: folderUri, id: contradiction.id, note: 'different scope' });
  const afterRejection = await connection.sendRequest(GraphRequest.type, { focus });
  assert.ok(!afterRejection.graph.edges.some((candidate) => candidate.relationship_id === contradiction.id), 'a rejected relationship is hidden by default');
  const asked = await connection.sendRequest(GraphRequest.type, { focus, statuses: ['pending', 'confirmed', 'rejected'] });
  assert.equal(asked.graph.edges.find((candidate) => candidate.relationship_id === contradiction.id)?.status, 'rejected');

  const notItem = await connection.sendRequest(GraphRequest.type, { focus: pathToFileURL(path.join(folder, 'not-there.md')).href });
  assert.deepEqual(notItem.graph.nodes, []);
  assert.match(notItem.notice ?? '', /not-there\.md is not an indexed item yet/);
  const outside = await connection.sendRequest(GraphRequest.type, { focus: pathToFileURL(path.join(root, 'elsewhere.md')).href });
  assert.match(outside.notice ?? '', /not in an open folder/);

  const all = await connection.sendRequest(GraphRequest.type, { folders: [folderUri] });
  const indexed = (await connection.sendRequest(FileStatusRequest.type, {})).folders[0]!.files.filter((file) => file.status === 'indexed');
  assert.deepEqual(all.graph.nodes.map((node) => node.path).sort(), indexed.map((file) => file.path).sort());
  assert.ok(all.graph.nodes.some((node) => node.path === 'lunch-menu.txt' && node.degree === 0), 'an item without relationships is drawn in the whole view');
  assert.equal(await server.shutdown(), 0, server.stderr());
});
