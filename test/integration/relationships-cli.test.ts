// The review loop through the command line: list proposals as JSON in the documented shape,
// confirm and reject by id, reprocess, clear errors for bad input, and a real local model's
// opinion as one weak signal.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';
import { writeTinyGguf } from '../support/tinyGguf.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const DEMO = path.join(REPO_ROOT, 'docs', 'demo');

function run(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, RELATA_WORKSPACE: 'relationships-cli' } });
}

function json(args: string[]) {
  const result = run([...args, '--json']);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test('relata relationships, confirm, reject and reprocess', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
  timeout: 5 * 60_000,
}, (t) => {
  const data = tempDir(t);
  json(['index', DEMO, '--data', data, '--embedding-model', 'none']);
  const all = json(['relationships', '--data', data]);
  assert.ok(all.length > 0);
  for (const view of all) {
    assert.deepEqual(Object.keys(view).sort(), [
      'changed_since_decision', 'created_at', 'decided_at', 'decided_by', 'from', 'id', 'near_duplicate', 'note', 'produced_by', 'score', 'score_version',
      'signals', 'status', 'to', 'type', 'updated_at',
    ]);
    assert.deepEqual(Object.keys(view.from).sort(), ['item_id', 'path', 'title']);
    for (const signal of view.signals) assert.deepEqual(Object.keys(signal).sort(), ['detail', 'strength', 'type', 'value', 'weight']);
  }

  const cost = all.find((view: { type: string }) => view.type === 'contradicts');
  assert.ok(cost, 'the cost contradiction is found without vectors too');
  const ofItem = json(['relationships', '--data', data, '--item', path.join(DEMO, 'finance/q2-2025-capital-budget-review.md')]);
  assert.ok(ofItem.some((view: { id: string }) => view.id === cost.id));
  assert.ok(ofItem.every((view: { from: { path: string }; to: { path: string } }) => [view.from.path, view.to.path].includes('finance/q2-2025-capital-budget-review.md')));

  const confirmed = json(['confirm', cost.id, '--data', data, '--note', 'invoice checked', '--by', 'ana']);
  assert.equal(confirmed.status, 'confirmed');
  assert.equal(confirmed.score, 1);
  assert.equal(confirmed.note, 'invoice checked');
  assert.deepEqual(json(['relationships', '--data', data, '--status', 'confirmed']).map((view: { id: string }) => view.id), [cost.id]);

  const other = all.find((view: { id: string }) => view.id !== cost.id);
  const rejected = json(['reject', other.id, '--data', data]);
  assert.equal(rejected.status, 'rejected');
  assert.equal(rejected.score, 0);
  assert.equal(rejected.signals.at(-1).type, 'user_rejection');

  const status = json(['status', '--data', data]);
  assert.deepEqual(status.relationships, { pending: all.length - 2, confirmed: 1, rejected: 1 });

  const reprocessed = run(['reprocess', '--all', '--data', data, '--embedding-model', 'none']);
  assert.equal(reprocessed.status, 0, reprocessed.stderr);
  assert.deepEqual(json(['relationships', '--data', data, '--status', 'rejected']).map((view: { id: string }) => view.id), [other.id]);
  assert.equal(json(['relationships', '--data', data]).length, all.length, 'reprocessing neither adds nor removes');

  const readable = run(['relationships', '--data', data, '--status', 'confirmed']);
  assert.match(readable.stdout, /CONTRADICTS/);
  assert.match(readable.stdout, /not a probability/);
  assert.match(readable.stdout, /different figures +cost: 1\.00 × 0\.22 = 0\.220/);

  const scoring = json(['scoring']);
  assert.equal(scoring.score_version, 'relationship-score-v2');
  assert.equal(scoring.weights.model_classification, 0.15);
  assert.equal(scoring.weights.document_link, 0.3);
  const v1 = json(['scoring', '--version', 'v1']);
  assert.equal(v1.score_version, 'relationship-score-v1', 'v1 is still printable');
  assert.equal(v1.weights.document_link, undefined);
  assert.equal(run(['scoring', '--version', 'v7']).status, 2);

  const badStatus = run(['relationships', '--data', data, '--status', 'maybe']);
  assert.equal(badStatus.status, 2);
  assert.match(badStatus.stderr, /--status must be one of pending, confirmed, rejected/);
  const unknown = run(['confirm', 'rel_0000000000000000', '--data', data]);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /no relationship rel_0000000000000000/);
  assert.equal(run(['reprocess', '--data', data]).status, 2, 'reprocess needs paths or --all');
});

test('relata index --classify asks a real local model about candidate pairs and survives its nonsense', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
  timeout: 5 * 60_000,
}, (t) => {
  const data = tempDir(t);
  const noModel = spawnSync(process.execPath, [CLI, 'index', DEMO, '--data', data, '--embedding-model', 'none', '--classify'], {
    encoding: 'utf8',
    env: { ...process.env, RELATA_WORKSPACE: 'classify-cli', RELATA_LLM_MODEL: '', RELATA_LLM_ENDPOINT: '' },
  });
  assert.equal(noModel.status, 2);
  assert.match(noModel.stderr, /--classify needs a language model/);

  // A tiny llama-architecture GGUF with random weights (no model can be downloaded here): real
  // llama.cpp, real constrained generation, output that is nonsense by construction.
  const modelPath = path.join(tempDir(t), 'tiny.gguf');
  writeTinyGguf(modelPath);
  const indexed = run(['index', DEMO, '--data', data, '--embedding-model', 'none', '--classify', '--model', modelPath, '--json']);
  assert.equal(indexed.status, 0, indexed.stderr);
  const views = json(['relationships', '--data', data]);
  assert.ok(views.some((view: { type: string }) => view.type === 'contradicts'), 'deterministic evidence still decides the cost pair');
  for (const view of views) {
    assert.ok(!['supersedes', 'same_entity_as'].includes(view.type));
    for (const signal of view.signals.filter((s: { type: string }) => s.type === 'model_classification')) {
      assert.equal(signal.weight, 0.15);
      assert.ok(signal.strength >= 0 && signal.strength <= 1);
    }
  }
});
