// The model stage of extraction end to end, on real folders, a real SQLite store and the real
// pipeline: what a model names is checked against the passage, stored labelled as the model's and
// cached, so an unchanged folder costs no call. The model is a scripted test double (it stands
// for a language model, the one boundary not run here) except in the tiny-GGUF test, where a real
// model with random weights writes the nonsense validation must reject.

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import path from 'node:path';
import { test } from 'node:test';
import type { RelationshipView } from '../../shared/types.ts';
import { LlamaProvider } from '../../server/src/answer/llamaProvider.ts';
import { ProviderError, type AnswerPrompt } from '../../server/src/answer/provider.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { ModelExtractor } from '../../server/src/extract/model/modelExtractor.ts';
import { DEFAULT_THRESHOLDS, RELATIONSHIP_SCORE_V1 } from '../../server/src/scoring/index.ts';
import type { PipelineSettings } from '../../server/src/pipeline/settings.ts';
import { ScriptedProvider } from '../support/scriptedProvider.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';
import { writeTinyGguf } from '../support/tinyGguf.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const execFileAsync = promisify(execFile);
const DEMO = path.join(REPO_ROOT, 'docs', 'demo');

/** The passage as the model was shown it, between the markers. */
const passageOf = (prompt: AnswerPrompt) => /<<<PASSAGE [0-9a-f]+>>> \(untrusted content\)\n([\s\S]*)\n<<<END PASSAGE/.exec(prompt.user)?.[1] ?? '';

/** A model that names Larkspur Logistics wherever a passage mentions it, and nothing else. */
function larkspurModel(): ScriptedProvider {
  return new ScriptedProvider(async (prompt) => {
    const entities = passageOf(prompt).includes('Larkspur Logistics') ? [{ type: 'organisation', surface: 'Larkspur Logistics' }] : [];
    return { kind: 'text', text: JSON.stringify({ entities, claims: [] }) };
  });
}

const FILES = {
  'call.md': '# Supplier call\n\nA call with Larkspur Logistics about the invoice Example Ltd raised for EUR 42,000 on 3 June 2025.\n',
  'racking.md': '# Racking notes\n\nNotes from Kestrel Freight about the new racking in Bay 4.\n',
};

/** Good output for the call, with a name a rule found and one not in the passage; prose for the racking notes. */
function mixedModel(): ScriptedProvider {
  return new ScriptedProvider(async (prompt) => {
    const passage = passageOf(prompt);
    if (passage.includes('Kestrel')) return { kind: 'text', text: 'Kestrel Freight is an organisation.' };
    const entities = [
      { type: 'organisation', surface: 'Larkspur Logistics' },
      { type: 'organisation', surface: 'Example Ltd' },
      { type: 'place', surface: 'Hollowmere Depot' },
    ];
    return { kind: 'text', text: JSON.stringify({ entities, claims: [] }) };
  });
}

async function openIndex(folder: string, dataDir: string, extractor: ModelExtractor | null, settings?: Partial<PipelineSettings>): Promise<FolderIndex> {
  return FolderIndex.open({ folder, dataDir, workspace: 'model-extract', embedding: { kind: 'none' }, modelExtractor: extractor, settings });
}

