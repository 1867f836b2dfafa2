// The editor's indexing commands against `relata serve --stdio`: Pause stops the watcher (the
// folder says paused), Resume picks up what changed meanwhile, Index now runs a full pass,
// Re-index this file answers once the file is read again (with what became of it), and the store
// folder is the data directory the folder's store is in.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { IndexingRequest, ItemRequest, ReindexFileRequest, StatusRequest, StoreFolderRequest } from '../../shared/protocol.ts';
import { DEFAULT_SERVER_SETTINGS } from '../../server/src/lsp/server.ts';
import { dataDirFor } from '../../server/src/lsp/folderSession.ts';
import { eventually } from '../support/eventually.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

test('pause, resume, index now, re-index a file and the store folder, through the language server', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const data = path.join(root, 'data');
  const folder = writeFiles(path.join(root, 'folder'), {
    'crane.md': '# Gantry crane GC-2\n\nExample Ltd refurbished the crane in May 2025.\n',
    'data.json': '{"info": {"title": "Crane inspections 2025"}, "rows": [{"crane": "GC-2", "result": "pass"}]}\n',
  });
  const server = await startServer(t, { folder, workspace: 'control', settings: { dataLocation: data, embeddingModel: 'none' } });
  const { connection, folderUri } = server;
  await server.watching();
  const state = async () => (await connection.sendRequest(StatusRequest.type, {})).folders[0]!.state;
  const itemAt = (relative: string) => connection.sendRequest(ItemRequest.type, { uri: pathToFileURL(path.join(folder, relative)).href });

  const paused = await connection.sendRequest(IndexingRequest.type, { action: 'pause' });
  assert.deepEqual(paused.folders.map((f) => [f.folder, f.outcome]), [[folderUri, 'paused: nothing is indexed until you resume; changes made meanwhile are picked up then']]);
  assert.equal(await state(), 'paused');
  assert.equal((await connection.sendRequest(IndexingRequest.type, { action: 'pause' })).folders[0]!.outcome, 'already paused');
  assert.match((await connection.sendRequest(ReindexFileRequest.type, { uri: pathToFileURL(path.join(folder, 'crane.md')).href })).outcome, /paused.*Resume Indexing/);

  writeFileSync(path.join(folder, 'added-while-paused.md'), '# Added while paused\n\nA note about crane GC-2.\n');
  const resumed = await connection.sendRequest(IndexingRequest.type, { action: 'resume' });
  assert.match(resumed.folders[0]!.outcome, /^resumed/);
  await eventually(async () => (await itemAt('added-while-paused.md'))?.item.status === 'indexed', 'the file added while paused is indexed after resume', 60_000);
  await eventually(async () => (await state()) === 'watching', 'the folder is watched again after resume', 60_000);

  const now = await connection.sendRequest(IndexingRequest.type, { action: 'index', folder: folderUri });
  assert.match(now.folders[0]!.outcome, /^(indexing|already indexing)/);
  await eventually(async () => (await state()) === 'watching', 'index now ends watching', 60_000);

  const reindexed = await connection.sendRequest(ReindexFileRequest.type, { uri: pathToFileURL(path.join(folder, 'data.json')).href });
  assert.deepEqual([reindexed.path, reindexed.outcome], ['data.json', 're-indexed as “Crane inspections 2025”']);
  writeFileSync(path.join(folder, 'data.json'), '{"title": "Crane inspections", ');
  const broken = await connection.sendRequest(ReindexFileRequest.type, { uri: pathToFileURL(path.join(folder, 'data.json')).href });
  assert.match(broken.outcome, /^failed: invalid JSON at line 1/);

  const stores = await connection.sendRequest(StoreFolderRequest.type, {});
  assert.deepEqual(stores.folders.map((f) => [f.backend, f.dataDir]), [['sqlite', dataDirFor(folder, { ...DEFAULT_SERVER_SETTINGS, dataLocation: data })]]);
  assert.equal(await server.shutdown(), 0);
});
