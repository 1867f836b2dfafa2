// `initializationOptions` of the wrong types, sent to the built language server over stdio as an
// editor would: `maxFileMb: "abc"` keeps the 50 MB limit (a 51 MB file is still skipped),
// `exclude: "*.md"` does not exclude every Markdown file, and the person is told which settings
// were refused.

import assert from 'node:assert/strict';
import { truncateSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ShowMessageNotification, type ShowMessageParams } from 'vscode-languageserver-protocol/node';
import { FileStatusRequest } from '../../shared/protocol.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

test('settings of the wrong type keep their defaults and are reported', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    'crane.md': '# Gantry crane GC-2\n\nRefurbished in May 2025.\n',
    'notes/call.md': 'Call about the invoice.\n',
    'big.txt': '',
  });
  truncateSync(path.join(folder, 'big.txt'), 51 * 1024 * 1024);

  const messages: ShowMessageParams[] = [];
  const server = await startServer(t, {
    folder,
    workspace: 'lsp-options-test',
    settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none', maxFileMb: 'abc', exclude: '*.md' },
    beforeListen: (connection) => connection.onNotification(ShowMessageNotification.type, (message) => void messages.push(message)),
  });
  const { connection } = server;
  await server.watching();

  const { folders } = await connection.sendRequest(FileStatusRequest.type, {});
  const byPath = new Map(folders[0]!.files.map((file) => [file.path, file]));
  assert.equal(byPath.get('crane.md')?.status, 'indexed', 'a string exclude does not exclude every Markdown file');
  assert.equal(byPath.get('notes/call.md')?.status, 'indexed');
  assert.equal(byPath.get('big.txt')?.status, 'skipped', 'the size limit is still on');
  assert.match(byPath.get('big.txt')?.reason ?? '', /over the 50 MB size limit/);

  const warning = messages.find((message) => /settings are not valid/.test(message.message));
  assert.ok(warning, `the person is told; messages: ${JSON.stringify(messages)}`);
  assert.match(warning.message, /settings\.maxFileMb must be a number from 0\.001 to 10000, not "abc"/);
  assert.match(warning.message, /settings\.exclude must be a list, each a non-empty string, not "\*\.md"/);

  assert.equal(await server.shutdown(), 0, server.stderr());
});
