// The embed stage on real files with real models: the offline default (USE-lite, in worker
// threads) and the ONNX runtime path (a small generated BERT-shaped model, since no real ONNX
// weights can be downloaded here).

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { writeCorpus } from '../support/generateCorpus.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';
import { writeTinyOnnxModel } from '../support/tinyOnnxModel.ts';
import { vectorCoverage, type ChunkCoverage } from '../support/vectorSnapshot.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const DEMO = path.join(REPO_ROOT, 'docs', 'demo');
const needsBuild = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';

function relata(args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, RELATA_WORKSPACE: 'embed-test' } });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** Every chunk is covered, in order and without gaps between windows, by exactly one model. */
function assertFullyCovered(coverage: ChunkCoverage[], modelId: string): void {
  assert.ok(coverage.length > 0);
  for (const chunk of coverage) {
    assert.deepEqual(chunk.models, [modelId], `chunk ${chunk.chunkId} has vectors from exactly ${modelId}`);
    assert.equal(chunk.windows[0]?.[1], 0, 'the first window starts the chunk');
    assert.ok(chunk.windows.at(-1)![2] >= chunk.textLength - 1, 'the last window reaches its end');
    chunk.windows.forEach(([window], index) => assert.equal(window, index));
  }
}

test('indexing the demo folder leaves every chunk with vectors from the default model, and status names it', {
  skip: needsBuild,
  timeout: 5 * 60_000,
}, (t) => {
  const data = tempDir(t);
  const report = relata(['index', DEMO, '--data', data, '--json']);
  const status = relata(['status', '--data', data, '--json']);
  assert.equal(status.embedding_models.length, 1);
  const [model] = status.embedding_models;
  assert.equal(model.id, 'use-lite@0.2.0');
  assert.equal(model.dims, 512);
  assert.equal(model.chunks, report.chunks);
  assertFullyCovered(vectorCoverage(data), 'use-lite@0.2.0');
  t.diagnostic(`${report.chunks} chunks, ${model.vectors} vectors (windows of at most ${model.maxTokens} tokens)`);
});

test('changing the model re-embeds every chunk; no chunk ends with vectors from two models', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t);
  const modelDir = path.join(root, 'tiny-model');
  await writeTinyOnnxModel(modelDir);
  const dataDir = path.join(root, 'data');

  const withOnnx = await FolderIndex.open({ folder: DEMO, dataDir, workspace: 'alice', embedding: { kind: 'onnx', modelDir } });
  await withOnnx.index();
  const onnxModel = (await withOnnx.embeddingModel())!;
  await withOnnx.close();
  assertFullyCovered(vectorCoverage(dataDir), onnxModel.id);

  const withDefault = await FolderIndex.open({ folder: DEMO, dataDir, workspace: 'alice', embedding: { kind: 'use-lite' } });
  t.after(() => withDefault.close());
  await withDefault.index();
  assertFullyCovered(vectorCoverage(dataDir), 'use-lite@0.2.0');
  const usage = Object.fromEntries((await withDefault.store.modelUsage()).map((model) => [model.id, model.vectors]));
  assert.equal(usage[onnxModel.id], 0, 'the old model keeps its descriptor but no vectors');
  assert.ok(usage['use-lite@0.2.0']! > 0);
});

test('an indexer killed while embedding loses nothing: on restart only unembedded chunks are embedded', {
  skip: needsBuild,
  timeout: 10 * 60_000,
}, async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'folder');
  writeCorpus(folder, 120, 5);
  const dataDir = path.join(root, 'data');
  const args = [CLI, 'index', folder, '--data', dataDir, '--workspace', 'embed-test', '--json'];

  // Kill as soon as some, but not all, chunks have vectors.
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  let before: ChunkCoverage[] = [];
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (!existsSync(path.join(dataDir, 'relata.sqlite'))) continue;
    try {
      before = vectorCoverage(dataDir);
    } catch {
      continue; // tables not created yet
    }
    if (before.some((chunk) => chunk.models.length > 0)) break;
    assert.equal(child.exitCode, null, 'the indexer finished before it could be killed mid-embedding');
  }
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('close', resolve));
  before = vectorCoverage(dataDir);
  const embeddedBefore = before.filter((chunk) => chunk.models.length > 0);
  assert.ok(embeddedBefore.length > 0 && embeddedBefore.length < before.length, 'killed mid-embedding');

  const restart = spawnSync(process.execPath, args, { encoding: 'utf8' });
  assert.equal(restart.status, 0, restart.stderr);
  const after = new Map(vectorCoverage(dataDir).map((chunk) => [chunk.chunkId, chunk]));
  assertFullyCovered([...after.values()], 'use-lite@0.2.0');
  for (const chunk of embeddedBefore) {
    assert.deepEqual(after.get(chunk.chunkId)?.windows, chunk.windows, `chunk ${chunk.chunkId} kept its vectors (not re-embedded)`);
  }
  t.diagnostic(`${embeddedBefore.length} of ${before.length} chunks were embedded when the indexer was killed`);
});
