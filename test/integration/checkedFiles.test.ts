// A run reads again only the files that changed since ingest last read them (workspace/checkedFiles.ts):
// on a real folder, indexed twice by the real pipeline, the second run reads nothing; a file
// rewritten reads again, also when its modification time is set back to what it was (its change
// time moved), and so does a file whose parser is not the one that read it.

import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { RACY_MS, unchangedSinceCheck } from '../../server/src/workspace/checkedFiles.ts';
import { tempDir } from '../support/tempFolder.ts';

const WORKSPACE = 'checked';

/**
 * A folder of notes whose checks will not be racy: their modification times set a minute back, and
 * their change times, which only the kernel sets, left RACY_MS behind before the first run.
 */
async function folderOfNotes(t: TestContext): Promise<string> {
  const folder = tempDir(t);
  mkdirSync(path.join(folder, 'notes'));
  const longAgo = new Date(Date.now() - 60_000);
  for (let n = 0; n < 6; n += 1) {
    const file = path.join(folder, 'notes', `note-${n}.md`);
    writeFileSync(file, `# Note ${n}\n\nThe gantry crane inspection number ${n} found the rail worn.\n`);
    utimesSync(file, longAgo, longAgo);
  }
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
  return folder;
}

/** The paths the store's queue handed to ingest since `since` (ISO): the files a run read. */
function readSince(dataDir: string, since: string): string[] {
  const db = new Database(path.join(dataDir, 'relata.sqlite'), { readonly: true });
  try {
    const rows = db.prepare(`SELECT subject FROM jobs WHERE workspace = ? AND stage = 'ingest' AND updated_at > ? ORDER BY subject`).all(WORKSPACE, since);
    return (rows as { subject: string }[]).map((row) => row.subject);
  } finally {
    db.close();
  }
}

async function indexed(t: TestContext, folder: string, dataDir: string, maxFileBytes?: number) {
  const settings = maxFileBytes === undefined ? {} : { maxFileBytes };
  const index = await FolderIndex.open({ folder, dataDir, workspace: WORKSPACE, embedding: { kind: 'none' }, settings });
  t.after(() => index.close());
  return index;
}

test('a second run reads no unchanged file; a rewritten one is read again, even with its modification time set back', async (t) => {
  const folder = await folderOfNotes(t);
  const dataDir = tempDir(t);
  const first = await indexed(t, folder, dataDir);
  const before = new Date().toISOString();
  await first.index();
  assert.equal(readSince(dataDir, before).length, 6, 'the first run reads every file');
  await first.close();

  // A change made within RACY_MS of the first run's checks would be read again anyway; these are not.
  const edited = path.join(folder, 'notes', 'note-2.md');
  const { mtime } = statSync(edited);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const second = await indexed(t, folder, dataDir);
  const secondStart = new Date().toISOString();
  await second.index();
  assert.deepEqual(readSince(dataDir, secondStart), [], 'nothing changed, nothing read');

  // The same number of bytes, the old modification time: only the change time says it was written.
  writeFileSync(edited, readFileSync(edited, 'utf8').replace('worn', 'new!'));
  utimesSync(edited, mtime, mtime);
  appendFileSync(path.join(folder, 'notes', 'note-4.md'), 'A later line about the hoist brake.\n');
  const thirdStart = new Date().toISOString();
  await second.index();
  assert.deepEqual(readSince(dataDir, thirdStart), ['notes/note-2.md', 'notes/note-4.md']);
  const found = await second.store.searchChunksLexical('hoist brake', 5);
  assert.equal(found.length, 1);
  const rewritten = await second.store.searchChunksLexical('new', 5);
  assert.equal(rewritten.length, 1, 'the rewritten bytes were read');
});

test('a size limit lowered since the last run reads the files now over it, and skips them as a first run would', async (t) => {
  const folder = await folderOfNotes(t);
  writeFileSync(path.join(folder, 'notes', 'short.md'), '# S\n\nshort\n');
  utimesSync(path.join(folder, 'notes', 'short.md'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
  const dataDir = tempDir(t);
  const first = await indexed(t, folder, dataDir);
  await first.index();
  await first.close();
  const limited = await indexed(t, folder, dataDir, 40);
  const since = new Date().toISOString();
  await limited.index();
  assert.equal(readSince(dataDir, since).length, 6, 'the six notes over 40 bytes, not the short one');
  const items = await limited.store.listItems();
  assert.deepEqual(items.filter((item) => item.status === 'skipped').map((item) => item.path).sort(), Array.from({ length: 6 }, (_, n) => `notes/note-${n}.md`));
  assert.equal(items.find((item) => item.path === 'notes/short.md')?.status, 'indexed');
});

test('a check is trusted only when the size and both times match, taken well after the last write, by the current parser', () => {
  const check = { path: 'a.md', size: 10, mtimeMs: 1_000_000, ctimeMs: 1_000_000, checkedMs: 1_000_000 + 60_000, parserVersion: 'md@3', duplicate: false };
  const same = { size: 10, mtimeMs: 1_000_000, ctimeMs: 1_000_000 };
  assert.equal(unchangedSinceCheck(check, same, 'md@3'), true);
  assert.equal(unchangedSinceCheck(check, { ...same, size: 11 }, 'md@3'), false);
  assert.equal(unchangedSinceCheck(check, { ...same, mtimeMs: 1_000_001 }, 'md@3'), false);
  assert.equal(unchangedSinceCheck(check, { ...same, ctimeMs: 1_000_500 }, 'md@3'), false);
  assert.equal(unchangedSinceCheck(check, same, 'md@4'), false, 'a newer parser reads it again');
  assert.equal(unchangedSinceCheck({ ...check, parserVersion: null, duplicate: true }, same, 'md@4'), true, 'a copy is never parsed');
  // Checked within RACY_MS of the last write: a write in the same tick would leave the times as they are.
  assert.equal(unchangedSinceCheck({ ...check, checkedMs: check.mtimeMs + RACY_MS - 1 }, same, 'md@3'), false);
  assert.equal(unchangedSinceCheck({ ...check, checkedMs: check.mtimeMs + RACY_MS }, same, 'md@3'), true);
});
