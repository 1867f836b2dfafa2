// Damage is found and named: `relata check` on a healthy store exits 0 and, on a copy damaged in
// each way a disk or a person damages one (a page in the middle of the file, a missing or rewritten
// blob, a vector table's rows, the header), exits non-zero naming what is damaged and what to do;
// any command that meets damage names the store's path and the remedy instead of SQLite's bare
// message; and `relata index --rebuild` turns a damaged store into a working one that still holds
// the people's decisions, re-attached to the same pairs of files.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sha256 } from '../../server/src/store/blobs.ts';
import { openStore } from '../../server/src/store/index.ts';
import { writeCorpus } from '../support/generateCorpus.ts';
import { blobPath, copyStore, damageHeader, damageMiddlePage, damageVectorRows } from '../support/storeDamage.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const DEMO = path.join(REPO_ROOT, 'docs', 'demo');
const WORKSPACE = 'store-damage';
const skip = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';

const CONFIRMED = ['finance/q2-2025-capital-budget-review.md', 'maintenance/gantry-crane-gc2-refurbishment-report.md'];
const REJECTED = ['maintenance/gantry-crane-gc2-refurbishment-report.md', 'supplier-review-example-ltd.docx'];
const NOTE_FILE = 'notes/call-notes-2025-09-02-example-ltd.txt';

function relata(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, RELATA_WORKSPACE: WORKSPACE } });
}