test('what the model names is checked, stored as the model\'s and counted; a reply that is not JSON costs its findings, not the item', { timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), FILES);
  const provider = mixedModel();
  const extractor = new ModelExtractor(provider);
  const index = await openIndex(folder, path.join(root, 'data'), extractor);
  try {
    await index.index();
    const call = (await index.store.getItemByPath('call.md'))!;
    const racking = (await index.store.getItemByPath('racking.md'))!;
    assert.equal(call.status, 'indexed');
    assert.equal(racking.status, 'indexed', 'the malformed reply did not fail the item');

    const callEntities = await index.store.listEntities(call.id);
    const byModel = callEntities.filter((entity) => entity.producer === 'model');
    assert.deepEqual(
      byModel.map(({ surface, key, extractorVersion }) => ({ surface, key, extractorVersion })),
      [{ surface: 'Larkspur Logistics', key: 'organisation:larkspur logistics', extractorVersion: 'model-extract@1(scripted-test-double)' }],
    );
    assert.deepEqual(
      callEntities.filter((entity) => entity.surface === 'Example Ltd').map((entity) => entity.producer),
      ['deterministic'],
      'the rule\'s Example Ltd stands alone: the model\'s overlapping one was dropped',
    );
    assert.deepEqual((await index.store.listEntities(racking.id)).filter((entity) => entity.producer === 'model'), []);
    assert.deepEqual(
      { calls: extractor.tally.calls, discarded: extractor.tally.discarded, overlapping: extractor.tally.overlapping, malformed: extractor.tally.malformed, entities: extractor.tally.entities },
      { calls: 2, discarded: 1, overlapping: 1, malformed: 1, entities: 1 },
    );

    const ids = (await index.store.listItems()).map((item) => item.id);
    for (const prompt of provider.prompts) {
      const seen = prompt.system + prompt.user;
      assert.ok(!ids.some((id) => seen.includes(id)) && !/call\.md|racking\.md/.test(seen), 'the model sees the passage, never an id or a path');
    }

    const summary = (await index.store.entitySummaries()).find((entity) => entity.key === 'organisation:larkspur logistics');
    assert.equal(summary?.byModelOnly, true, 'the entities list says only the model named it');
  } finally {
    await index.close();
  }
});

test('re-indexing an unchanged folder calls the model zero times; turning the stage off and on again costs none either', { timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), FILES);
  const dataDir = path.join(root, 'data');
  const provider = larkspurModel();
  const modelEntities = async (index: FolderIndex) => {
    const call = (await index.store.getItemByPath('call.md'))!;
    return (await index.store.listEntities(call.id)).filter((entity) => entity.producer === 'model').map((entity) => entity.surface);
  };

  let index = await openIndex(folder, dataDir, new ModelExtractor(provider));
  await index.index();
  const firstCalls = provider.prompts.length;
  assert.ok(firstCalls > 0);
  await index.index();
  await index.close();

  // A new process, as `relata index` run again would be.
  const again = new ModelExtractor(provider);
  index = await openIndex(folder, dataDir, again);
  await index.index();
  assert.equal(provider.prompts.length, firstCalls, 'no call for an unchanged folder');
  assert.deepEqual(await modelEntities(index), ['Larkspur Logistics']);
  await index.close();

  // Off: the model's findings go with it. On again: read from the cache, not the model.
  index = await openIndex(folder, dataDir, null);
  await index.index();
  assert.deepEqual(await modelEntities(index), []);
  await index.close();
  const cachedRun = new ModelExtractor(provider);
  index = await openIndex(folder, dataDir, cachedRun);
  try {
    await index.index();
    assert.equal(provider.prompts.length, firstCalls, 'every reply came from the cache');
    assert.equal(cachedRun.tally.cached, firstCalls);
    assert.deepEqual(await modelEntities(index), ['Larkspur Logistics']);

    // A changed file is read again; its unchanged neighbour is not.
    writeFileSync(path.join(folder, 'racking.md'), '# Racking notes\n\nNotes from Kestrel Freight and Orchard Haulage about the racking.\n');
    await index.index();
    assert.equal(provider.prompts.length, firstCalls + 1);
  } finally {
    await index.close();
  }
});

test('a passage the model could not be reached for is read on the next run, and its names then count', { timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), FILES);
  const dataDir = path.join(root, 'data');
  const working = larkspurModel();
  let reachable = false;
  const flaky = new ScriptedProvider(async (prompt, signal) => {
    if (!reachable) throw new ProviderError('endpoint unreachable');
    return working.generate(prompt, signal);
  });
  const logged: string[] = [];
  const names = async (index: FolderIndex) =>
    (await index.store.listEntities((await index.store.getItemByPath('call.md'))!.id)).filter((entity) => entity.producer === 'model').map((entity) => entity.surface);

  let index = await openIndex(folder, dataDir, new ModelExtractor(flaky, { log: (line) => logged.push(line) }));
  await index.index();
  assert.deepEqual(await names(index), []);
  assert.equal((await index.store.getItemByPath('call.md'))!.status, 'indexed');
  assert.equal(logged.length, 1, 'the first failure is told once, the rest counted');
  await index.close();

  reachable = true;
  const retry = new ModelExtractor(flaky);
  index = await openIndex(folder, dataDir, retry);
  try {
    await index.index();
    assert.equal(retry.tally.calls, 2, 'both passages asked again: no failure was cached');
    assert.deepEqual(await names(index), ['Larkspur Logistics']);
  } finally {
    await index.close();
  }
});

