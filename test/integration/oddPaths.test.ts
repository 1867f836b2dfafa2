// One odd path never costs the run: a path longer than the system can open (PATH_MAX), a name
// that is not valid UTF-8, a folder that vanishes while the folder is scanned. Each is reported on
// its own line with the reason, and every other file is indexed. The long paths are made with
// relative steps (mkdir and chdir in a child process), the only way to build them, and removed with `rm -rf`.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { FolderRules } from '../../server/src/workspace/folderRules.ts';
import { scanFolder } from '../../server/src/workspace/scan.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const LONG = 'd'.repeat(200);

/** A temporary folder removed with `rm -rf`, which unlike Node's rm can remove paths longer than PATH_MAX. */
function deepTempDir(t: TestContext): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'relata-test-'));
  t.after(() => spawnSync('rm', ['-rf', dir]));
  return dir;
}

/** Nested folders of 200-character names, `depth` deep under `folder`, with a file at the bottom. */
function deepFolder(folder: string, depth: number, fileName: string): void {
  // A child process, because chdir changes the whole process; each step is relative, so no call sees the full path.
  const steps = `const fs = require('node:fs'); process.chdir(process.argv[1]);
    for (let i = 0; i < Number(process.argv[2]); i += 1) { fs.mkdirSync(process.argv[3]); process.chdir(process.argv[3]); }
    fs.writeFileSync(process.argv[4], '# Deep\\n\\nfar down\\n');`;
  execFileSync(process.execPath, ['-e', steps, folder, String(depth), LONG, fileName]);
}

test('a folder deeper than PATH_MAX is reported on its own line and `relata index` indexes the rest, exit 0', { skip: !existsSync(CLI) && 'dist/cli.js is missing: run `npm run build` first' }, (t) => {
  const root = deepTempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'a.md': '# A\n\nalpha\n', 'notes/b.md': '# B\n\nbravo\n' });
  deepFolder(folder, 22, 'deep.md');
  const run = spawnSync(process.execPath, [CLI, 'index', folder, '--data', path.join(root, 'data'), '--embedding-model', 'none', '--json'], {
    encoding: 'utf8',
    env: { ...process.env, HOME: root, RELATA_WORKSPACE: 'odd-paths' },
  });
  assert.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { files: { path: string; status: string; reason: string | null }[] };
  const tooLong = report.files.filter((file) => file.reason?.startsWith('path too long'));
  assert.equal(tooLong.length, 1, JSON.stringify(report.files.map((file) => [file.path.length, file.status, file.reason])));
  assert.equal(tooLong[0]!.status, 'failed');
  assert.ok(tooLong[0]!.path.endsWith(`${LONG}/`), 'the entry is the folder that could not be listed');
  assert.deepEqual(
    report.files.filter((file) => file.status === 'indexed').map((file) => file.path),
    ['a.md', 'notes/b.md'],
  );
});

test('a file whose own path passes PATH_MAX fails with that reason; the rest of the folder is indexed', async (t) => {
  const root = deepTempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'a.md': '# A\n\nalpha\n' });
  // 19 folders of 201 characters stay under 4,096; the file's 250-character name takes it over.
  const fileName = `${'f'.repeat(247)}.md`;
  deepFolder(folder, 19, fileName);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  const report = await index.index();
  const deep = report.files.find((file) => file.path.endsWith(fileName));
  assert.ok(path.join(folder, deep?.path ?? '').length > 4096, 'the file is past PATH_MAX');
  assert.equal(deep?.status, 'failed');
  assert.match(deep?.reason ?? '', /^path too long: the system cannot open a file this deep/);
  assert.equal(report.files.find((file) => file.path === 'a.md')?.status, 'indexed');
});

test('a name that is not valid UTF-8 is skipped with that reason, its bytes escaped; never reported as removed', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'a.md': '# A\n\nalpha\n', 'sub/keep.md': '# Keep\n\nkept\n' });
  // Latin-1 "café.md" and a folder named with a lone continuation byte.
  writeFileSync(Buffer.concat([Buffer.from(`${folder}/caf`), Buffer.from([0xe9]), Buffer.from('.md')]), '# Cafe\n\ncroissant\n');
  execFileSync('sh', ['-c', `mkdir "$1/$(printf 'bad\\200dir')" && printf '# In\\n\\ninside\\n' > "$1/$(printf 'bad\\200dir')/in.md"`, 'sh', folder]);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  const report = await index.index();
  const byPath = new Map(report.files.map((file) => [file.path, file]));
  assert.deepEqual(
    report.files.map((file) => [file.path, file.status]),
    [['a.md', 'indexed'], ['bad\\x80dir/', 'skipped'], ['caf\\xE9.md', 'skipped'], ['sub/keep.md', 'indexed']],
  );
  assert.match(byPath.get('caf\\xE9.md')?.reason ?? '', /^name is not valid UTF-8: caf\\xE9\.md /);
  assert.equal(report.items.skipped, 2);
  assert.ok(!report.files.some((file) => /removed from the folder/.test(file.reason ?? '')));
  // Nothing is stored under a name that would not reopen the file.
  assert.deepEqual((await index.store.listItems()).map((item) => item.path), ['a.md', 'sub/keep.md']);
});

test('a folder removed after its parent was listed is reported with the reason; the rest is indexed', async (t) => {
  const folder = writeFiles(path.join(tempDir(t), 'folder'), { 'a.md': '# A\n\nalpha\n', 'going/b.md': '# B\n\nbravo\n' });
  // The scan asks the rules about each folder it is about to descend: the moment to remove it.
  class RemovesGoing extends FolderRules {
    override isIgnored(absolute: string, isDirectory: boolean): boolean {
      if (isDirectory && path.basename(absolute) === 'going') rmSync(absolute, { recursive: true });
      return super.isIgnored(absolute, isDirectory);
    }
  }
  const scan = await scanFolder(folder, new RemovesGoing(folder, []));
  assert.deepEqual(scan.files, ['a.md']);
  assert.deepEqual(scan.unreadable, [{ path: 'going/', reason: 'the folder was removed or replaced while the folder was being scanned' }]);
});
