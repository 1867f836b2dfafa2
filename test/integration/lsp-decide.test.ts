// Review from the editor is review as the command line records it: `relata/confirm` and
// `relata/reject` go through the engine's decide(), so the decision, its note, its signal and the
// rescored strength are what `relata relationships` then reads from the same store, after the
// server is gone. A later decision replaces an earlier one; the proposal's evidence stays.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import {
  createProtocolConnection,
  ErrorCodes,
  InitializeRequest,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageserver-protocol/node';
import {
  ConfirmRequest,
  RejectRequest,
  RelationshipRequest,
  RelationshipsChangedNotification,
  RelationshipsRequest,
  StatusNotification,
} from '../../shared/protocol.ts';
import type { RelationshipView } from '../../shared/types.ts';
import { dataDirFor } from '../../server/src/lsp/folderSession.ts';
import { DEFAULT_SERVER_SETTINGS } from '../../server/src/lsp/server.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const needsBuild = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';
const COST_DOCUMENTS = ['maintenance/gantry-crane-gc2-refurbishment-report.md', 'finance/q2-2025-capital-budget-review.md'];

test('confirm and reject from the editor are recorded by the engine, as the CLI reads them', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'folder');
  for (const relative of COST_DOCUMENTS) {
    mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, 'docs', 'demo', relative), path.join(folder, relative));
  }
  const folderUri = pathToFileURL(folder).href;
  const data = path.join(root, 'data');
  const child = spawn(process.execPath, [CLI, 'serve', '--stdio'], { env: { ...process.env, RELATA_WORKSPACE: 'reviewer' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  t.after(() => child.kill());

  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
  let watching: () => void;
  const indexed = new Promise<void>((resolve) => (watching = resolve));
  connection.onNotification(StatusNotification.type, (report) => report.folders[0]?.state === 'watching' && watching());
  const changed: string[] = [];
  connection.onNotification(RelationshipsChangedNotification.type, ({ folder: uri }) => void changed.push(uri));
  connection.listen();

  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    workspaceFolders: [{ uri: folderUri, name: 'folder' }],
    initializationOptions: { settings: { dataLocation: data, embeddingModel: 'none' } },
  });
  await connection.sendNotification('initialized', {});
  let timeout: NodeJS.Timeout | undefined;
  await Promise.race([indexed, new Promise((_, reject) => (timeout = setTimeout(() => reject(new Error(`not indexed within 60 s:\n${stderr}`)), 60_000)))]);
  clearTimeout(timeout);

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

  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  assert.equal(await exited, 0, stderr);
  connection.dispose();

  const store = dataDirFor(folder, { ...DEFAULT_SERVER_SETTINGS, dataLocation: data });
  const cli = spawnSync(process.execPath, [CLI, 'relationships', '--status', 'rejected', '--json', '--data', store, '--workspace', 'reviewer'], {
    encoding: 'utf8',
  });
  assert.equal(cli.status, 0, cli.stderr);
  const stored = (JSON.parse(cli.stdout) as RelationshipView[]).find((relationship) => relationship.id === proposal.id);
  assert.deepEqual(stored, rejected, 'the CLI reads exactly what the editor was answered');
});
