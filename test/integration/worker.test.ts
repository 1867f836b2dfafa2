// `relata worker` as its own process, over a SQLite store another process ingested into: it drains
// the stages after ingest without the folder, two workers share the queue, a killed worker's jobs
// are finished by another once their leases expire, and ingest is never a worker's. The built
// dist/cli.js, real files, real processes.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { openStore } from '../../server/src/store/index.ts';
import { DATABASE_FILE } from '../../server/src/store/sqlite/sqliteStore.ts';
import { eventually } from '../support/eventually.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const skip = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';
const WORKSPACE = 'worker-test';
const AFTER_INGEST = ['parse', 'chunk', 'embed', 'extract', 'discover'] as const;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Started {
  pid: number;
  stderr(): string;
  exited: Promise<Run>;
  kill(signal: NodeJS.Signals): void;
}

function start(t: TestContext, args: string[], env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, RELATA_WORKSPACE: WORKSPACE, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Run>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { pid: child.pid!, stderr: () => stderr, exited, kill: (signal) => child.kill(signal) };
}

const relata = (t: TestContext, args: string[], env?: NodeJS.ProcessEnv) => start(t, args, env).exited;

/** A folder of reports that share words (so search and discovery have something to find), each different. */
function reports(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let n = 0; n < count; n += 1) {
    const paragraphs = Array.from(
      { length: 12 },
      (_, p) =>
        `Inspection ${n}.${p} of gantry crane GC${n % 7} found the hydraulic pump ${p % 3 === 0 ? 'leaking' : 'sound'}. ` +
        `Harbour Engineering Ltd replaced seal ${n * 13 + p} on ${1 + (p % 28)} March 2025 at a cost of ${1000 + n * 10 + p} EUR.`,
    );
    files[`reports/report-${String(n).padStart(3, '0')}.md`] = `# Crane report ${n}\n\n${paragraphs.join('\n\n')}\n`;
  }
  return files;
}

interface JobRow {
  id: number;
  stage: string;
  subject: string;
  status: string;
  owner: string | null;
  attempts: number;
}

function jobs(dataDir: string): JobRow[] {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return db.prepare('SELECT id, stage, subject, status, owner, attempts FROM jobs WHERE workspace = ? ORDER BY id').all(WORKSPACE) as JobRow[];
  } finally {
    db.close();
  }
}

const count = (rows: readonly JobRow[], stage: string, status: string) => rows.filter((row) => row.stage === stage && row.status === status).length;

