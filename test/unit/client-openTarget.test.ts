// A message that opens a file (from a webview, a hover's command link, a command's arguments)
// may open only a file inside an open workspace folder: any other folder URI, a path that climbs
// out, an absolute path or a link that resolves outside is refused with the reason, never opened.

import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { isInsideFolder, leavesFolder, openTarget } from '../../client/src/openTarget.ts';
import { tempDir } from '../support/tempFolder.ts';

const OPEN = ['file:///work/demo', 'file:///work/other'];

test('a file of an open workspace folder is a target, as its path segments', () => {
  assert.deepEqual(openTarget(OPEN, 'file:///work/demo', 'finance/q2.md'), { folder: 0, segments: ['finance', 'q2.md'] });
  assert.deepEqual(openTarget(OPEN, 'file:///work/other', 'a.md'), { folder: 1, segments: ['a.md'] });
  assert.deepEqual(openTarget(OPEN, 'file:///work/demo', 'notes/./call.txt'), { folder: 0, segments: ['notes', 'call.txt'] });
  assert.deepEqual(openTarget(OPEN, 'file:///work/demo', '..notes/a.md'), { folder: 0, segments: ['..notes', 'a.md'] }, 'a name that starts with dots is a name');
});

test('a folder that is not open is refused, whatever the path', () => {
  for (const folder of ['file:///etc', 'file:///work', 'file:///work/demo/finance', 'file:///work/demo2', 'vscode-remote://x/work/demo', '']) {
    const target = openTarget(OPEN, folder, 'passwd');
    assert.ok('refused' in target, `${folder} was accepted`);
    assert.match(target.refused, /not an open workspace folder/);
  }
});

test('a path that leaves its folder is refused', () => {
  for (const relative of ['../other/a.md', 'a/../../etc/passwd', '..', '/etc/passwd', 'C:/Windows/win.ini', 'c:x', 'a\\..\\..\\b', '', '.', 'a/\0b']) {
    const target = openTarget(OPEN, 'file:///work/demo', relative);
    assert.ok('refused' in target, `${JSON.stringify(relative)} was accepted`);
    assert.match(target.refused, /not a path inside the folder/);
    assert.equal(isInsideFolder(relative), false, relative);
  }
});

test('arguments of the wrong type are refused, not coerced', () => {
  for (const [folder, relative] of [[undefined, 'a.md'], ['file:///work/demo', 7], [{ toString: () => 'file:///work/demo' }, 'a.md'], ['file:///work/demo', ['a.md']]] as const) {
    assert.ok('refused' in openTarget(OPEN, folder, relative));
  }
});

test('a link inside the folder that resolves outside it leaves the folder', async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'folder');
  mkdirSync(path.join(folder, 'sub'), { recursive: true });
  mkdirSync(path.join(root, 'folder-sibling'));
  writeFileSync(path.join(root, 'secret.txt'), 'outside');
  writeFileSync(path.join(root, 'folder-sibling', 'x.md'), 'outside');
  writeFileSync(path.join(folder, 'sub', 'inside.md'), 'inside');
  symlinkSync(path.join(root, 'secret.txt'), path.join(folder, 'link.txt'));
  symlinkSync(path.join(root, 'folder-sibling'), path.join(folder, 'linked-dir'));
  symlinkSync(path.join(folder, 'sub', 'inside.md'), path.join(folder, 'link-inside.md'));
  assert.equal(await leavesFolder(folder, path.join(folder, 'sub', 'inside.md')), false);
  assert.equal(await leavesFolder(folder, path.join(folder, 'link-inside.md')), false, 'a link to a file of the folder stays inside');
  assert.equal(await leavesFolder(folder, path.join(folder, 'link.txt')), true);
  assert.equal(await leavesFolder(folder, path.join(folder, 'linked-dir', 'x.md')), true, 'a sibling folder whose name starts the same is outside');
  assert.equal(await leavesFolder(folder, path.join(folder, 'missing.md')), false, 'a missing file is left to the editor to report');
});