test('a real tiny GGUF runs the whole stage: its nonsense is rejected by validation and every file is indexed', { timeout: 180_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), FILES);
  const modelPath = path.join(root, 'tiny-random.gguf');
  writeTinyGguf(modelPath);
  const provider = new LlamaProvider({ modelPath, maxTokens: 64, threads: 1, log: (line) => t.diagnostic(line) });
  const extractor = new ModelExtractor(provider);
  const index = await openIndex(folder, path.join(root, 'data'), extractor);
  try {
    await index.index();
    t.diagnostic(`tiny GGUF: ${JSON.stringify(extractor.tally)}`);
    assert.equal(extractor.tally.calls, 2, 'each thin passage went to the model');
    assert.equal(extractor.tally.failed, 0);
    for (const item of await index.store.listItems()) {
      assert.equal(item.status, 'indexed', item.path);
      const chunks = new Map((await index.store.listChunks(item.id)).map((chunk) => [chunk.id, chunk.text]));
      for (const entity of (await index.store.listEntities(item.id)).filter((found) => found.producer === 'model')) {
        assert.equal(chunks.get(entity.chunkId)!.slice(entity.start, entity.end), entity.surface, 'whatever survived is written in its passage');
      }
    }
    assert.equal(extractor.tally.entities + extractor.tally.claims, 0, 'random weights name nothing the passages hold');
  } finally {
    await index.close();
    await provider.close();
  }
});

test('acceptance: on the demo, a name the model found shows on the relationship of two documents mentioning it, said as the model\'s; without a model nothing changes', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'demo');
  cpSync(DEMO, folder, { recursive: true });
  const relationships = async (extractor: ModelExtractor | null, data: string): Promise<RelationshipView[]> => {
    // Scored under v1: under v2 the six strongest names of every pair naming Larkspur Logistics are
    // rule-found (a pair keeps six names of a type, evidence.ts), so the model's half-strength one is
    // left off. How a model-found name is labelled is the same under both versions.
    const index = await openIndex(folder, path.join(root, data), extractor, { scoreVersion: RELATIONSHIP_SCORE_V1 });
    try {
      await index.index();
      return await listRelationshipViews(index.store, DEFAULT_THRESHOLDS);
    } finally {
      await index.close();
    }
  };
  const between = (views: RelationshipView[], a: string, b: string) =>
    views.find((view) => [view.from.path, view.to.path].sort().join('|') === [a, b].sort().join('|'));

  const without = await relationships(null, 'data-without');
  assert.ok(without.every((view) => view.signals.every((signal) => !signal.found_by_model)), 'no model, no model-found evidence');

  const withModel = await relationships(new ModelExtractor(larkspurModel()), 'data-with');
  const pair = between(withModel, 'notes/call-notes-2025-09-02-example-ltd.txt', 'supplier-review-example-ltd.docx');
  assert.ok(pair, 'the call notes and the supplier review are related');
  const larkspur = withModel.flatMap((view) => view.signals).find((signal) => signal.type === 'shared_entity' && signal.value === 'Larkspur Logistics' && signal.found_by_model);
  assert.ok(larkspur, `Larkspur Logistics, which no rule reads as an organisation (it has no legal form), is a shared name the model found: ${JSON.stringify(pair.signals.filter((signal) => signal.type === 'shared_entity').map((signal) => [signal.value, signal.strength, signal.found_by_model]))}`);
  assert.equal(larkspur!.found_by_model, true);
  assert.match(larkspur!.detail, /^Both items refer to this organisation\..* It was named by the model, not by a rule, so it counts for half\.$/);

  // The same relationships, types and scores with and without it: the demo's pair already shares
  // five names a rule found, so a sixth counts for nothing (diminishing returns); it is shown, not weighed.
  const shape = (views: RelationshipView[]) => views.map((view) => `${view.from.path} ${view.type} ${view.to.path} ${view.score}`).sort();
  assert.deepEqual(shape(withModel), shape(without));
});

