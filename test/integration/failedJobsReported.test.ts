// Damage is never reported as success, and never costs more than it must. A store indexed by the
// real CLI (default embedding model) is copied per test and pages of one table are overwritten
// with random bytes (test/support/storeDamage.ts): `reprocess` and `index` that meet the damage
// list the failed jobs and exit 1, while a file that fails for its own reasons still does not
// fail the run; a search, an answer and the language server's search whose vector table (or
// passage index) is damaged answer from the other paths and name the one that was unavailable.

import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import { AskRequest, SearchRequest } from '../../shared/protocol.ts';
import type { AnswerResult, SearchResponse } from '../../shared/types.ts';
import { defaultDataDir } from '../../server/src/store/dataDir.ts';
import { damageTablePages } from '../support/storeDamage.ts';
import { CLI, needsBuild, startServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const WORKSPACE = 'failed-jobs-test';
/** The sqlite-vec table holding the default model's 512-dimension vectors: what exact search reads. */
const VECTOR_TABLE = 'vec_f32_512_vector_chunks00';
const FILES = {
  'incident.md': '# Forklift collision in bay 4\n\nA reach truck struck the racking in bay 4 on 14 March 2025. Nobody was hurt.\n',
  'crane.md': '# Gantry crane GC-2\n\nExample Ltd refurbished the gantry crane in May 2025 for EUR 42,000.\n',
  'notes/call.txt': 'Call with Example Ltd about the crane invoice and the forklift training.\n',
  'broken.json': '{"asset": "GC-2", "cost": ',
};

let root: string;
let template: { folder: string; data: string };

function relata(args: string[]) {
  const environment: NodeJS.ProcessEnv = { ...process.env, RELATA_WORKSPACE: WORKSPACE };
  for (const name of ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT', 'RELATA_EMBEDDING_MODEL']) delete environment[name];
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: environment, timeout: 180_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

before(() => {
  if (needsBuild) return;
  root = mkdtempSync(path.join(tmpdir(), 'relata-failedJobs-'));
  template = { folder: writeFiles(path.join(root, 'folder'), FILES), data: path.join(root, 'data') };
  const index = relata(['index', template.folder, '--data', template.data, '--json']);
  assert.equal(index.code, 0, `a file that fails for its own reasons (broken.json) does not fail the run: ${index.stderr}`);
  const report = JSON.parse(index.stdout);
  assert.equal(report.files.find((file: { path: string }) => file.path === 'broken.json').status, 'failed');
  assert.deepEqual(report.failed_jobs, [], 'a document that cannot be parsed fails its item, not a job of the run');
});

after(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A copy of the indexed folder and its store, with every page of the matching tables damaged (none for null). */
function damagedCopy(t: TestContext, tableGlob: string | null): { folder: string; data: string } {
  const copy = tempDir(t, 'relata-damaged-');
  const folder = path.join(copy, 'folder');
  const data = path.join(copy, 'data');
  cpSync(template.folder, folder, { recursive: true });
  cpSync(template.data, data, { recursive: true });
  // A store belongs to one folder; the copy's store is told it indexes the copy of the folder.
  const db = new Database(path.join(data, 'relata.sqlite'));
  db.prepare("UPDATE meta SET value = ? WHERE key = 'folder_root'").run(folder);
  db.close();
  if (tableGlob) assert.ok(damageTablePages(data, tableGlob) > 0);
  return { folder, data };
}

test('reprocess on an undamaged store exits 0 and reports no failed job', { skip: needsBuild, timeout: 180_000 }, (t) => {
  const copy = damagedCopy(t, null);
  const run = relata(['reprocess', '--all', '--data', copy.data, '--embedding-model', 'default', '--json']);
  assert.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  assert.equal(summary.failed, 0);
  assert.deepEqual(summary.failed_jobs, []);
});

test('reprocess on a store whose vector pages are damaged lists every failed job and exits 1', { skip: needsBuild, timeout: 180_000 }, (t) => {
  const copy = damagedCopy(t, 'vectors');
  const json = relata(['reprocess', '--all', '--data', copy.data, '--embedding-model', 'default', '--json']);
  assert.equal(json.code, 1, `exit 1, not success: ${json.stdout}\n${json.stderr}`);
  const summary = JSON.parse(json.stdout);
  assert.ok(summary.failed >= 3, `every item's discovery failed: ${summary.failed}`);
  assert.equal(summary.failed_jobs.length, summary.failed);
  for (const job of summary.failed_jobs) {
    assert.equal(job.stage, 'discover');
    assert.equal(job.store_fault, true, `${job.subject}: ${job.error}`);
    assert.match(job.error, /malformed|damaged/);
  }
  assert.ok(summary.failed_jobs.some((job: { subject: string }) => job.subject === 'crane.md'), 'a failed job names the item by its path');

  const text = relata(['reprocess', '--all', '--data', copy.data, '--embedding-model', 'default']);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^reprocess of every item did not finish: \d+ failed for good/m);
  assert.match(text.stdout, /^ {2}discover {2}crane\.md: discover failed: .*(malformed|damaged)/m);
  assert.doesNotMatch(text.stdout, /^reprocessed every item/m, 'no success line');
});

test('index that meets a damaged store exits 1 and names the job, once', { skip: needsBuild, timeout: 180_000 }, (t) => {
  const copy = damagedCopy(t, 'vectors');
  writeFileSync(path.join(copy.folder, 'new-note.txt'), 'A new note about the forklift and the crane inspection.\n');
  const json = relata(['index', copy.folder, '--data', copy.data, '--embedding-model', 'default', '--json']);
  assert.equal(json.code, 1, `${json.stdout}\n${json.stderr}`);
  assert.notEqual(json.stdout, '', `the report is printed: ${json.stderr}`);
  const report = JSON.parse(json.stdout);
  const failures = report.failed_jobs as { stage: string; subject: string; store_fault: boolean }[];
  assert.ok(failures.some((job) => job.subject === 'new-note.txt' && job.store_fault), JSON.stringify(failures));
  assert.equal(report.files.find((file: { path: string }) => file.path === 'broken.json').status, 'failed', 'the document failure is still reported as before');
});

test('a search whose vector table is damaged answers by words and says the vector path was unavailable', { skip: needsBuild, timeout: 180_000 }, (t) => {
  const copy = damagedCopy(t, VECTOR_TABLE);
  const json = relata(['search', 'forklift collision', '--data', copy.data, '--embedding-model', 'default', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const response = JSON.parse(json.stdout) as SearchResponse;
  assert.equal(response.results[0]?.path, 'incident.md', 'the lexical paths still find the document');
  assert.deepEqual(response.unavailable_paths.map((unavailable) => unavailable.path), ['vector']);
  assert.match(response.unavailable_paths[0]!.reason, /^it failed/);
  assert.ok(response.results.every((result) => result.contributions.vector === undefined));

  const text = relata(['search', 'forklift collision', '--data', copy.data, '--embedding-model', 'default']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^Unavailable: vector: it failed .*relata check/m);
  assert.match(text.stdout, /^1\. Forklift collision in bay 4$/m);
});

test('a damaged passage index costs only the passage path; the vector path still answers', { skip: needsBuild, timeout: 180_000 }, (t) => {
  const copy = damagedCopy(t, 'chunk_fts_*_data');
  const run = relata(['search', 'gantry crane refurbishment', '--data', copy.data, '--embedding-model', 'default', '--json']);
  assert.equal(run.code, 0, run.stderr);
  const response = JSON.parse(run.stdout) as SearchResponse;
  assert.deepEqual(response.unavailable_paths.map((unavailable) => unavailable.path), ['lexical_chunks']);
  assert.equal(response.results[0]?.path, 'crane.md');
  assert.ok(response.results[0]!.semantic_similarity !== null, 'vectors were read');
});

test('ask with the vector table damaged answers from the other paths and says which path it did without', { skip: needsBuild, timeout: 180_000 }, (t) => {
  const copy = damagedCopy(t, VECTOR_TABLE);
  const json = relata(['ask', 'What did the crane refurbishment cost?', '--data', copy.data, '--embedding-model', 'default', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const result = JSON.parse(json.stdout) as AnswerResult;
  assert.ok(result.sources.some((source) => source.path === 'crane.md'), 'the source is still retrieved');
  assert.deepEqual(result.unavailable_paths.map((unavailable) => unavailable.path), ['vector']);

  const text = relata(['ask', 'What did the crane refurbishment cost?', '--data', copy.data, '--embedding-model', 'default']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^- Retrieved without the vector search path: it failed/m);
});

test('the language server answers search and ask with the vector table damaged, naming the path', { skip: needsBuild, timeout: 180_000 }, async (t) => {
  const copy = damagedCopy(t, VECTOR_TABLE);
  // The server keeps a folder's store at <dataLocation>/<the default data directory's name>.
  const dataLocation = tempDir(t, 'relata-damaged-lsp-');
  renameSync(copy.data, path.join(dataLocation, path.basename(defaultDataDir(copy.folder))));
  const server = await startServer(t, {
    folder: copy.folder,
    workspace: WORKSPACE,
    settings: { dataLocation, embeddingModel: 'default' },
    unsetEnv: ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT', 'RELATA_EMBEDDING_MODEL'],
  });
  await server.watching(120_000);
  const search = await server.connection.sendRequest(SearchRequest.type, { query: 'forklift collision' });
  const response = search.folders[0]?.response;
  assert.ok(response, `search answered for the folder: ${search.folders[0]?.error}\n${server.stderr()}`);
  assert.equal(response.results[0]?.path, 'incident.md');
  assert.deepEqual(response.unavailable_paths.map((unavailable) => unavailable.path), ['vector']);

  const asked = await server.connection.sendRequest(AskRequest.type, { question: 'What did the crane refurbishment cost?' });
  assert.deepEqual(asked.result.unavailable_paths.map((unavailable) => unavailable.path), ['vector']);
  assert.equal(await server.shutdown(), 0);
});
