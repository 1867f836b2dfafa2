// Review from the editor is review as the command line records it: `relata/confirm` and
// `relata/reject` go through the engine's decide(), so the decision, its note, its signal and the
// rescored strength are what `relata relationships` then reads from the same store, after the
// server is gone. A later decision replaces an earlier one; the proposal's evidence stays.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { ErrorCodes, ResponseError } from 'vscode-languageserver-protocol/node';
import { ConfirmRequest, RejectRequest, RelationshipRequest, RelationshipsChangedNotification, RelationshipsRequest } from '../../shared/protocol.ts';
import { awaitingReview } from '../../shared/linkedInDocuments.ts';
import type { RelationshipView } from '../../shared/types.ts';
import { dataDirFor } from '../../server/src/lsp/folderSession.ts';
import { DEFAULT_SERVER_SETTINGS } from '../../server/src/lsp/server.ts';
import { CLI, needsBuild, startServer } from '../support/languageServer.ts';
import { copyDemoFiles, tempDir } from '../support/tempFolder.ts';

const COST_DOCUMENTS = ['maintenance/gantry-crane-gc2-refurbishment-report.md', 'finance/q2-2025-capital-budget-review.md'];

test('confirm and reject from the editor are recorded by the engine, as the CLI reads them', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = copyDemoFiles(path.join(root, 'folder'), COST_DOCUMENTS);
  const data = path.join(root, 'data');
  const changed: string[] = [];
  const server = await startServer(t, {
    folder,
    workspace: 'reviewer',
    settings: { dataLocation: data, embeddingModel: 'none' },
    beforeListen: (connection) => connection.onNotification(RelationshipsChangedNotification.type, ({ folder: uri }) => void changed.push(uri)),
  });
  const { connection, folderUri } = server;
  await server.watching();

  const { folders } = await connection.sendRequest(RelationshipsRequest.type, { status: 'pending' });
  const proposal = folders[0]?.relationships.find((relationship) => relationship.type === 'contradicts');
  assert.ok(proposal, 'the two cost documents are proposed as contradicting each other');
  const evidence = proposal.signals.map((signal) => signal.type);
  const before = await connection.sendRequest(RelationshipRequest.type, { folder: folderUri, id: proposal.id });
  assert.ok(before, 'the proposal has its details');
  changed.length = 0;

  const confirmed = await connection.sendRequest(ConfirmRequest.type, { folder: folderUri, id: proposal.id, note: '  checked the invoice  ' });
  assert.equal(confirmed.status, 'confirmed');
  assert.equal(confirmed.score, 1, 'a confirmation saturates the score');

  // The Proposals view's paged request, as the view sends it: one relationship of each unit, each unit counted.
  const everything = (await connection.sendRequest(RelationshipsRequest.type, {})).folders[0]!.relationships;
  const paged = (await connection.sendRequest(RelationshipsRequest.type, { pageSize: 1, moreRows: [], filter: { types: null, statuses: null, minStrength: 0 } })).folders[0]!;
  assert.equal(paged.unitTotals?.confirmed, 1, `the confirmed relationship is counted: ${JSON.stringify(paged.unitTotals)}`);
  assert.ok(paged.relationships.some((relationship) => relationship.id === proposal.id && relationship.status === 'confirmed'));
  assert.ok(paged.relationships.length <= Object.keys(paged.unitTotals!).length, 'at most one relationship of each unit');
  assert.equal(Object.values(paged.unitTotals!).reduce((sum, n) => sum + n, 0) >= everything.length, true, 'every relationship is in a unit');
  assert.equal(paged.awaitingReview, everything.filter((relationship) => awaitingReview(relationship)).length, 'the badge counts every proposal awaiting review');
  assert.equal(confirmed.decided_by, 'reviewer');
  assert.equal(confirmed.note, 'checked the invoice');
  assert.deepEqual(confirmed.signals.map((signal) => signal.type), [...evidence, 'user_confirmation']);
  assert.deepEqual(changed, [folderUri], 'the Proposals view is told to refresh');

  const detail = await connection.sendRequest(RelationshipRequest.type, { folder: folderUri, id: proposal.id });
  assert.equal(detail?.relationship.status, 'confirmed');
  assert.ok((detail?.uncappedTotal ?? 0) >= 1, 'the confirmation is a row of the signals table');

  const rejected = await connection.sendRequest(RejectRequest.type, { folder: folderUri, id: proposal.id });
  assert.equal(rejected.status, 'rejected');
  assert.ok(Math.abs(rejected.score - Math.max(0, before.uncappedTotal - 1)) < 1e-4, `a rejection takes 1.00 off the evidence: ${rejected.score}`);
  assert.equal(rejected.note, null);
  assert.deepEqual(rejected.signals.map((signal) => signal.type), [...evidence, 'user_rejection'], 'the rejection replaces the confirmation');

  const unknown = await connection.sendRequest(ConfirmRequest.type, { folder: folderUri, id: 'rel_missing' }).then(
    () => assert.fail('a decision on an unknown relationship was answered'),
    (error: unknown) => error,
  );
  assert.ok(unknown instanceof ResponseError);
  assert.equal(unknown.code, ErrorCodes.InvalidParams);
  assert.match(unknown.message, /no relationship rel_missing in folder/);

  assert.equal(await server.shutdown(), 0, server.stderr());

  const store = dataDirFor(folder, { ...DEFAULT_SERVER_SETTINGS, dataLocation: data });
  const cli = spawnSync(process.execPath, [CLI, 'relationships', '--status', 'rejected', '--json', '--data', store, '--workspace', 'reviewer'], {
    encoding: 'utf8',
  });
  assert.equal(cli.status, 0, cli.stderr);
  const stored = (JSON.parse(cli.stdout) as RelationshipView[]).find((relationship) => relationship.id === proposal.id);
  assert.deepEqual(stored, rejected, 'the CLI reads exactly what the editor was answered');
});
