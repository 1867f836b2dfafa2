// Files stay inside the folder: symbolic links are never followed (by the scan, the watcher or
// ingest), special files are never opened, names that merely begin with `..` are ordinary names,
// and a folder and its data directory may not contain each other. Real folders, real links, a
// real FIFO, the built CLI and a real chokidar watch.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { FolderSession, serialQueue } from '../../server/src/lsp/folderSession.ts';
import { DEFAULT_SERVER_SETTINGS } from '../../server/src/lsp/server.ts';
import { watchFolder } from '../../server/src/workspace/watch.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';
import { eventually } from '../support/eventually.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const needsBuild = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';
const posixOnly = process.platform === 'win32' ? 'symbolic links and FIFOs need a POSIX system' : false;

/** A word that appears nowhere but in the file outside the folder. */
const SECRET_WORD = 'quokkazanzibar';

function relata(args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    // A FIFO opened for reading blocks forever: a hang is a failure, not a stuck test run.
    timeout: 60_000,
    env: { ...process.env, RELATA_WORKSPACE: 'boundary-test' },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function mkfifo(file: string): void {
  const made = spawnSync('mkfifo', [file], { encoding: 'utf8' });
  assert.equal(made.status, 0, `mkfifo ${file}: ${made.stderr}`);
}

/** A secret outside the folder, and a folder with two real documents beside it. */
function outsideAndFolder(root: string): { folder: string; outside: string } {
  const outside = writeFiles(path.join(root, 'outside'), {
    'secret.md': `# Secret\n\nThe ${SECRET_WORD} ledger lies outside the folder.\n`,
    'passwd.txt': `root:x:0:0:${SECRET_WORD}:/root:/bin/bash\n`,
  });
  const folder = writeFiles(path.join(root, 'folder'), {
    'notes.md': '# Notes\n\nThe crane inspection is due in March.\n',
    'sub/report.md': '# Report\n\nThe boiler was serviced in April.\n',
  });
  return { folder, outside };
}

/** Every hostile entry the folder gets, by path, and the reason it is skipped with. */
const LINK = 'symbolic link (not followed)';
const HOSTILE: Record<string, string> = {
  'passwd.txt': LINK,
  'secret.md': LINK,
  'alias.md': LINK,
  'sub/up': LINK,
  'everything': LINK,
  'inbox.fifo': 'not a regular file (a FIFO)',
};

function addHostileEntries(folder: string, outside: string): void {
  symlinkSync(path.join(outside, 'passwd.txt'), path.join(folder, 'passwd.txt'));
  symlinkSync('../outside/secret.md', path.join(folder, 'secret.md'));
  symlinkSync('notes.md', path.join(folder, 'alias.md'));
  symlinkSync('..', path.join(folder, 'sub', 'up'), 'dir');
  symlinkSync('/', path.join(folder, 'everything'), 'dir');
  mkfifo(path.join(folder, 'inbox.fifo'));
}

/** Files whose names begin with `..` but lie inside the folder. */
const DOT_DOT_NAMES = { '..notes.md': '# Dot dot\n\nThe lift was certified in May.\n', '..archive/old.md': '# Old\n\nThe roof was repaired in June.\n' };

test('relata index follows no link out of the folder, never opens a FIFO, and indexes `..` names', {
  skip: needsBuild || posixOnly,
  timeout: 120_000,
}, (t) => {
  const root = tempDir(t);
  const { folder, outside } = outsideAndFolder(root);
  writeFiles(folder, DOT_DOT_NAMES);
  addHostileEntries(folder, outside);
  const data = path.join(root, 'data');

  const run = relata(['index', folder, '--data', data, '--embedding-model', 'none', '--json']);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const byPath = new Map<string, { status: string; reason: string | null }>(report.files.map((file: { path: string }) => [file.path, file]));
  assert.deepEqual([...byPath.keys()].sort(), ['..archive/old.md', '..notes.md', ...Object.keys(HOSTILE), 'notes.md', 'sub/report.md'].sort());
  for (const [hostile, reason] of Object.entries(HOSTILE)) {
    assert.equal(byPath.get(hostile)?.status, 'skipped', hostile);
    assert.equal(byPath.get(hostile)?.reason, reason, hostile);
  }
  for (const indexed of ['notes.md', 'sub/report.md', '..notes.md', '..archive/old.md']) assert.equal(byPath.get(indexed)?.status, 'indexed', indexed);
  assert.deepEqual(report.items, { indexed: 4, failed: 0, skipped: 6, duplicates: 0 });

  const search = relata(['search', SECRET_WORD, '--data', data, '--json']);
  assert.equal(search.code, 0, search.stderr);
  assert.deepEqual(JSON.parse(search.stdout).results, [], 'the secret outside the folder is not searchable');
  const dotDot = JSON.parse(relata(['search', 'lift certified', '--data', data, '--json']).stdout);
  assert.equal(dotDot.results[0]?.path, '..notes.md');
});


test('the watcher follows no link out of the folder, does not loop, and agrees with the scan', { skip: posixOnly, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const { folder, outside } = outsideAndFolder(root);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const watch = watchFolder(index, { debounceMs: 100 });
  t.after(() => watch.close());
  await new Promise((resolve) => setTimeout(resolve, 500)); // let chokidar finish its initial walk

  addHostileEntries(folder, outside);
  writeFiles(folder, DOT_DOT_NAMES);
  await eventually(async () => (await index.store.getItemByPath('..archive/old.md'))?.status === 'indexed', '..archive/old.md is indexed');
  for (const hostile of Object.keys(HOSTILE)) {
    await eventually(async () => (await index.store.getItemByPath(hostile))?.status === 'skipped', `${hostile} is skipped`);
  }
  await watch.settled();

  const watched = (await index.store.listItems()).map((item) => `${item.path} ${item.status} ${item.reason ?? ''}`.trim()).sort();
  assert.equal(watched.length, 10, `one item per entry, no more: ${watched.join('; ')}`);
  assert.deepEqual(await index.store.searchChunksLexical(SECRET_WORD, 5), [], 'the secret outside the folder is not searchable');

  // A full run over the same folder sees exactly what the watcher saw.
  const report = await index.index();
  assert.deepEqual(report.files.map((file) => `${file.path} ${file.status} ${file.reason ?? ''}`.trim()).sort(), watched);
});

test('a folder given through a link is still indexed and watched: only links inside it are not followed', { skip: posixOnly, timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const { folder } = outsideAndFolder(root);
  const shortcut = path.join(root, 'shortcut');
  symlinkSync(folder, shortcut, 'dir');
  const index = await FolderIndex.open({ folder: shortcut, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  assert.deepEqual((await index.index()).items, { indexed: 2, failed: 0, skipped: 0, duplicates: 0 });
  const watch = watchFolder(index, { debounceMs: 100 });
  t.after(() => watch.close());
  await new Promise((resolve) => setTimeout(resolve, 500)); // let chokidar finish its initial walk
  writeFiles(folder, { 'sub/later.md': '# Later\n\nThe hoist was tested in July.\n' });
  await eventually(async () => (await index.store.getItemByPath('sub/later.md'))?.status === 'indexed', 'sub/later.md is indexed');
});

test('a file replaced by a link to outside the folder loses its passages', { skip: posixOnly, timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const { folder, outside } = outsideAndFolder(root);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  rmSync(path.join(folder, 'notes.md'));
  symlinkSync(path.join(outside, 'secret.md'), path.join(folder, 'notes.md'));
  const report = await index.index();
  assert.equal(report.files.find((file) => file.path === 'notes.md')?.reason, LINK);
  assert.deepEqual(await index.store.searchChunksLexical('crane', 5), []);
  assert.deepEqual(await index.store.searchChunksLexical(SECRET_WORD, 5), []);
});

test('an original replaced by a link to its duplicate hands its place to the duplicate', { skip: posixOnly, timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const text = '# Plan\n\nThe gantry crane is inspected every spring.\n';
  const folder = writeFiles(path.join(root, 'folder'), { 'a.md': text, 'b.md': text });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  assert.equal((await index.store.getItemByPath('b.md'))?.status, 'duplicate');
  rmSync(path.join(folder, 'a.md'));
  symlinkSync('b.md', path.join(folder, 'a.md'));
  // What the watcher does for a changed path: ingest that one path only.
  await index.enqueuePaths(['a.md']);
  await index.drain();
  assert.equal((await index.store.getItemByPath('a.md'))?.reason, LINK);
  const survivor = await index.store.getItemByPath('b.md');
  assert.equal(survivor?.status, 'indexed');
  assert.deepEqual((await index.store.searchChunksLexical('gantry', 5)).map((hit) => hit.itemId), [survivor?.id]);
});

test('relata index refuses a data directory inside the folder, or a folder inside its data directory', { skip: needsBuild || posixOnly }, (t) => {
  const root = tempDir(t);
  const { folder } = outsideAndFolder(root);

  const inside = relata(['index', folder, '--data', path.join(folder, '.relata'), '--embedding-model', 'none']);
  assert.equal(inside.code, 2, inside.stdout);
  assert.match(inside.stderr, new RegExp(`data directory ${path.join(folder, '.relata')} is inside the folder ${folder}`));
  assert.equal(existsSync(path.join(folder, '.relata')), false, 'nothing is written into the folder');

  // The same, reached through a link: real paths are compared.
  symlinkSync(folder, path.join(root, 'shortcut'), 'dir');
  const linked = relata(['index', folder, '--data', path.join(root, 'shortcut', 'store'), '--embedding-model', 'none']);
  assert.equal(linked.code, 2, linked.stdout);
  assert.match(linked.stderr, /is inside the folder/);
  assert.equal(existsSync(path.join(folder, 'store')), false);

  const data = path.join(root, 'data');
  const nested = writeFiles(path.join(data, 'documents'), { 'a.md': '# A\n\nalpha\n' });
  const around = relata(['index', nested, '--data', data, '--embedding-model', 'none']);
  assert.equal(around.code, 2, around.stdout);
  assert.match(around.stderr, new RegExp(`folder ${nested} is inside its data directory ${data}`));
});

test('the language server reports a data location inside the folder instead of indexing', { skip: posixOnly }, async (t) => {
  const root = tempDir(t);
  const { folder } = outsideAndFolder(root);
  const logged: string[] = [];
  const session = new FolderSession('file:///folder', 'folder', folder, { ...DEFAULT_SERVER_SETTINGS, dataLocation: folder, embeddingModel: 'none' }, {
    onChange: () => undefined,
    onProgress: () => undefined,
    onIndexed: () => undefined,
    log: (line) => logged.push(line),
  });
  t.after(() => session.close());
  assert.equal(await session.start(serialQueue()), null);
  assert.equal(session.state, 'failed');
  assert.match(session.reason ?? '', new RegExp(`data directory ${folder}/\\S+ is inside the folder ${folder}`));
  assert.ok(logged.some((line) => line.includes('is inside the folder')));
  assert.deepEqual(
    spawnSync('find', [folder, '-name', '*.sqlite'], { encoding: 'utf8' }).stdout.trim(),
    '',
    'no store was created inside the folder',
  );
});
