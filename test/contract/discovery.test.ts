// The look-ups relationship discovery is allowed, on every backend: which items need discovering
// under a basis, items with the same bytes, items mentioning a name or stating a figure about the
// same thing, counts that stop at a cap, and the facts discovery weighs for a batch of items.

import assert from 'node:assert/strict';
import { forEachBackend } from './backends.ts';
import { BUDGET_MEMO, CANTEEN_MENU, embedDocument, extractDocument, handbook, indexDocument, ingest, MODEL_A, REPORT, unit, type IndexedDocument } from './documents.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';

const BASIS = 'discover@1|entities@1+claims@1+concepts@2|none';

/** The three short documents, indexed and extracted. */
async function extractedCorpus(store: WorkspaceStore): Promise<{ report: IndexedDocument; memo: IndexedDocument; menu: IndexedDocument }> {
  const report = await indexDocument(store, 'report.md', REPORT);
  const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
  const menu = await indexDocument(store, 'menu.md', CANTEEN_MENU);
  for (const document of [report, memo, menu]) await extractDocument(store, document);
  return { report, memo, menu };
}

forEachBackend((backend) => {
  backend.test('items needing discovery: live originals and copies not yet discovered for their bytes under this basis', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    const copy = await ingest(store, 'copy.md', REPORT);
    await ingest(store, 'pending.md', CANTEEN_MENU);
    await store.recordSkipped('video.mp4', 'unsupported file type .mp4', 10);
    assert.deepEqual(new Set(await store.itemsNeedingDiscovery(BASIS)), new Set([report.itemId, memo.itemId, copy.itemId]));

    await store.recordDiscovery(report.itemId, report.contentHash, BASIS);
    await store.recordDiscovery(copy.itemId, report.contentHash, BASIS);
    assert.deepEqual(await store.itemsNeedingDiscovery(BASIS), [memo.itemId]);
    assert.deepEqual(new Set(await store.itemsNeedingDiscovery(`${BASIS}+model`)), new Set([report.itemId, memo.itemId, copy.itemId]), 'another basis');

    await store.recordDiscovery(memo.itemId, 'f'.repeat(64), BASIS);
    assert.deepEqual(await store.itemsNeedingDiscovery(BASIS), [memo.itemId], 'discovered for other bytes is not discovered');
    await store.recordDiscovery(memo.itemId, memo.contentHash, BASIS);
    assert.deepEqual(await store.itemsNeedingDiscovery(BASIS), []);

    await indexDocument(store, 'memo.md', `${BUDGET_MEMO}\nAmended.\n`);
    assert.deepEqual(await store.itemsNeedingDiscovery(BASIS), [memo.itemId], 'new bytes');
    await store.tombstone('memo.md');
    assert.deepEqual(await store.itemsNeedingDiscovery(BASIS), [], 'a deleted item is not discovered');
  });

  backend.test('resetting discovery makes the next run recompute these items, or all of them', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    for (const document of [report, memo]) await store.recordDiscovery(document.itemId, document.contentHash, BASIS);
    await store.resetDiscovery([memo.itemId]);
    assert.deepEqual(await store.itemsNeedingDiscovery(BASIS), [memo.itemId]);
    await store.recordDiscovery(memo.itemId, memo.contentHash, BASIS);
    await store.resetDiscovery([]);
    assert.deepEqual(await store.itemsNeedingDiscovery(BASIS), []);
    await store.resetDiscovery(null);
    assert.deepEqual(new Set(await store.itemsNeedingDiscovery(BASIS)), new Set([report.itemId, memo.itemId]));
  });

  backend.test('items with the same bytes: live originals and copies, except the one asked about, up to the limit', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const copies = [await ingest(store, 'copy-1.md', REPORT), await ingest(store, 'copy-2.md', REPORT), await ingest(store, 'copy-3.md', REPORT)];
    await indexDocument(store, 'memo.md', BUDGET_MEMO);
    const others = await store.itemsWithContentHash(report.contentHash, report.itemId, 10);
    assert.deepEqual(new Set(others), new Set(copies.map((copy) => copy.itemId)));
    assert.equal((await store.itemsWithContentHash(report.contentHash, report.itemId, 2)).length, 2);
    await store.tombstone('copy-3.md');
    assert.ok(!(await store.itemsWithContentHash(report.contentHash, report.itemId, 10)).includes(copies[2]!.itemId), 'a deleted copy is not live');
    assert.deepEqual(new Set(await store.itemsWithContentHash(report.contentHash, copies[0]!.itemId, 10)), new Set([report.itemId, copies[1]!.itemId]));
  });

  backend.test('items mentioning a name: live items other than the one asked about, each once, up to the limit', async (t) => {
    const { store } = await backend.open(t);
    const { report, memo, menu } = await extractedCorpus(store);
    assert.deepEqual(await store.itemsMentioning('person:carla mendes', report.itemId, 10), [memo.itemId]);
    assert.deepEqual(new Set(await store.itemsMentioning('person:jonas weber', '', 10)), new Set([memo.itemId, menu.itemId]));
    assert.equal((await store.itemsMentioning('person:jonas weber', '', 1)).length, 1);
    assert.deepEqual(await store.itemsMentioning('person:nobody', '', 10), []);
    await store.tombstone('memo.md');
    assert.deepEqual(await store.itemsMentioning('person:carla mendes', '', 10), [report.itemId]);
  });

  backend.test('mention contexts: the text either side of each mention in its passage, bounded, for all items or only those asked about', async (t) => {
    const { store } = await backend.open(t);
    const { report, memo, menu } = await extractedCorpus(store);
    const all = await store.entityMentionContexts('person:jonas weber', null, 12, 10);
    assert.deepEqual(new Set(all.map((mention) => mention.itemId)), new Set([memo.itemId, menu.itemId]));
    const inMenu = all.find((mention) => mention.itemId === menu.itemId)!;
    assert.equal(inMenu.before, ' on Friday. ', 'the text before the mention, within its passage, at most 12 characters');
    assert.equal(inMenu.after, ' of Larkspur');
    assert.deepEqual((await store.entityMentionContexts('person:jonas weber', [menu.itemId, report.itemId], 12, 10)).map((m) => m.itemId), [menu.itemId]);
    assert.equal((await store.entityMentionContexts('person:jonas weber', null, 12, 1)).length, 1);
    assert.deepEqual(await store.entityMentionContexts('person:nobody', null, 12, 10), []);
  });

  backend.test('items stating a figure about the same attribute in the same unit', async (t) => {
    const { store } = await backend.open(t);
    const { report, memo } = await extractedCorpus(store);
    const dated = await indexDocument(store, 'dates.md', '# Schedule\n\nThe refurbishment completion date is 30 June 2025.\n');
    await extractDocument(store, dated);
    assert.deepEqual(await store.itemsWithClaimsOn('money', 'cost', 'EUR', report.itemId, 10), [memo.itemId]);
    assert.deepEqual(await store.itemsWithClaimsOn('money', 'cost', 'USD', report.itemId, 10), [], 'another unit is not comparable');
    assert.deepEqual(new Set(await store.itemsWithClaimsOn('money', 'cost', 'EUR', '', 10)), new Set([report.itemId, memo.itemId]));
    assert.equal((await store.itemsWithClaimsOn('money', 'cost', 'EUR', '', 1)).length, 1);
    const [dateClaim] = await store.listClaims(dated.itemId);
    assert.equal(dateClaim?.unit, null, 'a date has no unit');
    assert.deepEqual(await store.itemsWithClaimsOn(dateClaim!.kind, dateClaim!.attribute, null, '', 10), [dated.itemId], 'a null unit matches a null unit');
  });

  backend.test('entity and phrase item counts count items, not mentions, and stop at the cap', async (t) => {
    const { store } = await backend.open(t);
    await extractedCorpus(store);
    const more = await indexDocument(store, 'more.md', '# More\n\nMs. Carla Mendes met Ms. Carla Mendes. The gantry crane and the gantry crane.\n');
    await extractDocument(store, more);
    const entities = await store.entityItemCounts(['person:carla mendes', 'person:jonas weber', 'person:carla mendes', 'person:nobody'], 10);
    assert.equal(entities.get('person:carla mendes'), 3);
    assert.equal(entities.get('person:jonas weber'), 2);
    assert.equal(entities.get('person:nobody') ?? 0, 0);
    assert.equal((await store.entityItemCounts(['person:carla mendes'], 2)).get('person:carla mendes'), 2, 'counting stops at the cap');
    const phrases = await store.phraseItemCounts(['gantry crane', 'apple', 'no such phrase'], 10);
    assert.equal(phrases.get('gantry crane'), 3);
    assert.equal(phrases.get('apple'), 1);
    assert.equal(phrases.get('no such phrase') ?? 0, 0);
    assert.equal((await store.phraseItemCounts(['gantry crane'], 2)).get('gantry crane'), 2);
    await store.tombstone('more.md');
    assert.equal((await store.entityItemCounts(['person:carla mendes'], 10)).get('person:carla mendes'), 2, 'a deleted item no longer counts');
  });

  backend.test('discovery facts: entities in document order, claims, the top phrases and one model\'s vectors, per item', async (t) => {
    const { store } = await backend.open(t);
    const { report, memo } = await extractedCorpus(store);
    const text = handbook('Site diary', [
      ['Monday', 'inspection by Ms. Carla Mendes'],
      ['Tuesday', 'quiet shift'],
      ['Wednesday', 'visit from Mr. Jonas Weber'],
    ]);
    const diary = await indexDocument(store, 'diary.md', text);
    await extractDocument(store, diary);
    await embedDocument(store, diary, MODEL_A, [unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(0, 0, 1, 0)]);
    await embedDocument(store, report, MODEL_A, [unit(0, 0, 0, 1)]);

    const facts = await store.discoveryFacts([diary.itemId, report.itemId, memo.itemId], MODEL_A.id, 3);
    assert.deepEqual([...facts.keys()].sort(), [diary.itemId, report.itemId, memo.itemId].sort());
    const ordinal = new Map(diary.chunks.map((chunk) => [chunk.id, chunk.ordinal]));
    const entities = facts.get(diary.itemId)!.entities;
    assert.ok(entities.length >= 24, `twelve mentions of each name (${entities.length})`);
    const places = entities.map((entity) => [ordinal.get(entity.chunkId)!, entity.start] as const);
    for (let n = 1; n < places.length; n += 1) {
      const [a, b] = [places[n - 1]!, places[n]!];
      assert.ok(a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]), 'in document order: passage, then offset');
    }
    assert.equal(entities[0]!.key, 'person:carla mendes');
    assert.equal(entities.at(-1)!.key, 'person:jonas weber');
    assert.ok(entities.every((entity) => entity.itemId === diary.itemId));
    assert.equal(facts.get(report.itemId)!.claims.length, 1);
    assert.equal(facts.get(report.itemId)!.claims[0]!.value, 42000);
    const phrases = facts.get(memo.itemId)!.phrases;
    assert.equal(phrases.length, 3, 'at most the phrase limit');
    assert.deepEqual(phrases.slice(0, 2).map((phrase) => [phrase.key, phrase.count]).sort(), [['budget', 2], ['review', 2]], 'the most frequent first');
    assert.equal(facts.get(diary.itemId)!.vectors.length, 3);
    assert.deepEqual([...facts.get(report.itemId)!.vectors[0]!], [...unit(0, 0, 0, 1)]);
    assert.deepEqual(facts.get(memo.itemId)!.vectors, []);
    assert.deepEqual((await store.discoveryFacts([diary.itemId], null, 3)).get(diary.itemId)!.vectors, [], 'no model, no vectors');
    assert.equal((await store.discoveryFacts([], MODEL_A.id, 3)).size, 0);
  });

  backend.test('metadata: each item\'s own, counted by value up to a cap from the index, and found by value among live items', async (t) => {
    const { store } = await backend.open(t);
    const front = (lines: string) => `---\n${lines}\n---\n\n# Note\n\nA short note about the crane.\n`;
    const a = await indexDocument(store, 'a.md', front('project: GC-2\ntags: [Cranes, Safety]\nauthor: Tom'));
    const b = await indexDocument(store, 'b.md', front('Project: gc-2\nkeywords: safety; audits'));
    const c = await indexDocument(store, 'c.md', front('project: GC-2'));
    const plain = await indexDocument(store, 'plain.md', '# Plain\n\nNo front matter here.\n');

    assert.deepEqual(await store.listMetadata(a.itemId), [
      { key: 'project', value: 'gc-2', label: 'project', text: 'GC-2' },
      { key: 'tags', value: 'cranes', label: 'tags', text: 'Cranes' },
      { key: 'tags', value: 'safety', label: 'tags', text: 'Safety' },
      { key: 'author', value: 'tom', label: 'author', text: 'Tom' },
    ]);
    assert.deepEqual(await store.listMetadata(plain.itemId), []);

    const gc2 = { key: 'project', value: 'gc-2' };
    const safety = { key: 'tags', value: 'safety' };
    const counts = await store.metadataItemCounts([gc2, safety, { key: 'client', value: 'nobody' }], 10);
    assert.deepEqual(Object.fromEntries(counts), { 'project:gc-2': 3, 'tags:safety': 2 }, 'a value nobody gives is not counted');
    assert.equal((await store.metadataItemCounts([gc2], 2)).get('project:gc-2'), 2, 'the count stops at the cap');

    assert.deepEqual(new Set(await store.itemsWithMetadata(gc2, a.itemId, 10)), new Set([b.itemId, c.itemId]));
    assert.equal((await store.itemsWithMetadata(gc2, a.itemId, 1)).length, 1);
    assert.deepEqual(await store.itemsWithMetadata(safety, a.itemId, 10), [b.itemId]);

    const facts = await store.discoveryFacts([a.itemId, b.itemId, plain.itemId], null, 3);
    assert.deepEqual(facts.get(b.itemId)!.metadata.map((entry) => `${entry.key}:${entry.value}`), ['project:gc-2', 'tags:safety', 'tags:audits']);
    assert.deepEqual(facts.get(plain.itemId)!.metadata, []);

    await store.tombstone('c.md');
    assert.deepEqual(await store.listMetadata(c.itemId), [], 'a deleted item gives no metadata');
    assert.equal((await store.metadataItemCounts([gc2], 10)).get('project:gc-2'), 2);
    assert.deepEqual(await store.itemsWithMetadata(gc2, a.itemId, 10), [b.itemId]);

    await indexDocument(store, 'b.md', front('project: GC-3'));
    assert.deepEqual(await store.itemsWithMetadata(gc2, a.itemId, 10), [], 'new bytes replace the old metadata');
    assert.deepEqual((await store.listMetadata(b.itemId)).map((entry) => entry.text), ['GC-3']);
  });
});