async function ingestOnly(t: TestContext, files: Record<string, string>): Promise<{ folder: string; data: string }> {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), files);
  const data = path.join(root, 'data');
  const run = await relata(t, ['index', folder, '--ingest-only', '--data', data, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { files: { status: string }[]; queued_for_workers: number };
  assert.ok(report.files.every((file) => file.status === 'pending'), 'nothing is parsed by an ingest-only run');
  assert.equal(report.queued_for_workers, Object.keys(files).length, 'one parse job per file, waiting for workers');
  return { folder, data };
}

test('ingest-only then a worker: the worker parses, chunks, embeds, extracts and discovers from the stored bytes alone, and search finds the text', { skip, timeout: 5 * 60_000 }, async (t) => {
  const { folder, data } = await ingestOnly(t, {
    'crane.md': '# Gantry crane GC2\n\nThe hoist brake of gantry crane GC2 was relined by Harbour Engineering Ltd on 3 March 2025.\n',
    'pump.md': '# Pump log\n\nHarbour Engineering Ltd replaced the hydraulic pump seal of gantry crane GC2 on 4 March 2025.\n',
    'notes.txt': 'Quarterly notes: the quay lighting was replaced.\n',
  });
  const before = jobs(data);
  assert.equal(count(before, 'ingest', 'done'), 3);
  assert.equal(count(before, 'parse', 'queued'), 3);
  // The folder is gone from where it was: a worker that read it would fail or find nothing.
  renameSync(folder, `${folder}-elsewhere`);

  const worker = await relata(t, ['worker', '--data', data, '--until-idle', '--json']);
  assert.equal(worker.code, 0, worker.stderr);
  const summary = JSON.parse(worker.stdout) as { done: Record<string, number>; failed: number };
  assert.deepEqual(summary.done, { parse: 3, chunk: 3, embed: 3, extract: 3, discover: 3 });
  assert.equal(summary.failed, 0);
  assert.match(worker.stderr, /done 3 parse, 3 chunk, 3 embed, 3 extract, 3 discover/);
  const after = jobs(data);
  assert.deepEqual(after.filter((job) => job.status !== 'done'), [], 'every job done');

  const status = JSON.parse((await relata(t, ['status', '--data', data, '--json'])).stdout) as {
    items: Record<string, number>; embedding_models: { chunks: number }[]; queue_depth: number;
  };
  assert.deepEqual(status.items, { indexed: 3 });
  assert.equal(status.queue_depth, 0);
  assert.equal(status.embedding_models[0]?.chunks, 3, 'the default model embedded every passage');
  const search = await relata(t, ['search', 'hoist brake relined', '--data', data, '--json']);
  assert.equal(search.code, 0, search.stderr);
  const results = (JSON.parse(search.stdout) as { results: { path: string }[] }).results;
  assert.equal(results[0]?.path, 'crane.md');
});

test('two workers at once on one store split the jobs between them and finish every one', { skip, timeout: 5 * 60_000 }, async (t) => {
  const files = reports(200);
  const { data } = await ingestOnly(t, files);
  const args = ['worker', '--data', data, '--until-idle', '--embedding-model', 'none', '--json'];
  const [first, second] = await Promise.all([relata(t, args), relata(t, args)]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(second.code, 0, second.stderr);
  const done = [first, second].map((run) => (JSON.parse(run.stdout) as { done: Record<'parse' | 'chunk' | 'embed' | 'extract' | 'discover', number> }).done);
  for (const stage of ['parse', 'chunk'] as const) {
    assert.equal(done[0]![stage] + done[1]![stage], 200, `each ${stage} job ran exactly once between the two`);
  }
  // Extraction may run twice for an item that a worker's catch-up queued again at the very moment
  // the other claimed it (harmless: the stage replaces its results); never less than once.
  assert.ok(done[0]!.extract + done[1]!.extract >= 200, `every extract job ran: ${JSON.stringify(done)}`);
  for (const [n, worker] of done.entries()) {
    assert.ok(Object.values(worker).reduce((sum, jobsDone) => sum + jobsDone, 0) > 0, `worker ${n + 1} ran jobs too: ${JSON.stringify(done)}`);
  }
  const after = jobs(data);
  assert.deepEqual(after.filter((job) => job.status !== 'done'), [], 'every job done');
  for (const stage of AFTER_INGEST) assert.equal(count(after, stage, 'done'), 200, `${stage}: one job per file`);
});

test('a worker killed mid-run leaves its leases, and another worker finishes those jobs once the leases expire', { skip, timeout: 5 * 60_000 }, async (t) => {
  const { data } = await ingestOnly(t, reports(150));
  const lease = { RELATA_LEASE_MS: '3000' };
  const doomed = start(t, ['worker', '--data', data, '--embedding-model', 'none'], lease);
  let held: JobRow[] = [];
  await eventually(async () => {
    const rows = jobs(data);
    held = rows.filter((job) => job.status === 'leased');
    return held.length > 0 && rows.some((job) => job.status === 'done' && job.stage !== 'ingest');
  }, 'the first worker holds a lease after finishing some jobs', 120_000);
  doomed.kill('SIGKILL');
  await doomed.exited;
  held = jobs(data).filter((job) => job.status === 'leased');
  assert.ok(held.length > 0, 'the killed worker left leased jobs behind');
  // As a worker on another machine would leave them: a dead process on this machine is recognised
  // and its leases handed back at once (pipeline/owner.ts), which is not what is under test here.
  const db = new Database(path.join(data, DATABASE_FILE));
  db.prepare("UPDATE jobs SET owner = 'another-host/1/killed' WHERE workspace = ? AND status = 'leased'").run(WORKSPACE);
  db.close();

  const rescuer = await relata(t, ['worker', '--data', data, '--until-idle', '--embedding-model', 'none'], lease);
  assert.equal(rescuer.code, 0, rescuer.stderr);
  const after = jobs(data);
  assert.deepEqual(after.filter((job) => job.status !== 'done'), [], 'every job done');
  for (const job of held) {
    const now = after.find((row) => row.id === job.id)!;
    // Claimed again after its lease expired: the killed worker's attempt passes to the rescuer, so
    // a kill costs the file no attempt (docs/ARCHITECTURE.md, "Attempts and lost leases").
    assert.equal(now.attempts, job.attempts, `${job.stage} ${job.subject}: the kill cost it no attempt`);
  }
  for (const stage of ['parse', 'chunk', 'extract', 'discover']) assert.equal(count(after, stage, 'done'), 150, stage);
});

test('a worker left running waits for work, takes what an indexer queues later, and stops on SIGTERM with its totals', { skip, timeout: 5 * 60_000 }, async (t) => {
  const { folder, data } = await ingestOnly(t, { 'a.md': '# A\n\nThe first note.\n' });
  const worker = start(t, ['worker', '--data', data, '--embedding-model', 'none', '--json']);
  await eventually(async () => worker.stderr().includes('queue empty: waiting for jobs'), `the worker falls idle (it said: ${worker.stderr()})`, 120_000);
  writeFiles(folder, { 'b.md': '# B\n\nThe second note, about the quay lighting.\n' });
  assert.equal((await relata(t, ['index', folder, '--ingest-only', '--data', data])).code, 0);
  await eventually(async () => count(jobs(data), 'discover', 'done') === 2, 'the idle worker picks up the new file and discovers it', 120_000);
  worker.kill('SIGTERM');
  const stopped = await worker.exited;
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.deepEqual((JSON.parse(stopped.stdout) as { done: Record<string, number> }).done, { parse: 2, chunk: 2, embed: 2, extract: 2, discover: 2 });
  assert.match(stopped.stderr, /stopping: finishing the running jobs/);
});

test('a worker never claims an ingest job: it stops when only ingest is left, which the indexer then runs', { skip, timeout: 5 * 60_000 }, async (t) => {
  const { folder, data } = await ingestOnly(t, { 'a.md': '# A\n\nThe first note.\n' });
  writeFiles(folder, { 'b.md': '# B\n\nThe second note.\n' });
  const store = openStore({ dataDir: data, workspace: WORKSPACE });
  await store.enqueue('ingest', 'b.md');
  await store.close();

  const worker = await relata(t, ['worker', '--data', data, '--until-idle', '--embedding-model', 'none', '--json']);
  assert.equal(worker.code, 0, worker.stderr);
  const ingestJob = jobs(data).find((job) => job.stage === 'ingest' && job.subject === 'b.md')!;
  assert.deepEqual([ingestJob.status, ingestJob.attempts], ['queued', 0], 'left queued, never attempted');
  assert.equal((JSON.parse(worker.stdout) as { done: Record<string, number> }).done.parse, 1, 'only a.md was parsed');

  const index = await relata(t, ['index', folder, '--ingest-only', '--data', data]);
  assert.equal(index.code, 0, index.stderr);
  const after = jobs(data);
  assert.equal(count(after, 'ingest', 'done'), 2);
  assert.equal(count(after, 'parse', 'queued'), 1, 'b.md waits for a worker');
});

test('a MongoDB store that cannot be reached is one line naming it, exit 1, no stack trace and no password', { skip, timeout: 2 * 60_000 }, async (t) => {
  // Port 9 (discard) on this machine: nothing listens there.
  const store = ['--store', 'mongodb://relata:s3cret@127.0.0.1:9/relata', '--qdrant', 'http://127.0.0.1:9', '--folder', 'docs-0123456789ab'];
  for (const args of [['worker', ...store, '--until-idle'], ['status', ...store], ['search', 'crane', ...store, '--embedding-model', 'none']]) {
    const run = await relata(t, args);
    const output = `${run.stdout}${run.stderr}`;
    assert.equal(run.code, 1, `${args[0]}: ${output}`);
    assert.match(output, /MongoDB/, `${args[0]} names the store`);
    assert.doesNotMatch(output, /\n\s+at /, `${args[0]} prints no stack trace`);
    assert.ok(!output.includes('s3cret'), `${args[0]} prints no password`);
    assert.equal(run.stderr.trim().split('\n').length <= 1, true, `${args[0]}: one line on stderr: ${run.stderr}`);
  }
});

test('relata check says it reads SQLite stores only when given a MongoDB store, as a usage error', { skip }, async (t) => {
  const run = await relata(t, ['check', '--store', 'mongodb://127.0.0.1:9/relata', '--qdrant', 'http://127.0.0.1:9', '--folder', 'docs-0123456789ab']);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /relata check reads a SQLite store's file.*MongoDB \+ Qdrant store has none of them here/);
});