function json(args: string[]) {
  const result = relata([...args, '--json']);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

interface Problem {
  kind: string;
  where: string;
  message: string;
  items?: string[];
  remedy: string;
}

function check(data: string): { status: number | null; report: { healthy: boolean; problems: Problem[] }; text: string } {
  const result = relata(['check', '--data', data, '--json']);
  const text = relata(['check', '--data', data]).stdout;
  return { status: result.status, report: JSON.parse(result.stdout), text };
}

interface RelationshipView {
  id: string;
  status: string;
  type: string;
  from: { path: string };
  to: { path: string };
  decided_by: string | null;
  note: string | null;
}

const pairOf = (view: RelationshipView) => [view.from.path, view.to.path].sort().join(' ↔ ');
const pair = (paths: string[]) => [...paths].sort().join(' ↔ ');

// Two stores, built once and copied by every test: the demo folder with 80 generated documents
// (a store of several hundred pages, most of them b-tree pages) with two decisions and no vectors, and the
// demo folder alone with the default embedding model (a sqlite-vec table).
let scratch = '';
let folder = '';
let lexical = '';
let withVectors = '';

before(() => {
  if (skip) return;
  scratch = mkdtempSync(path.join(tmpdir(), 'relata-damage-'));
  folder = path.join(scratch, 'folder');
  cpSync(DEMO, folder, { recursive: true });
  writeCorpus(path.join(folder, 'corpus'), 80);
  lexical = path.join(scratch, 'lexical');
  json(['index', folder, '--data', lexical, '--embedding-model', 'none']);
  const views = json(['relationships', '--data', lexical]) as RelationshipView[];
  const confirm = views.find((view) => pairOf(view) === pair(CONFIRMED));
  const reject = views.find((view) => pairOf(view) === pair(REJECTED));
  assert.ok(confirm && reject, `the demo's contradiction and supplier pairs are proposed: ${views.map(pairOf).join('; ')}`);
  json(['confirm', confirm.id, '--data', lexical, '--by', 'ana', '--note', 'invoice checked']);
  json(['reject', reject.id, '--data', lexical, '--by', 'ana', '--note', 'different supplier']);
  withVectors = path.join(scratch, 'vectors');
  json(['index', DEMO, '--data', withVectors]);
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('a healthy store passes relata check, full and quick, with its blobs and vector table', { skip, timeout: 10 * 60_000 }, (t) => {
  for (const data of [lexical, withVectors]) {
    const { status, report, text } = check(copyStore(data, path.join(tempDir(t), 'data')));
    assert.equal(status, 0, text);
    assert.deepEqual(report.problems, []);
    assert.match(text, /no damage found/);
    assert.equal(relata(['check', '--data', data, '--quick']).status, 0);
  }
  const vectors = json(['check', '--data', withVectors]);
  assert.equal(vectors.checked.vector_tables, 1);
  assert.ok(vectors.checked.vectors > 0 && vectors.checked.blobs > 0);
});

test('a page of random bytes in the middle of the file: check exits non-zero naming the damaged table or index', { skip, timeout: 5 * 60_000 }, (t) => {
  const data = copyStore(lexical, path.join(tempDir(t), 'data'));
  const damaged = damageMiddlePage(path.join(data, 'relata.sqlite'));
  t.diagnostic(`overwrote page ${damaged.page} of ${damaged.pages} (${damaged.owner})`);
  const { status, report, text } = check(data);
  assert.equal(status, 1, text);
  assert.equal(report.healthy, false);
  const integrity = report.problems.filter((problem) => problem.kind === 'integrity');
  assert.ok(integrity.length > 0, text);
  assert.ok(
    integrity.some((problem) => problem.where.includes(damaged.owner) || problem.where.includes(`page ${damaged.page}`)),
    `a problem names ${damaged.owner} or page ${damaged.page}:\n${text}`,
  );
  assert.match(text, /damaged: \d+ problem/);
  assert.match(text, /relata index .* --rebuild --data /);
});

test('a command that meets a damaged page names the store and what to do, not only SQLite\'s message', { skip, timeout: 5 * 60_000 }, (t) => {
  const data = copyStore(lexical, path.join(tempDir(t), 'data'));
  damageMiddlePage(path.join(data, 'relata.sqlite'), 'items');
  const result = relata(['items', '--data', data]);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /relata items: .*relata\.sqlite: the store is damaged \(database disk image is malformed\)\./);
  assert.ok(result.stderr.includes(path.join(data, 'relata.sqlite')), result.stderr);
  assert.match(result.stderr, /Run `relata check` to see what, or rebuild it from the folder with `relata index --rebuild` \(it keeps the decisions and history it can still read\)/);
});

test('a missing blob: check exits non-zero naming the blob and the item that refers to it', { skip, timeout: 5 * 60_000 }, (t) => {
  const data = copyStore(lexical, path.join(tempDir(t), 'data'));
  const hash = sha256(readFileSync(path.join(folder, NOTE_FILE)));
  rmSync(blobPath(data, hash));
  const { status, report, text } = check(data);
  assert.equal(status, 1, text);
  assert.deepEqual(
    report.problems.map((problem) => [problem.kind, problem.where, problem.items]),
    [['blob_missing', path.join('blobs', hash.slice(0, 2), hash), [NOTE_FILE]]],
  );
  assert.match(text, /referred to by notes\/call-notes-2025-09-02-example-ltd\.txt/);
});

test('a blob whose bytes changed: check exits non-zero saying they no longer hash to its name', { skip, timeout: 5 * 60_000 }, (t) => {
  const data = copyStore(lexical, path.join(tempDir(t), 'data'));
  const hash = sha256(readFileSync(path.join(folder, NOTE_FILE)));
  writeFileSync(blobPath(data, hash), 'not the bytes that were stored\n');
  const { status, report, text } = check(data);
  assert.equal(status, 1, text);
  assert.deepEqual(report.problems.map((problem) => [problem.kind, problem.items]), [['blob_mismatch', [NOTE_FILE]]]);
  assert.match(report.problems[0]!.remedy, /delete blobs\/.*, then run `relata index /);
});

test('a vector table whose rows were overwritten: check exits non-zero naming the table', { skip, timeout: 5 * 60_000 }, (t) => {
  const data = copyStore(withVectors, path.join(tempDir(t), 'data'));
  damageVectorRows(path.join(data, 'relata.sqlite'), 'vec_f32_512');
  const { status, report, text } = check(data);
  assert.equal(status, 1, text);
  assert.deepEqual(report.problems.map((problem) => [problem.kind, problem.where]), [['vectors', 'vec_f32_512']]);
  assert.match(report.problems[0]!.message, /not a unit vector/);
});

test('a destroyed header: status names the store and the remedy; check calls the file unreadable', { skip, timeout: 5 * 60_000 }, (t) => {
  const data = copyStore(lexical, path.join(tempDir(t), 'data'));
  const file = path.join(data, 'relata.sqlite');
  damageHeader(file);
  const status = relata(['status', '--data', data]);
  assert.equal(status.status, 1);
  assert.equal(
    status.stderr.trim(),
    `relata status: ${file}: the store is damaged (file is not a database). ` +
      'Run `relata check` to see what, or rebuild it from the folder with `relata index --rebuild` (it keeps the decisions and history it can still read)',
  );
  const { status: code, report } = check(data);
  assert.equal(code, 1);
  assert.deepEqual(report.problems.map((problem) => [problem.kind, problem.message]), [['unreadable', 'file is not a database']]);
});

test('index --rebuild on a damaged store: a working store with the same confirmed and rejected pairs, the old file kept', { skip, timeout: 5 * 60_000 }, (t) => {
  const data = copyStore(lexical, path.join(tempDir(t), 'data'));
  damageMiddlePage(path.join(data, 'relata.sqlite'), 'chunks');
  assert.equal(check(data).status, 1);

  const rebuilt = json(['index', folder, '--data', data, '--embedding-model', 'none', '--rebuild']);
  assert.deepEqual(rebuilt.rebuild.lost, []);
  assert.ok(rebuilt.rebuild.kept_as && existsSync(rebuilt.rebuild.kept_as), 'the damaged file is kept');
  assert.match(path.basename(rebuilt.rebuild.kept_as), /^relata\.sqlite\.before-rebuild-\d{8}T\d{6}Z$/);
  assert.equal(check(data).status, 0, 'the rebuilt store is healthy');

  const decided = (status: string) => (json(['relationships', '--data', data, '--status', status]) as RelationshipView[]);
  const [confirmed] = decided('confirmed');
  const [rejected] = decided('rejected');
  assert.deepEqual(decided('confirmed').map(pairOf), [pair(CONFIRMED)]);
  assert.deepEqual(decided('rejected').map(pairOf), [pair(REJECTED)]);
  assert.deepEqual([confirmed!.decided_by, confirmed!.note, rejected!.decided_by, rejected!.note], ['ana', 'invoice checked', 'ana', 'different supplier']);

  // The history came along, older than what the rebuild added.
  const store = openStore({ dataDir: data, workspace: WORKSPACE });
  t.after(() => store.close());
  return store.relationshipHistory(confirmed!.id).then((history) => {
    const kinds = history.map((event) => event.kind);
    assert.ok(kinds.indexOf('confirmed') >= 0 && kinds.indexOf('confirmed') < kinds.lastIndexOf('proposed'), kinds.join(', '));
    assert.equal(history.find((event) => event.kind === 'confirmed')!.actor, 'ana');
  });
});

test('index --rebuild keeps the review rule: a confirmation whose evidence changed meanwhile goes back to review', { skip, timeout: 5 * 60_000 }, (t) => {
  const root = tempDir(t);
  const data = copyStore(lexical, path.join(root, 'data'));
  const edited = path.join(root, 'folder');
  cpSync(folder, edited, { recursive: true });
  const finance = path.join(edited, CONFIRMED[0]!);
  // The budget review now gives another cost: the figures the person confirmed as contradicting are not the figures now.
  writeFileSync(finance, readFileSync(finance, 'utf8').replace('cost EUR 51,500', 'cost EUR 53,000'));
  const rebuilt = json(['index', edited, '--data', data, '--embedding-model', 'none', '--rebuild']);
  assert.equal(rebuilt.rebuild.relationships.returned_to_review, 1);
  const views = json(['relationships', '--data', data]) as (RelationshipView & { changed_since_decision: { decision: string; changes: string[] } | null })[];
  const formerly = views.find((view) => pairOf(view) === pair(CONFIRMED));
  assert.equal(formerly?.status, 'pending');
  assert.equal(formerly?.changed_since_decision?.decision, 'confirmed');
  assert.deepEqual(views.filter((view) => view.status === 'rejected').map(pairOf), [pair(REJECTED)], 'the rejection stays');
});

test('index --rebuild when the old store cannot be read at all: a working store, and it says the decisions were lost', { skip, timeout: 5 * 60_000 }, (t) => {
  const data = copyStore(lexical, path.join(tempDir(t), 'data'));
  damageHeader(path.join(data, 'relata.sqlite'));
  const rebuilt = json(['index', folder, '--data', data, '--embedding-model', 'none', '--rebuild']);
  assert.equal(rebuilt.rebuild.lost.length, 1);
  assert.match(rebuilt.rebuild.lost[0], /the whole store: file is not a database: every relationship decision, its history and every alias decision of workspace store-damage could not be read/);
  assert.equal(relata(['status', '--data', data]).status, 0);
  assert.deepEqual(json(['relationships', '--data', data, '--status', 'confirmed']), []);
  assert.ok(readdirSync(data).some((name) => name.startsWith('relata.sqlite.before-rebuild-')), 'the unreadable file is kept too');
});

test('index --rebuild refuses while another process has the store open, naming it, and sets nothing aside', { skip, timeout: 5 * 60_000 }, async (t) => {
  const data = copyStore(lexical, path.join(tempDir(t), 'data'));
  const database = path.join(data, 'relata.sqlite');
  // A reader, as the folder's language server is between requests: its connection holds the store open.
  const script = [
    "const db = new (require('better-sqlite3'))(process.argv[1], { readonly: true });",
    "db.prepare('SELECT COUNT(*) FROM items').get();",
    "process.stdout.write('open\\n');",
    "process.stdin.once('data', () => { db.close(); process.exit(0); });",
  ].join(' ');
  const reader = spawn(process.execPath, ['-e', script, database], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => reader.once('exit', resolve));
  t.after(async () => {
    if (reader.exitCode === null) reader.stdin.write('close\n');
    await exited;
  });
  await new Promise((resolve) => reader.stdout.once('data', resolve));

  const refused = relata(['index', folder, '--data', data, '--embedding-model', 'none', '--rebuild']);
  assert.equal(refused.status, 1, refused.stderr);
  assert.ok(refused.stderr.includes(`${database} is open in process ${reader.pid} (`), refused.stderr);
  assert.match(refused.stderr, /before rebuilding/);
  assert.deepEqual(readdirSync(data).filter((name) => name.includes('before-rebuild')), [], 'nothing was set aside');
});
