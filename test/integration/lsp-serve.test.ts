// `relata serve --stdio` as an editor runs it: the built dist/cli.js as a child process, spoken
// to over LSP. It initializes with a workspace folder, indexes it in the background while
// reporting work-done progress and `relata/status`, answers the custom requests, refuses invalid
// params with InvalidParams (and keeps serving), and exits cleanly on shutdown + exit.

import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ErrorCodes, ResponseError, WorkDoneProgressCreateRequest } from 'vscode-languageserver-protocol/node';
import { FileStatusRequest, ItemRequest, RelationshipsRequest, ScoringModelRequest, SearchRequest, StatusRequest } from '../../shared/protocol.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

test('relata serve --stdio indexes its folder, reports status and answers requests', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    'crane.md': '# Gantry crane GC-2\n\nExample Ltd refurbished the crane in May 2025 for EUR 42,000.\n',
    'notes/call.txt': 'Call with Example Ltd about the invoice.\n',
  });
  const progressTokens: unknown[] = [];
  const started = performance.now();
  const server = await startServer(t, {
    folder,
    workspace: 'lsp-test',
    settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none' },
    capabilities: { window: { workDoneProgress: true } },
    beforeListen: (connection) => connection.onRequest(WorkDoneProgressCreateRequest.type, (params) => void progressTokens.push(params.token)),
  });
  const { connection, folderUri } = server;
  t.diagnostic(`initialize answered in ${Math.round(performance.now() - started)} ms`);
  assert.equal(server.init.serverInfo?.name, 'relata');
  await server.watching();
  t.diagnostic(`indexed and watching after ${Math.round(performance.now() - started)} ms`);
  const status = await connection.sendRequest(StatusRequest.type, {});
  assert.equal(status.folders.length, 1);
  assert.equal(status.folders[0]!.folder, folderUri);
  assert.deepEqual(status.folders[0]!.items, { indexed: 2, failed: 0, skipped: 0, duplicate: 0, pending: 0, unread: 0 });
  assert.equal(status.folders[0]!.queueDepth, 0);
  assert.equal(status.folders[0]!.embeddingModel, null, 'embedding is off in this test');
  assert.ok(progressTokens.length >= 1, 'indexing reported work-done progress');

  const item = await connection.sendRequest(ItemRequest.type, { uri: pathToFileURL(path.join(folder, 'crane.md')).href });
  assert.equal(item?.item.path, 'crane.md');
  assert.equal(item?.item.status, 'indexed');
  assert.ok((item?.item.chunks.length ?? 0) >= 1);
  assert.equal(await connection.sendRequest(ItemRequest.type, { uri: pathToFileURL(path.join(root, 'elsewhere.md')).href }), null);

  const files = await connection.sendRequest(FileStatusRequest.type, {});
  assert.deepEqual(files.folders[0]!.files.map((file) => file.path).sort(), ['crane.md', 'notes/call.txt']);

  const search = await connection.sendRequest(SearchRequest.type, { query: 'gantry crane' });
  const response = search.folders[0]?.response;
  assert.ok(response, `search answered for the folder: ${search.folders[0]?.error}`);
  assert.equal(response.results[0]?.path, 'crane.md');
  assert.equal(response.results[0]?.query_relevance, 1, 'relevance is relative to the best result');
  assert.deepEqual(response.unavailable_paths.map((unavailable) => unavailable.path), ['vector'], 'no vectors with embedding off, and it says so');

  const { folders } = await connection.sendRequest(RelationshipsRequest.type, {});
  assert.equal(folders[0]?.folder, folderUri);
  assert.ok(Array.isArray(folders[0]?.relationships));

  const model = await connection.sendRequest(ScoringModelRequest.type, {});
  assert.equal(model.score_version, 'relationship-score-v2');
  assert.equal(model.weights.user_confirmation, 1);
  assert.deepEqual(model.thresholds.map((threshold) => threshold.name), ['minScore', 'storeScore', 'nearDuplicateSimilarity']);

  const invalid = async (params: unknown) => {
    const error = await connection.sendRequest(SearchRequest.method, params).then(
      () => assert.fail('an invalid request was answered'),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof ResponseError);
    assert.equal(error.code, ErrorCodes.InvalidParams);
    return error.message;
  };
  assert.match(await invalid({}), /params\.query must be a non-empty string/);
  assert.match(await invalid({ query: 42 }), /params\.query must be a non-empty string, not number/);
  assert.match(await invalid({ query: 'crane', limit: 0 }), /params\.limit must be a whole number from 1 to 100/);
  assert.match(await invalid({ query: 'crane', qurey: 'x' }), /params\.qurey is not a known field/);
  assert.match(await invalid([1, 2]), /params must be an object/);

  const again = await connection.sendRequest(StatusRequest.type, {});
  assert.equal(again.folders[0]!.items.indexed, 2, 'the server still answers after invalid requests');

  assert.equal(await server.shutdown(), 0, server.stderr());
});
