// Where the folder ends: only the path segment `..` leaves it (a name such as `..notes.md` is an
// ordinary name), and a folder and its data directory may not contain each other.

import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { isInside } from '../../server/src/store/dataDir.ts';
import { dataDirOverlap, leavesFolder } from '../../server/src/workspace/folderBoundary.ts';
import { FolderRules } from '../../server/src/workspace/folderRules.ts';
import type { FolderSession } from '../../server/src/lsp/folderSession.ts';
import { FolderSessions } from '../../server/src/lsp/folderSessions.ts';
import { tempDir } from '../support/tempFolder.ts';

test('only the segment `..` leaves the folder, not a name that begins with two dots', () => {
  for (const inside of ['..notes.md', '..archive/old.md', '...', 'a/..b', 'a/b..', '']) assert.equal(leavesFolder(inside), false, inside);
  for (const outside of ['..', '../x.md', `..${path.sep}x.md`, path.resolve('/elsewhere')]) assert.equal(leavesFolder(outside), true, outside);
  assert.equal(isInside('/work/docs/..notes.md', '/work/docs'), true);
  assert.equal(isInside('/work/docs', '/work/docs'), true);
  assert.equal(isInside('/work/docsx/a.md', '/work/docs'), false);
  assert.equal(isInside('/work/a.md', '/work/docs'), false);
});

test('the folder rules index names that begin with two dots and nothing outside the folder', () => {
  const rules = new FolderRules('/work/docs', []);
  assert.equal(rules.isIgnored('/work/docs/..notes.md', false), false);
  assert.equal(rules.isIgnored('/work/docs/..archive', true), false);
  assert.equal(rules.isIgnored('/work/docs/..archive/old.md', false), false);
  assert.equal(rules.isIgnored('/work/other.md', false), true);
  assert.equal(rules.isIgnored('/work/docs/.git', true), true);
});

test('the language server finds the folder of a file whose name begins with two dots', () => {
  const sessions = new FolderSessions();
  sessions.add({ uri: pathToFileURL('/work/docs').href, folder: '/work/docs', name: 'docs' } as FolderSession);
  assert.equal(sessions.byFile(pathToFileURL('/work/docs/..notes.md').href)?.relative, '..notes.md');
  assert.equal(sessions.byFile(pathToFileURL('/work/notes.md').href), null);
});

test('a data directory inside the folder, or a folder inside its data directory, is named with both paths', (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'folder');
  mkdirSync(folder);
  assert.equal(dataDirOverlap(folder, path.join(root, 'data')), null);
  assert.equal(dataDirOverlap(folder, path.join(root, 'folder-data')), null, 'a sibling with a common prefix is apart');
  assert.equal(
    dataDirOverlap(folder, path.join(folder, '.relata')),
    `the data directory ${path.join(folder, '.relata')} is inside the folder ${folder}: Relata would index its own store; choose a data directory outside the folder`,
  );
  assert.equal(
    dataDirOverlap(folder, folder),
    `the data directory ${folder} is inside the folder ${folder}: Relata would index its own store; choose a data directory outside the folder`,
  );
  assert.equal(
    dataDirOverlap(folder, root),
    `the folder ${folder} is inside its data directory ${root}: Relata would index its own store; choose a data directory outside the folder`,
  );
  // Real paths are compared: a link to the folder does not hide it, even when the data directory does not exist yet.
  symlinkSync(folder, path.join(root, 'shortcut'), 'dir');
  assert.match(dataDirOverlap(folder, path.join(root, 'shortcut', 'not', 'yet')) ?? '', /is inside the folder/);
});
