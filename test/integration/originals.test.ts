// Which of byte-identical files is the original: the rule among files first seen together
// (store/preferredOriginal.ts), an established original kept, and a person's choice, on real
// files and a real store.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

const REPORT = '# Quarterly report\n\nThe crane refurbishment at Example Ltd finished in May and cost 42,000 EUR.\n';
const JAN = new Date('2026-01-10T09:00:00Z');
const MAR = new Date('2026-03-10T09:00:00Z');

async function openIndex(t: TestContext, folder: string) {
  const index = await FolderIndex.open({ folder, dataDir: path.join(path.dirname(folder), 'data'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => index.close());
  return index;
}

/** A folder of identical files, each with the modification time given. */
function identicalFiles(t: TestContext, mtimes: Record<string, Date>): string {
  const folder = path.join(tempDir(t), 'folder');
  writeFiles(folder, Object.fromEntries(Object.keys(mtimes).map((file) => [file, REPORT])));
  for (const [file, when] of Object.entries(mtimes)) utimesSync(path.join(folder, file), when, when);
  return folder;
}

async function originalOf(index: FolderIndex, files: string[]): Promise<string> {
  const items = await Promise.all(files.map((file) => index.store.getItemByPath(file)));
  const originals = items.filter((item) => item && item.status !== 'duplicate');
  assert.equal(originals.length, 1, `exactly one original among ${files.join(', ')}`);
  for (const item of items) if (item!.status === 'duplicate') assert.equal(item!.duplicateOf, originals[0]!.id);
  return originals[0]!.path;
}

test('of identical files first seen together, the one modified earliest is the original, though walked last', async (t) => {
  const folder = identicalFiles(t, { 'archive/report.md': MAR, 'report.md': JAN });
  const index = await openIndex(t, folder);
  await index.index();
  assert.equal(await originalOf(index, ['archive/report.md', 'report.md']), 'report.md');
  const original = await index.store.getItemByPath('report.md');
  assert.equal(original?.status, 'indexed');
  assert.ok((await index.store.listChunks(original!.id)).length > 0, 'the original is the one with passages');
  assert.deepEqual(await index.store.listChunks((await index.store.getItemByPath('archive/report.md'))!.id), []);
});

test('an older modification time outweighs a longer path', async (t) => {
  const folder = identicalFiles(t, { 'report.md': MAR, 'archive/report.md': JAN });
  const index = await openIndex(t, folder);
  await index.index();
  assert.equal(await originalOf(index, ['archive/report.md', 'report.md']), 'archive/report.md');
});

test('with equal modification times the shorter path is the original, whichever is walked first', async (t) => {
  const folder = identicalFiles(t, { 'archive/report.md': JAN, 'report.md': JAN });
  const index = await openIndex(t, folder);
  await index.index();
  assert.equal(await originalOf(index, ['archive/report.md', 'report.md']), 'report.md');
});

test('with equal times and path lengths a name without a copy marker is the original', async (t) => {
  const folder = identicalFiles(t, { 'backup/plan.md': JAN, 'the-plan.md': JAN, 'plan (1).md': JAN, 'notes/plan.md': JAN });
  const index = await openIndex(t, folder);
  await index.index();
  // the-plan.md and plan (1).md are the shortest, both 11 characters: the marker decides between them.
  assert.equal(await originalOf(index, ['backup/plan.md', 'the-plan.md', 'plan (1).md', 'notes/plan.md']), 'the-plan.md');
  const folder2 = identicalFiles(t, { 'copy/a.md': JAN, 'main/a.md': JAN });
  const second = await FolderIndex.open({ folder: folder2, dataDir: path.join(path.dirname(folder2), 'data2'), workspace: 'alice', embedding: { kind: 'none' } });
  t.after(() => second.close());
  await second.index();
  assert.equal(await originalOf(second, ['copy/a.md', 'main/a.md']), 'main/a.md');
});

test('with nothing else to tell identical files apart, path order decides', async (t) => {
  const folder = identicalFiles(t, { 'b/plan.md': JAN, 'a/plan.md': JAN });
  const index = await openIndex(t, folder);
  await index.index();
  assert.equal(await originalOf(index, ['a/plan.md', 'b/plan.md']), 'a/plan.md');
});

test('an original the store already has stays the original when a better-placed identical file appears', async (t) => {
  const folder = identicalFiles(t, { 'archive/report.md': MAR });
  const index = await openIndex(t, folder);
  await index.index();
  writeFileSync(path.join(folder, 'report.md'), REPORT);
  utimesSync(path.join(folder, 'report.md'), JAN, JAN);
  await index.index();
  assert.equal(await originalOf(index, ['archive/report.md', 'report.md']), 'archive/report.md');

  // A watched change is a run of its own: it does not flip the established original either.
  writeFileSync(path.join(folder, 'summary.md'), REPORT);
  utimesSync(path.join(folder, 'summary.md'), JAN, JAN);
  await index.enqueuePaths(['summary.md', 'report.md']);
  await index.drain();
  assert.equal(await originalOf(index, ['archive/report.md', 'report.md', 'summary.md']), 'archive/report.md');
});

test('a person\'s choice of original swaps the two, is parsed, and survives re-indexing', async (t) => {
  const folder = identicalFiles(t, { 'archive/report.md': JAN, 'report.md': MAR, 'old/report.md': MAR });
  const index = await openIndex(t, folder);
  await index.index();
  assert.equal(await originalOf(index, ['archive/report.md', 'report.md', 'old/report.md']), 'archive/report.md');
  const former = await index.store.getItemByPath('archive/report.md');

  const chosen = await index.chooseOriginal('report.md');
  assert.equal(chosen.formerOriginalId, former!.id);
  assert.equal(await originalOf(index, ['archive/report.md', 'report.md', 'old/report.md']), 'report.md');
  const original = await index.store.getItemByPath('report.md');
  assert.equal(original?.status, 'indexed');
  assert.ok((await index.store.listChunks(original!.id)).length > 0);
  assert.ok((await index.store.listEntities(original!.id)).length > 0, 'the new original is extracted');

  await index.index();
  assert.equal(await originalOf(index, ['archive/report.md', 'report.md', 'old/report.md']), 'report.md');
  await assert.rejects(index.chooseOriginal('report.md'), /report\.md is not a copy/);
});

test('when the original is deleted, the best of its copies becomes the original', async (t) => {
  const folder = identicalFiles(t, { 'a.md': JAN, 'archive/copies/a.md': MAR, 'drafts/a.md': MAR });
  const index = await openIndex(t, folder);
  await index.index();
  assert.equal(await originalOf(index, ['a.md', 'archive/copies/a.md', 'drafts/a.md']), 'a.md');
  rmSync(path.join(folder, 'a.md'));
  await index.index();
  assert.equal(await originalOf(index, ['archive/copies/a.md', 'drafts/a.md']), 'drafts/a.md');
});

// The command line and the editor, on the built CLI.

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const needsBuild = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';

function relata(args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, RELATA_WORKSPACE: 'cli-test' } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('relata item on a copy shows its original, saying they are identical', { skip: needsBuild, timeout: 120_000 }, (t) => {
  const folder = identicalFiles(t, { 'archive/report.md': MAR, 'report.md': JAN });
  const data = path.join(path.dirname(folder), 'data');
  assert.equal(relata(['index', folder, '--data', data, '--embedding-model', 'none', '--json']).code, 0);
  const detail = relata(['item', path.join(folder, 'archive/report.md'), '--data', data, '--json']);
  assert.equal(detail.code, 0, detail.stderr);
  const view = JSON.parse(detail.stdout);
  assert.equal(view.path, 'report.md');
  assert.equal(view.status, 'indexed');
  assert.equal(view.identicalCopy, 'archive/report.md');
  assert.ok(view.chunks.length > 0 && view.entities.length > 0, 'the original\'s passages and names');
  const text = relata(['item', path.join(folder, 'archive/report.md'), '--data', data]);
  assert.match(text.stdout, /^archive\/report\.md is identical to report\.md, its original:/);
});

test('relata original makes a copy the original, and a re-index keeps it', { skip: needsBuild, timeout: 120_000 }, (t) => {
  const folder = identicalFiles(t, { 'archive/report.md': MAR, 'report.md': JAN });
  const data = path.join(path.dirname(folder), 'data');
  assert.equal(relata(['index', folder, '--data', data, '--embedding-model', 'none', '--json']).code, 0);
  const chosen = relata(['original', path.join(folder, 'archive/report.md'), '--data', data, '--embedding-model', 'none', '--json']);
  assert.equal(chosen.code, 0, chosen.stderr);
  assert.deepEqual({ ...JSON.parse(chosen.stdout), item_id: undefined }, { original: 'archive/report.md', former_original: 'report.md', item_id: undefined });

  assert.equal(relata(['index', folder, '--data', data, '--embedding-model', 'none', '--json']).code, 0);
  const view = JSON.parse(relata(['item', path.join(folder, 'report.md'), '--data', data, '--json']).stdout);
  assert.equal(view.path, 'archive/report.md');
  assert.equal(view.identicalCopy, 'report.md');
  assert.ok(view.chunks.length > 0);

  const again = relata(['original', path.join(folder, 'archive/report.md'), '--data', data]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /archive\/report\.md is not a copy of another file/);
  assert.match(relata(['--help']).stdout, /original\s+make this copy the original/);
});
