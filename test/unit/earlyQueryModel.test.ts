// The query model's thread, started by the `relata` executable before the command line loads
// (ranking/earlyQueryModel.ts): started only for a search or a question with the default model,
// adopted by the query embedder without losing what it said before, and never keeping a command
// that did not use it from exiting.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { adoptEarlyQueryModelThread, startQueryModelEarly, wantsQueryModel } from '../../server/src/ranking/earlyQueryModel.ts';
import { queryEmbedder } from '../../server/src/ranking/queryEmbedder.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

test('the thread is started for a search or a question with the default model, and only then', () => {
  const env = {};
  assert.equal(wantsQueryModel(['search', 'crane cost'], env), true);
  assert.equal(wantsQueryModel(['ask', 'what did it cost?', '--embedding-model', 'default'], env), true);
  assert.equal(wantsQueryModel(['search', 'crane', '--embedding-model', 'none'], env), false);
  assert.equal(wantsQueryModel(['search', 'crane', '--embedding-model=none'], env), false);
  assert.equal(wantsQueryModel(['search', 'crane'], { RELATA_EMBEDDING_MODEL: 'none' }), false);
  assert.equal(wantsQueryModel(['search', 'crane', '--embedding-model', 'default'], { RELATA_EMBEDDING_MODEL: 'none' }), true);
  assert.equal(wantsQueryModel(['search', 'crane', '--embedding-model', '/models/minilm'], env), false, 'an ONNX model is not USE-lite');
  assert.equal(wantsQueryModel(['search', '--help'], env), false);
  assert.equal(wantsQueryModel(['index', 'docs'], env), false);
  assert.equal(wantsQueryModel(['--help'], env), false);
  assert.equal(wantsQueryModel([], env), false);
});

test('nothing is adopted when nothing was started', () => {
  assert.equal(adoptEarlyQueryModelThread(), undefined);
});

test('a thread that finished loading before it was adopted still serves the query', { timeout: 120_000 }, async () => {
  await startQueryModelEarly();
  // Let the thread load and say so while nobody listens but the handover.
  const handover = (globalThis as Record<symbol, { events: [string, { kind?: string }][] }>)[Symbol.for('relata.earlyQueryModelThread')]!;
  while (!handover.events.some(([event, value]) => event === 'message' && value.kind === 'ready')) await sleep(50);
  const embedder = (await queryEmbedder({ kind: 'use-lite' }, { loadNow: true }))!;
  try {
    const [vector] = await embedder.embed(['gantry crane refurbishment cost']);
    assert.equal(vector!.length, 512);
    assert.equal(adoptEarlyQueryModelThread(), undefined, 'the thread was taken');
  } finally {
    await embedder.close();
  }
});

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

test('a command that stops before it embeds exits without waiting for the thread', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
  timeout: 120_000,
}, () => {
  // A usage error comes before the query embedder, so the early thread is never adopted.
  const run = spawnSync(process.execPath, [CLI, 'search', 'crane', '--limit', '0'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.error, undefined, 'the process exited by itself');
  assert.equal(run.status, 2, run.stderr);
});
