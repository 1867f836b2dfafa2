// Extraction results, on every backend: stored for the item's current bytes only, replaced as a
// whole (a model's results left alone), read back per item, and summed over the workspace
// (entity frequencies, phrase document frequencies, what still needs extracting).

import assert from 'node:assert/strict';
import type { StoredClaim, StoredEntity } from '../../server/src/store/contract.ts';
import { forEachBackend } from './backends.ts';
import { BUDGET_MEMO, CANTEEN_MENU, CRANE_HANDBOOK, extractDocument, extractionFor, handbook, indexDocument, ingest, REPORT } from './documents.ts';

const byPlace = <T extends { chunkId: string; start: number }>(rows: T[]) => [...rows].sort((a, b) => a.chunkId.localeCompare(b.chunkId) || a.start - b.start);

forEachBackend((backend) => {
  backend.test('an extraction is stored for the current bytes and read back as it was given', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const extraction = await extractDocument(store, report);
    assert.ok(extraction.entities.length >= 3 && extraction.claims.length >= 1 && extraction.phrases.length >= 5, 'the extractors found something');
    assert.deepEqual(byPlace(await store.listEntities(report.itemId)), byPlace(extraction.entities.map((entity): StoredEntity => ({ ...entity, itemId: report.itemId }))));
    assert.deepEqual(byPlace(await store.listClaims(report.itemId)), byPlace(extraction.claims.map((claim): StoredClaim => ({ ...claim, itemId: report.itemId }))));
    const phrases = await store.listPhrases(report.itemId);
    assert.deepEqual(new Set(phrases.map((phrase) => JSON.stringify(phrase))), new Set(extraction.phrases.map((phrase) => JSON.stringify(phrase))));
    for (let n = 1; n < phrases.length; n += 1) assert.ok(phrases[n - 1]!.count >= phrases[n]!.count, 'most frequent first');
    assert.deepEqual(await store.listEntities('no-such-item'), []);
  });

  backend.test('a claim keeps its kind, subject, attribute, value, unit, sentence and entity keys', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    await extractDocument(store, report);
    const [claim] = await store.listClaims(report.itemId);
    assert.equal(claim!.kind, 'money');
    assert.equal(claim!.attribute, 'cost');
    assert.equal(claim!.value, 42000);
    assert.equal(claim!.unit, 'EUR');
    assert.equal(claim!.chunkId, report.chunks[0]!.id);
    assert.equal(report.chunks[0]!.text.slice(claim!.start, claim!.end), claim!.text);
    assert.ok(Array.isArray(claim!.entityKeys));
  });

  backend.test('an extraction is refused for bytes the item no longer holds, and for an item not indexed', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const extraction = extractionFor(report);
    await ingest(store, 'report.md', BUDGET_MEMO);
    assert.equal(await store.storeExtraction(report.itemId, report.contentHash, extraction), false, 'stale bytes');
    assert.deepEqual(await store.listEntities(report.itemId), []);
    const { itemId: pending } = await ingest(store, 'menu.md', CANTEEN_MENU);
    assert.equal(await store.storeExtraction(pending, (await store.getItem(pending))!.contentHash!, { entities: [], claims: [], phrases: [], versions: 'v' }), false, 'not indexed yet');
  });

  backend.test('storing again replaces every producer\'s results: the extract stage hands over the model\'s with the rules\'', async (t) => {
    const { store } = await backend.open(t);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    const deterministic = extractionFor(memo);
    const fromModel = { ...deterministic.entities[0]!, key: 'organisation:larkspur', surface: 'Larkspur', type: 'organisation' as const, producer: 'model' as const, extractorVersion: 'model-extract@1(m)' };
    assert.equal(await store.storeExtraction(memo.itemId, memo.contentHash, { ...deterministic, entities: [...deterministic.entities, fromModel] }), true);
    const stored = await store.listEntities(memo.itemId);
    assert.deepEqual(stored.filter((entity) => entity.producer === 'model').map(({ key, extractorVersion }) => ({ key, extractorVersion })), [
      { key: 'organisation:larkspur', extractorVersion: 'model-extract@1(m)' },
    ]);
    assert.equal((await store.entitySummaries()).find((summary) => summary.key === 'organisation:larkspur')?.byModelOnly, true);
    assert.equal(await store.storeExtraction(memo.itemId, memo.contentHash, { ...deterministic, entities: deterministic.entities.slice(0, 1), claims: [], phrases: deterministic.phrases.slice(0, 2) }), true);
    const entities = await store.listEntities(memo.itemId);
    assert.deepEqual(entities.map((entity) => entity.key), [deterministic.entities[0]!.key], 'the model stage was off this time: its names are gone');
    assert.deepEqual(await store.listClaims(memo.itemId), []);
    assert.equal((await store.listPhrases(memo.itemId)).length, 2);
  });

  backend.test('a model\'s replies are cached by passage, model and prompt version, and forgotten with the item that asked', async (t) => {
    const { store } = await backend.open(t);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    const entry = { passageHash: 'a'.repeat(64), modelId: 'local:m.gguf', promptVersion: 'model-extract@1', output: '{"entities":[],"claims":[]}', itemId: memo.itemId };
    assert.deepEqual(await store.cachedModelOutputs([entry.passageHash], entry.modelId, entry.promptVersion), new Map());
    await store.cacheModelOutput(entry);
    await store.cacheModelOutput({ ...entry, output: 'second' });
    await store.cacheModelOutput({ ...entry, passageHash: 'b'.repeat(64), output: 'other passage' });
    assert.deepEqual(
      await store.cachedModelOutputs([entry.passageHash, 'b'.repeat(64), 'c'.repeat(64)], entry.modelId, entry.promptVersion),
      new Map([[entry.passageHash, 'second'], ['b'.repeat(64), 'other passage']]),
    );
    assert.deepEqual(await store.cachedModelOutputs([entry.passageHash], 'local:other.gguf', entry.promptVersion), new Map(), 'another model');
    assert.deepEqual(await store.cachedModelOutputs([entry.passageHash], entry.modelId, 'model-extract@2'), new Map(), 'another prompt');
    await store.tombstone('memo.md');
    await store.forgetItems([memo.itemId]);
    assert.deepEqual(await store.cachedModelOutputs([entry.passageHash, 'b'.repeat(64)], entry.modelId, entry.promptVersion), new Map(), 'a reply quotes its passage');
  });

  backend.test('a capped extraction flags the item, and an uncapped one clears the flag', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const extraction = extractionFor(report);
    await store.storeExtraction(report.itemId, report.contentHash, { ...extraction, capped: 'kept 1 of 3 entity mentions' });
    assert.ok((await store.getItem(report.itemId))!.flags.includes('extraction_capped'));
    await store.storeExtraction(report.itemId, report.contentHash, extraction);
    assert.ok(!(await store.getItem(report.itemId))!.flags.includes('extraction_capped'));
  });

  backend.test('items needing extraction: indexed live items not extracted with these versions for their bytes', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    await ingest(store, 'pending.md', CANTEEN_MENU);
    const versions = extractionFor(report).versions;
    assert.deepEqual(new Set(await store.itemsNeedingExtraction(versions)), new Set([report.itemId, memo.itemId]));
    await extractDocument(store, report);
    assert.deepEqual(await store.itemsNeedingExtraction(versions), [memo.itemId]);
    assert.deepEqual(new Set(await store.itemsNeedingExtraction(`${versions}+newer@2`)), new Set([report.itemId, memo.itemId]), 'newer extractors');
    await indexDocument(store, 'report.md', `${REPORT}\nAddendum.\n`);
    assert.deepEqual(new Set(await store.itemsNeedingExtraction(versions)), new Set([report.itemId, memo.itemId]), 'changed bytes');
    await store.tombstone('memo.md');
    assert.deepEqual(await store.itemsNeedingExtraction(versions), [report.itemId], 'deleted items need nothing');
  });

  backend.test('entity summaries: every key with the items mentioning it and its most common spelling, most frequent first', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    const menu = await indexDocument(store, 'menu.md', `${CANTEEN_MENU}\nMr. Weber asked Mr. Jonas Weber to order pears.\n`);
    for (const document of [report, memo, menu]) await extractDocument(store, document);
    const summaries = await store.entitySummaries();
    for (let n = 1; n < summaries.length; n += 1) assert.ok(summaries[n - 1]!.frequency >= summaries[n]!.frequency, 'most frequent first');
    const byKey = new Map(summaries.map((summary) => [summary.key, summary]));
    const carla = byKey.get('person:carla mendes')!;
    assert.deepEqual(
      { ...carla, itemIds: [...carla.itemIds].sort() },
      { key: 'person:carla mendes', type: 'person', surface: 'Ms. Carla Mendes', frequency: 2, itemIds: [report.itemId, memo.itemId].sort(), byModelOnly: false },
    );
    const jonas = byKey.get('person:jonas weber')!;
    assert.equal(jonas.frequency, 2, 'an item mentioning a name twice counts once');
    assert.equal(jonas.surface, 'Mr. Jonas Weber');
    assert.deepEqual([...jonas.itemIds].sort(), [memo.itemId, menu.itemId].sort());
    assert.equal(byKey.get('date:2025-03-12')?.frequency, 1);

    // Asked for some types, the summaries of those keys alone, each exactly as in the whole list.
    const people = await store.entitySummaries(['person', 'email']);
    assert.ok(people.length > 0 && people.length < summaries.length, 'some names are people, some are not');
    assert.deepEqual(people, summaries.filter((summary) => summary.type === 'person' || summary.type === 'email'));
    assert.deepEqual(await store.entitySummaries([]), [], 'no type asked, no key');
  });

  backend.test('phrase document frequencies count the items whose key phrases include each key', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    const menu = await indexDocument(store, 'menu.md', CANTEEN_MENU);
    for (const document of [report, memo, menu]) await extractDocument(store, document);
    const frequencies = await store.phraseDocumentFrequencies(['gantry crane', 'apple', 'no such phrase']);
    assert.deepEqual([...frequencies.entries()].sort(), [['apple', 1], ['gantry crane', 2], ['no such phrase', 0]]);
  });

  backend.test('indexed items are counted: live and indexed only', async (t) => {
    const { store } = await backend.open(t);
    assert.equal(await store.countIndexedItems(), 0);
    await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await indexDocument(store, 'report.md', REPORT);
    await indexDocument(store, 'other.md', handbook('Other', [['Only', 'other topic']]));
    await ingest(store, 'pending.md', CANTEEN_MENU);
    await ingest(store, 'copy.md', REPORT);
    assert.equal(await store.countIndexedItems(), 3);
    await store.tombstone('other.md');
    assert.equal(await store.countIndexedItems(), 2);
  });
});
