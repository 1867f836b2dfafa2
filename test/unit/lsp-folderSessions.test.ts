// Multi-root: each request is routed to the folder that holds its file (the innermost, when
// folders nest), and a folder that is not open is an LSP error naming the open ones.

import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ResponseError } from 'vscode-languageserver/node';
import { RelataErrorCodes } from '../../shared/protocol.ts';
import type { FolderSession } from '../../server/src/lsp/folderSession.ts';
import { FolderSessions } from '../../server/src/lsp/folderSessions.ts';

const session = (folder: string) => ({ uri: pathToFileURL(folder).href, folder, name: path.basename(folder) }) as FolderSession;

test('a file belongs to the innermost open folder, with its folder-relative path', () => {
  const sessions = new FolderSessions();
  sessions.add(session('/work/docs'));
  sessions.add(session('/work/docs/contracts'));
  sessions.add(session('/work/other'));
  const found = sessions.byFile(pathToFileURL('/work/docs/contracts/2025/lease.pdf').href);
  assert.equal(found?.session.folder, '/work/docs/contracts');
  assert.equal(found?.relative, '2025/lease.pdf');
  assert.equal(sessions.byFile(pathToFileURL('/work/docs/readme.md').href)?.relative, 'readme.md');
  assert.equal(sessions.byFile(pathToFileURL('/work/docsx/readme.md').href), null, 'a sibling with a common prefix is not inside');
  assert.equal(sessions.byFile(pathToFileURL('/elsewhere/a.md').href), null);
});

test('an unknown folder or a non-file URI is an error for the request, not a crash', () => {
  const sessions = new FolderSessions();
  sessions.add(session('/work/docs'));
  assert.throws(() => sessions.byFolder(pathToFileURL('/work/nope').href), (error: unknown) => {
    assert.ok(error instanceof ResponseError);
    assert.equal(error.code, RelataErrorCodes.UnknownFolder);
    assert.match(error.message, /is not an open workspace folder \(open: file:\/\/\/work\/docs\)/);
    return true;
  });
  assert.throws(() => sessions.byFile('untitled:Untitled-1'), /only file: URIs/);
  assert.equal(sessions.selected(undefined).length, 1);
});
