// Guarantee 2 on a real workspace: docs/demo indexed into a real SQLite store by the engine, every
// passage it holds handed to a model six at a time (as retrieval does), and every prompt scanned
// for every item id, chunk id, content hash, relationship id, path and store location in the
// workspace. None may appear: the model knows sources only as S1, S2…

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { answerFromRetrieval, type RetrievedSource } from '../../server/src/answer/answer.ts';
import { DEFAULT_MAX_SOURCES, retrieveForAnswer } from '../../server/src/answer/retrieval.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { ScriptedProvider } from '../support/scriptedProvider.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const DEMO = path.join(REPO_ROOT, 'docs', 'demo');

test('no prompt built from the demo workspace contains an id, a hash, a path or the store location', { timeout: 120_000 }, async (t) => {
  const dataDir = path.join(tempDir(t), 'data');
  const index = await FolderIndex.open({ folder: DEMO, dataDir, workspace: 'answer-scan', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const { store } = index;

  const items = await store.listItems({ includeDeleted: true });
  const forbidden = new Set<string>([dataDir, DEMO]);
  const sources: RetrievedSource[] = [];
  for (const item of items) {
    forbidden.add(item.id).add(item.path);
    if (item.contentHash) forbidden.add(item.contentHash);
    for (const version of await store.listVersions(item.id)) forbidden.add(version.contentHash);
    for (const chunk of await store.listChunks(item.id)) {
      forbidden.add(chunk.id);
      sources.push({ item_id: item.id, title: item.title, path: item.path, location: chunk.location, passage: chunk.text });
    }
  }
  for (const relationship of await store.listRelationships()) forbidden.add(relationship.id);
  assert.ok(items.length >= 10 && sources.length >= 15, `the demo is indexed (${items.length} items, ${sources.length} passages)`);

  const provider = new ScriptedProvider('{"answer": "EUR 42,000 [S1]", "sufficient": true, "citations": ["S1"]}');
  for (let start = 0; start < sources.length; start += DEFAULT_MAX_SOURCES) {
    const batch = sources.slice(start, start + DEFAULT_MAX_SOURCES);
    const result = await answerFromRetrieval('What did the GC-2 refurbishment cost?', { sources: batch, conflicts: [], inferredRelationships: [] }, provider);
    assert.deepEqual(result.sources.map((source) => source.item_id), batch.map((source) => source.item_id), 'the result still names the items');
  }
  assert.equal(provider.prompts.length, Math.ceil(sources.length / DEFAULT_MAX_SOURCES));
  // And through retrieval itself, as `relata ask` runs it.
  for (const question of ['What did the GC-2 refurbishment cost?', 'Why did the sprinkler leak in Bay 4?', 'Who is Example Ltd?', 'INC-2025-014']) {
    const retrieval = await retrieveForAnswer(store, null, question);
    assert.ok(retrieval.sources.length > 0, question);
    await answerFromRetrieval(question, retrieval, provider);
  }

  const leaks: string[] = [];
  for (const prompt of provider.prompts) {
    const text = `${prompt.system}\n${prompt.user}`;
    for (const value of forbidden) if (text.includes(value)) leaks.push(value);
  }
  assert.deepEqual(leaks, []);
  const everyPassage = provider.prompts.map((prompt) => prompt.user).join('\n');
  for (const source of sources) assert.ok(everyPassage.includes(source.passage.trim().slice(0, 60)), 'every passage reached a prompt');
  t.diagnostic(`${provider.prompts.length} prompts scanned for ${forbidden.size} ids, hashes and paths`);
});
