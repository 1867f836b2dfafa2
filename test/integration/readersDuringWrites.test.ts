// Readers never wait for writers: while another process holds the store's write lock (with or
// without its pages already in the write-ahead log), every read command of the built CLI answers,
// and answers before the lock is let go; the same commands work on a data directory they may not
// write. A writer that meets the lock waits its bound, then fails naming the store and the process
// holding it. A reader writes nothing: no migration, no lexical index, no vector graph.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { workspaceIndexNames } from '../../server/src/store/sqlite/workspaceIndexes.ts';
import { BUSY_WAIT_MS, StoreBusyError } from '../../server/src/store/storeBusy.ts';
import { commitAndCrash, holdWriteLock } from '../support/holdWriteLock.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const needsBuild = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';
const WORKSPACE = 'readers';
/** The unprivileged user a root test runs the readers as (root ignores file modes). */
const NOBODY = 65534;

const DOCUMENTS = {
  'supplier.md': '# Supplier review\n\nExample Ltd supplied 40 pumps in March 2024 for 12,000 EUR. Dr. Carla Mendes signed the review.\n',
  'audit.md': '# Audit\n\nThe audit found that Example Ltd supplied 40 pumps for 12,000 EUR. Carla Mendes approved the order.\n',
  'plan.md': '# Plan\n\nReplace the pumps at the north site before winter.\n',
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI as its own process; `asNobody` runs it as an unprivileged user (setpriv) when this test is root. */
function relata(args: string[], options: { asNobody?: boolean } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, RELATA_WORKSPACE: WORKSPACE };
  for (const name of Object.keys(env)) if (name.startsWith('RELATA_LLM_')) delete env[name];
  const command = [process.execPath, CLI, ...args];
  const [file, ...rest] =
    options.asNobody && process.getuid?.() === 0
      ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...command]
      : command;
  return new Promise((resolve) => {
    const child = spawn(file!, rest, { env, cwd: REPO_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface IndexedStore {
  folder: string;
  dataDir: string;
  database: string;
}

async function indexedStore(t: TestContext): Promise<IndexedStore> {
  const root = tempDir(t, 'relata-readers-');
  const folder = writeFiles(path.join(root, 'folder'), DOCUMENTS);
  const dataDir = path.join(root, 'data');
  const run = await relata(['index', folder, '--data', dataDir, '--embedding-model', 'none', '--json']);
  assert.equal(run.code, 0, run.stderr);
  return { folder, dataDir, database: path.join(dataDir, 'relata.sqlite') };
}

/** Every command that only reads, with what its output must show for the three documents. */
function readCommands({ folder, dataDir }: IndexedStore): [string, string[], (json: any) => void][] {
  const data = ['--data', dataDir, '--json'];
  return [
    ['status', ['status', ...data], (json) => assert.equal(json.items.indexed, 3)],
    ['items', ['items', ...data], (json) => assert.equal(json.items.length, 3)],
    ['item', ['item', path.join(folder, 'plan.md'), ...data], (json) => assert.equal(json.path, 'plan.md')],
    ['search', ['search', 'pumps', '--embedding-model', 'none', ...data], (json) => assert.ok(json.results.length >= 3)],
    ['relationships', ['relationships', ...data], (json) => assert.ok(Array.isArray(json) && json.length > 0, 'the shared supplier is proposed')],
    ['entities', ['entities', ...data], (json) => assert.ok(JSON.stringify(json).includes('Example Ltd'))],
    ['aliases', ['aliases', ...data], (json) => assert.ok(Array.isArray(json))],
    ['ask', ['ask', 'who supplied the pumps', '--embedding-model', 'none', ...data], (json) => assert.ok(json.sources.length > 0)],
  ];
}

async function runReads(store: IndexedStore, options: { asNobody?: boolean } = {}): Promise<void> {
  for (const [name, args, check] of readCommands(store)) {
    const run = await relata(args, options);
    assert.equal(run.code, 0, `relata ${name}: ${run.stderr}`);
    check(JSON.parse(run.stdout));
  }
}

test('every read command answers while another process holds the write lock, before it lets go', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const store = await indexedStore(t);
  const lock = await holdWriteLock(store.database);
  try {
    await runReads(store);
    assert.ok(lock.holding(), 'the lock was still held when the last reader had answered');
  } finally {
    assert.equal(await lock.release(), 0);
  }
});

test('every read command answers while the held transaction has already written pages to the log', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const store = await indexedStore(t);
  const lock = await holdWriteLock(store.database, 'pending-wal');
  try {
    assert.ok(lock.heldWalBytes > lock.committedWalBytes, `uncommitted pages are in the log (${lock.committedWalBytes} → ${lock.heldWalBytes} bytes)`);
    await runReads(store);
    assert.ok(lock.holding(), 'the lock was still held when the last reader had answered');
  } finally {
    assert.equal(await lock.release(), 0);
  }
});

test('a writer that meets the held lock gives up after its bound, naming the store and the process holding it', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const store = await indexedStore(t);
  const [proposal] = JSON.parse((await relata(['relationships', '--data', store.dataDir, '--json'])).stdout) as { id: string }[];
  const lock = await holdWriteLock(store.database);
  try {
    const cli = relata(['reject', proposal!.id, '--data', store.dataDir]);
    // The same failure in-process, meanwhile: the error a watcher or the language server recognises.
    const writer = openSqliteStore({ dataDir: store.dataDir, workspace: WORKSPACE });
    const failure = await writer.setMeta('probe', 'blocked').then(
      () => assert.fail('the write went through a held lock'),
      (error: unknown) => error,
    );
    await writer.close();
    assert.ok(failure instanceof StoreBusyError, String(failure));
    assert.equal(failure.code, 'RELATA_STORE_BUSY');
    assert.equal(failure.file, store.database);
    assert.equal((failure.cause as { code?: string }).code, 'SQLITE_BUSY', 'SQLite’s own code stays on the cause');
    assert.match(failure.holder ?? '', new RegExp(`^process ${lock.pid} `));

    const run = await cli;
    assert.ok(lock.holding(), 'the writer failed while the lock was held, not after');
    assert.equal(run.code, 1, run.stdout);
    assert.ok(run.stderr.includes(store.database), run.stderr);
    assert.match(run.stderr, new RegExp(`process ${lock.pid} \\(.*writeLockProcess\\.ts`));
    assert.match(run.stderr, new RegExp(`after ${BUSY_WAIT_MS / 1000} s`));
    assert.doesNotMatch(run.stderr, /database is locked/);
  } finally {
    assert.equal(await lock.release(), 0);
  }
  const after = await relata(['reject', proposal!.id, '--data', store.dataDir, '--json']);
  assert.equal(after.code, 0, after.stderr);
  assert.equal(JSON.parse(after.stdout).status, 'rejected');
});

/** Why this process cannot test permissions, or null when it can (as itself, or as nobody through setpriv). */
function cannotDropPrivileges(): string | null {
  if (process.getuid?.() !== 0) return null;
  const setpriv = spawnSync('setpriv', ['--version']);
  return setpriv.status === 0 ? null : 'running as root without setpriv: root ignores file modes, so a read-only directory cannot be tested';
}

/**
 * Makes the data directory and everything in it read-only for the user the readers run as (owned
 * by nobody when this test is root; its parents traversable), runs `body`, then restores the modes.
 */
async function readOnly(dataDir: string, body: () => Promise<void>): Promise<void> {
  const entries = [dataDir, ...readdirSync(dataDir, { recursive: true, withFileTypes: true }).map((entry) => path.join(entry.parentPath, entry.name))];
  if (process.getuid?.() === 0) {
    chmodSync(path.dirname(dataDir), 0o755);
    for (const entry of entries) chownSync(entry, NOBODY, NOBODY);
  }
  const set = (dirMode: number, fileMode: number) => {
    for (const entry of entries) chmodSync(entry, statSync(entry).isDirectory() ? dirMode : fileMode);
  };
  set(0o500, 0o400);
  try {
    await body();
  } finally {
    set(0o700, 0o600);
  }
}

test('on a data directory they may not write, a store closed cleanly is read by every read command', { skip: needsBuild || cannotDropPrivileges() || false, timeout: 120_000 }, async (t) => {
  const store = await indexedStore(t);
  assert.deepEqual(readdirSync(store.dataDir).filter((name) => name.startsWith('relata.sqlite')), ['relata.sqlite'], 'no -wal or -shm file is left to read');
  await readOnly(store.dataDir, async () => {
    await runReads(store, { asNobody: true });
    assert.deepEqual(readdirSync(store.dataDir).filter((name) => name.startsWith('relata.sqlite')), ['relata.sqlite'], 'nothing was created');
  });
});

test('on a data directory they may not write, a crashed writer’s committed change is read from its log', { skip: needsBuild || cannotDropPrivileges() || false, timeout: 120_000 }, async (t) => {
  const store = await indexedStore(t);
  const title = 'Plan, as committed by a writer that then crashed';
  await commitAndCrash(store.database, 'plan.md', title);
  assert.ok(statSync(`${store.database}-wal`).size > 0, 'the change is in the log only');
  await readOnly(store.dataDir, async () => {
    await runReads(store, { asNobody: true });
    const items = await relata(['items', '--data', store.dataDir, '--json'], { asNobody: true });
    assert.equal(items.code, 0, items.stderr);
    const plan = (JSON.parse(items.stdout).items as { path: string; title: string }[]).find((item) => item.path === 'plan.md');
    assert.equal(plan?.title, title);
  });
});

/** A store as an older Relata left it: the newest migration not yet recorded (its steps are idempotent). */
function rollBackNewestMigration(database: string): number {
  const db = new Database(database);
  const current = schemaOf(db);
  db.prepare('DELETE FROM schema_migrations WHERE version = ?').run(current);
  db.close();
  return current;
}

function schemaOf(db: Database.Database): number {
  return (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v;
}

function schemaOfFile(database: string): number {
  const db = new Database(database, { readonly: true });
  try {
    return schemaOf(db);
  } finally {
    db.close();
  }
}

test('the first read after an upgrade migrates the store once, when it may be written', { skip: needsBuild, timeout: 60_000 }, async (t) => {
  const store = await indexedStore(t);
  const current = rollBackNewestMigration(store.database);
  const run = await relata(['status', '--data', store.dataDir]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(schemaOfFile(store.database), current, 'the reader had the store upgraded');
});

test('a reader that may not write refuses a store from an older Relata with the command that upgrades it, and leaves it as it was', { skip: needsBuild || cannotDropPrivileges() || false, timeout: 60_000 }, async (t) => {
  const store = await indexedStore(t);
  const current = rollBackNewestMigration(store.database);
  await readOnly(store.dataDir, async () => {
    const run = await relata(['status', '--data', store.dataDir], { asNobody: true });
    assert.equal(run.code, 1);
    assert.ok(run.stderr.includes(store.database), run.stderr);
    assert.match(run.stderr, new RegExp(`older Relata \\(schema ${current - 1}.*run \`relata index\``));
  });
  assert.equal(schemaOfFile(store.database), current - 1, 'the reader did not migrate');
});

test('without the workspace’s lexical index, search answers from its other paths and says to run relata index, creating nothing', { skip: needsBuild, timeout: 60_000 }, async (t) => {
  const store = await indexedStore(t);
  const names = workspaceIndexNames(WORKSPACE);
  const db = new Database(store.database);
  for (const table of [names.items, names.chunks]) db.exec(`DROP TABLE ${table}`);
  db.close();

  const run = await relata(['search', 'plan', '--embedding-model', 'none', '--data', store.dataDir, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const response = JSON.parse(run.stdout) as { results: { path: string }[]; unavailable_paths: { path: string; reason: string }[] };
  for (const path of ['lexical_items', 'lexical_chunks']) {
    assert.match(response.unavailable_paths.find((unavailable) => unavailable.path === path)?.reason ?? '', /run `relata index`/, path);
  }
  assert.ok(response.results.some((result) => result.path === 'plan.md'), 'the title path still finds the plan');
  const after = new Database(store.database, { readonly: true });
  const tables = after.prepare("SELECT name FROM sqlite_master WHERE name IN (?, ?)").all(names.items, names.chunks);
  after.close();
  assert.deepEqual(tables, [], 'the reader built no index');
});

test('a store opened to read searches its vectors through a graph built in memory, and saves no graph', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), DOCUMENTS);
  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder, dataDir, workspace: WORKSPACE, embedding: { kind: 'none' } });
  await index.index();
  await index.close();
  const model = { id: 'probe', dims: 4, version: '1', maxTokens: 16 };
  const writer = openSqliteStore({ dataDir, workspace: WORKSPACE });
  await writer.registerModel(model);
  const items = await writer.listItems();
  for (const [position, item] of items.entries()) {
    const chunks = await writer.chunksWithoutVectors(item.id, model.id);
    const vector = new Float32Array(4).fill(0.1);
    vector[position] = 1;
    await writer.storeVectors(item.id, item.contentHash!, model, chunks.map((chunk) => ({ chunkId: chunk.id, window: 0, start: 0, end: 1, vector })));
  }
  await writer.close();
  const graphs = path.join(dataDir, 'vector-index');
  assert.equal(existsSync(graphs), false, 'no graph before the first search');

  const log: string[] = [];
  const reader = openSqliteStore({ dataDir, workspace: WORKSPACE, access: 'read', vectorIndex: { exactBelow: 1, log: (message) => log.push(message) } });
  const hits = await reader.searchVectors(model.id, new Float32Array([0, 1, 0, 0]), 3);
  await reader.close();
  assert.match(log.join('\n'), /building it from the store/, 'the approximate path ran');
  assert.equal(hits.length, 3);
  assert.equal(hits[0]!.itemId, items[1]!.id);
  assert.equal(existsSync(graphs), false, 'the reader saved no graph');
  const db = new Database(path.join(dataDir, 'relata.sqlite'), { readonly: true });
  assert.equal((db.prepare('SELECT COUNT(*) AS n FROM vector_indexes').get() as { n: number }).n, 0, 'nor recorded one');
  db.close();

  // The same search through a writer does save its graph: what the reader is kept from doing.
  const saving = openSqliteStore({ dataDir, workspace: WORKSPACE, vectorIndex: { exactBelow: 1, log: () => undefined } });
  await saving.searchVectors(model.id, new Float32Array([0, 1, 0, 0]), 3);
  await saving.close();
  assert.ok(readdirSync(graphs, { recursive: true }).some((name) => String(name).endsWith('.hnsw')));
});
