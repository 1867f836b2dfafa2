// `initializationOptions` of the wrong types, sent to the built language server over stdio as an
// editor would: `maxFileMb: "abc"` keeps the 50 MB limit (a 51 MB file is still skipped),
// `exclude: "*.md"` does not exclude every Markdown file, and the person is told which settings
// were refused.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import {
  createProtocolConnection,
  InitializeRequest,
  ShowMessageNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ShowMessageParams,
} from 'vscode-languageserver-protocol/node';
import { FileStatusRequest, StatusNotification, type StatusReport } from '../../shared/protocol.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

test('settings of the wrong type keep their defaults and are reported', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
  timeout: 120_000,
}, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    'crane.md': '# Gantry crane GC-2\n\nRefurbished in May 2025.\n',
    'notes/call.md': 'Call about the invoice.\n',
    'big.txt': '',
  });
  truncateSync(path.join(folder, 'big.txt'), 51 * 1024 * 1024);

  const child = spawn(process.execPath, [CLI, 'serve', '--stdio'], {
    env: { ...process.env, RELATA_WORKSPACE: 'lsp-options-test' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  t.after(() => child.kill());

  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const messages: ShowMessageParams[] = [];
  connection.onNotification(ShowMessageNotification.type, (message) => void messages.push(message));
  let watching: () => void = () => undefined;
  const indexed = new Promise<void>((resolve) => (watching = resolve));
  connection.onNotification(StatusNotification.type, (report: StatusReport) => {
    if (report.folders[0]?.state === 'watching') watching();
  });
  connection.listen();

  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'folder' }],
    initializationOptions: { settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none', maxFileMb: 'abc', exclude: '*.md' } },
  });
  await connection.sendNotification('initialized', {});
  await Promise.race([indexed, new Promise((_, reject) => setTimeout(() => reject(new Error(`not watching within 60 s:\n${stderr}`)), 60_000))]);

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

  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  assert.equal(await exited, 0, stderr);
  connection.dispose();
});