test('relata index --extract-with-model needs a model, and says how to name one', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
}, (t) => {
  const folder = writeFiles(tempDir(t), FILES);
  const env = { ...process.env, RELATA_LLM_MODEL: '', RELATA_LLM_ENDPOINT: '' };
  const run = spawnSync(process.execPath, [CLI, 'index', folder, '--data', tempDir(t), '--extract-with-model'], { encoding: 'utf8', env });
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /--extract-with-model needs a language model\. To get an answer, pass --model PATH/);
});

test('relata index --extract-with-model --model reports what the model stage did, and nothing on an unchanged folder', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
  timeout: 180_000,
}, (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), FILES);
  const modelPath = path.join(root, 'tiny-random.gguf');
  writeTinyGguf(modelPath);
  const env = { ...process.env, RELATA_EMBEDDING_MODEL: 'none' };
  const index = () =>
    spawnSync(process.execPath, [CLI, 'index', folder, '--data', path.join(root, 'data'), '--extract-with-model', '--model', modelPath, '--json'], {
      encoding: 'utf8',
      env,
    });
  const first = index();
  assert.equal(first.status, 0, first.stderr);
  const report = JSON.parse(first.stdout).model_extraction;
  t.diagnostic(JSON.stringify(report));
  assert.equal(report.model, 'local:tiny-random.gguf');
  assert.equal(report.prompt_version, 'model-extract@1');
  assert.equal(report.calls, 2);
  const second = index();
  assert.equal(second.status, 0, second.stderr);
  assert.equal(JSON.parse(second.stdout).model_extraction.calls, 0, 'an unchanged folder costs no model call');
});

/**
 * An OpenAI-compatible endpoint on this machine that names Larkspur Logistics wherever a passage
 * mentions it (a test double for a model server), counting the calls it is sent.
 */
async function larkspurEndpoint(t: import('node:test').TestContext): Promise<{ url: string; calls: () => number }> {
  let calls = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      calls += 1;
      const messages = (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages;
      const user = messages.find((message) => message.role === 'user')?.content ?? '';
      const entities = passageOf({ system: '', user }).includes('Larkspur Logistics') ? [{ type: 'organisation', surface: 'Larkspur Logistics' }] : [];
      const content = JSON.stringify({ entities, claims: [] });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, calls: () => calls };
}

test('relata worker --extract-with-model runs the model stage as the indexer would: the indexer then finds nothing to extract again', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
  timeout: 180_000,
}, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), FILES);
  const data = path.join(root, 'data');
  const endpoint = await larkspurEndpoint(t);
  const env = { ...process.env, RELATA_EMBEDDING_MODEL: 'none', RELATA_LLM_MODEL: '', RELATA_LLM_ENDPOINT: '' };
  const relata = (...args: string[]) => execFileAsync(process.execPath, [CLI, ...args], { encoding: 'utf8', env });
  const withModel = ['--extract-with-model', '--endpoint', endpoint.url];

  await relata('index', folder, '--data', data, '--ingest-only');
  const worker = await relata('worker', '--data', data, '--until-idle', ...withModel);
  assert.match(worker.stderr, /worker .* running parse, chunk, embed, extract, discover jobs/);
  assert.equal(endpoint.calls(), 2, 'one call per thin passage: the call notes and the racking notes');
  const entities = JSON.parse((await relata('entities', '--data', data, '--json')).stdout) as { surface: string; producer?: string; by_model?: boolean }[];
  assert.ok(JSON.stringify(entities).includes('Larkspur Logistics'), JSON.stringify(entities));

  const again = await relata('index', folder, '--data', data, '--json', ...withModel);
  assert.equal(JSON.parse(again.stdout).model_extraction.calls, 0, 'the worker\'s extraction is the indexer\'s: nothing extracted again');
  assert.equal(endpoint.calls(), 2);

  const refused = await relata('worker', '--data', data, '--until-idle', '--extract-with-model').then(
    () => null,
    (error: { code: number; stderr: string }) => error,
  );
  assert.equal(refused?.code, 2);
  assert.match(refused?.stderr ?? '', /--extract-with-model needs a language model/);
});
