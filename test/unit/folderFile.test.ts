// Reading one file of the folder without leaving it, even when the disk changes between the check
// and the read: the read is tested directly, with the swap made in between, so no timing is involved.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { examineEntry, readFolderFile } from '../../server/src/workspace/folderFile.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const posixOnly = process.platform === 'win32' ? 'symbolic links and FIFOs need a POSIX system' : false;
const SECRET = 'outside the folder: quokkazanzibar\n';

function setUp(root: string) {
  const outside = writeFiles(path.join(root, 'outside'), { 'secret.md': SECRET, 'sub/notes.md': SECRET });
  const folder = writeFiles(path.join(root, 'folder'), { 'notes.md': '# Notes\n\ninside\n', 'sub/notes.md': '# Sub\n\ninside\n' });
  return { folder, outside };
}

async function checkedFile(folder: string, relative: string) {
  const entry = await examineEntry(folder, relative);
  assert.equal(entry.kind, 'file');
  return entry.kind === 'file' ? entry.stats : assert.fail('not a file');
}

test('a regular file inside the folder is read as it is', { skip: posixOnly }, async (t) => {
  const { folder } = setUp(tempDir(t));
  const read = await readFolderFile(folder, 'notes.md', await checkedFile(folder, 'notes.md'));
  assert.equal(read.kind === 'read' && read.bytes.toString('utf8'), '# Notes\n\ninside\n');
});

test('links, special files and paths through a linked folder are skipped with a reason before any read', { skip: posixOnly }, async (t) => {
  const { folder, outside } = setUp(tempDir(t));
  symlinkSync(path.join(outside, 'secret.md'), path.join(folder, 'link.md'));
  symlinkSync(outside, path.join(folder, 'elsewhere'), 'dir');
  symlinkSync('.', path.join(folder, 'here'), 'dir');
  assert.equal(spawnSync('mkfifo', [path.join(folder, 'pipe.md')]).status, 0);

  assert.deepEqual(await examineEntry(folder, 'link.md'), { kind: 'skipped', reason: 'symbolic link (not followed)', size: null });
  assert.deepEqual(await examineEntry(folder, 'pipe.md'), { kind: 'skipped', reason: 'not a regular file (a FIFO)', size: null });
  for (const throughLink of ['elsewhere/secret.md', 'here/notes.md']) {
    assert.deepEqual(
      await examineEntry(folder, throughLink),
      { kind: 'skipped', reason: 'a folder on its path is a symbolic link (not followed)', size: null },
      throughLink,
    );
  }
  assert.deepEqual(await examineEntry(folder, 'sub'), { kind: 'directory' });
  assert.deepEqual(await examineEntry(folder, 'gone.md'), { kind: 'missing' });
  assert.deepEqual(await examineEntry(folder, 'notes.md/child'), { kind: 'missing' });
});

test('a link swapped in after the check is not followed by the read', { skip: posixOnly }, async (t) => {
  const { folder, outside } = setUp(tempDir(t));
  const checked = await checkedFile(folder, 'notes.md');
  rmSync(path.join(folder, 'notes.md'));
  symlinkSync(path.join(outside, 'secret.md'), path.join(folder, 'notes.md'));
  assert.deepEqual(await readFolderFile(folder, 'notes.md', checked), { kind: 'skipped', reason: 'symbolic link (not followed)' });
});

test('a FIFO swapped in after the check is not waited on: the read returns at once', { skip: posixOnly, timeout: 10_000 }, async (t) => {
  const { folder } = setUp(tempDir(t));
  const checked = await checkedFile(folder, 'notes.md');
  rmSync(path.join(folder, 'notes.md'));
  assert.equal(spawnSync('mkfifo', [path.join(folder, 'notes.md')]).status, 0);
  assert.deepEqual(await readFolderFile(folder, 'notes.md', checked), { kind: 'skipped', reason: 'not a regular file (a FIFO)' });
});

test('another file put in its place after the check is not read now; the error says it will be read again', { skip: posixOnly }, async (t) => {
  const { folder } = setUp(tempDir(t));
  const checked = await checkedFile(folder, 'notes.md');
  writeFileSync(path.join(folder, 'notes.md.tmp'), '# Notes\n\nsaved by an editor\n');
  renameSync(path.join(folder, 'notes.md.tmp'), path.join(folder, 'notes.md'));
  await assert.rejects(readFolderFile(folder, 'notes.md', checked), /notes\.md: the file changed while it was being read/);
});

test('a folder on the path swapped for a link after the check is caught on the opened file itself', {
  skip: posixOnly || (process.platform === 'linux' ? false : 'needs /proc/self/fd'),
}, async (t) => {
  const { folder, outside } = setUp(tempDir(t));
  await checkedFile(folder, 'sub/notes.md');
  // The check lost a race: it saw the very file that the link now leads to.
  renameSync(path.join(folder, 'sub'), path.join(folder, 'sub-old'));
  symlinkSync(path.join(outside, 'sub'), path.join(folder, 'sub'), 'dir');
  const raced = statSync(path.join(outside, 'sub', 'notes.md'));
  await assert.rejects(readFolderFile(folder, 'sub/notes.md', raced), /sub\/notes\.md: the file changed while it was being read/);
});

test('names that begin with two dots are ordinary names inside the folder', { skip: posixOnly }, async (t) => {
  const folder = writeFiles(tempDir(t), { '..notes.md': 'dots', '..archive/old.md': 'older' });
  mkdirSync(path.join(folder, '...'));
  for (const relative of ['..notes.md', '..archive/old.md']) {
    const read = await readFolderFile(folder, relative, await checkedFile(folder, relative));
    assert.equal(read.kind, 'read', relative);
  }
  assert.deepEqual(await examineEntry(folder, '...'), { kind: 'directory' });
});
