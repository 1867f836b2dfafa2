// Search's own look-ups, on every backend: titles by substring, entity mentions by key and by key
// prefix, what a result shows about its item, passages by id, and the claims of passages. Only
// live indexed items answer.

import assert from 'node:assert/strict';
import type { StoredClaim } from '../../server/src/store/contract.ts';
import { forEachBackend } from './backends.ts';
import { BUDGET_MEMO, CANTEEN_MENU, CRANE_HANDBOOK, extractDocument, indexDocument, ingest, REPORT } from './documents.ts';

forEachBackend((backend) => {
  backend.test('titles containing the text, ignoring ASCII case, shortest title first, live indexed items only', async (t) => {
    const { store } = await backend.open(t);
    const handbookDocument = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const report = await indexDocument(store, 'report.md', REPORT);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    await ingest(store, 'pending.md', '# Crane pending\n\nNot parsed yet.\n');
    assert.equal(report.title, 'Gantry crane refurbishment report');
    assert.deepEqual(await store.searchTitles('CRANE', 10), [handbookDocument.itemId, report.itemId]);
    assert.deepEqual(await store.searchTitles('crane', 1), [handbookDocument.itemId]);
    assert.deepEqual(await store.searchTitles('budget rev', 10), [memo.itemId]);
    assert.deepEqual(await store.searchTitles('nothing like it', 10), []);
    await store.tombstone('handbook.md');
    assert.deepEqual(await store.searchTitles('crane', 10), [report.itemId]);
  });

  backend.test('entity mentions by key in live indexed items, and the keys that start with a prefix', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    const menu = await indexDocument(store, 'menu.md', CANTEEN_MENU);
    for (const document of [report, memo, menu]) await extractDocument(store, document);
    const exact = await store.entityMentions(['person:carla mendes']);
    assert.deepEqual(
      exact.map((mention) => [mention.itemId, mention.key, mention.type, mention.surface]).sort(),
      [
        [report.itemId, 'person:carla mendes', 'person', 'Ms. Carla Mendes'],
        [memo.itemId, 'person:carla mendes', 'person', 'Ms. Carla Mendes'],
      ].sort(),
    );
    assert.ok(exact.every((mention) => mention.chunkId === (mention.itemId === report.itemId ? report : memo).chunks[0]!.id));
    assert.deepEqual((await store.entityKeysStartingWith(['person:j', 'organisation:lark'])).sort(), ['organisation:larkspur logistics ltd', 'person:jonas weber']);
    const named = await store.entityMentions(['person:jonas weber', 'organisation:larkspur logistics ltd']);
    assert.deepEqual(new Set(named.map((mention) => `${mention.key} ${mention.itemId}`)), new Set([
      `person:jonas weber ${memo.itemId}`,
      `person:jonas weber ${menu.itemId}`,
      `organisation:larkspur logistics ltd ${report.itemId}`,
      `organisation:larkspur logistics ltd ${menu.itemId}`,
    ]));
    assert.deepEqual(await store.entityKeysStartingWith(['person:z']), []);
    assert.deepEqual(await store.entityKeysStartingWith([]), []);
    assert.deepEqual(await store.entityMentions([]), []);
    await store.tombstone('memo.md');
    assert.deepEqual((await store.entityMentions(['person:carla mendes'])).map((mention) => mention.itemId), [report.itemId]);
  });

  backend.test('what a result shows about its item: path, title and when its current bytes were first seen', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    const pending = await ingest(store, 'pending.md', CANTEEN_MENU);
    await indexDocument(store, 'report.md', `${REPORT}\nAddendum.\n`);
    const info = await store.searchItemInfo([report.itemId, memo.itemId, pending.itemId, 'no-such-item']);
    const byId = new Map(info.map((entry) => [entry.itemId, entry]));
    assert.deepEqual([...byId.keys()].sort(), [report.itemId, memo.itemId].sort(), 'live indexed items only');
    const versions = await store.listVersions(report.itemId);
    assert.deepEqual(byId.get(report.itemId), { itemId: report.itemId, path: 'report.md', title: report.title, versionSeenAt: versions.at(-1)!.createdAt });
    assert.equal(byId.get(memo.itemId)!.versionSeenAt, (await store.listVersions(memo.itemId))[0]!.createdAt);
    assert.deepEqual(await store.searchItemInfo([]), []);
  });

  backend.test('passages by id: the records asked for, across items; unknown ids are left out', async (t) => {
    const { store } = await backend.open(t);
    const handbookDocument = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const report = await indexDocument(store, 'report.md', REPORT);
    const wanted = [handbookDocument.chunks[2]!, report.chunks[0]!];
    const found = await store.getChunks([...wanted.map((chunk) => chunk.id), 'no-such-chunk']);
    assert.deepEqual([...found].sort((a, b) => a.id.localeCompare(b.id)), [...wanted].sort((a, b) => a.id.localeCompare(b.id)));
    assert.deepEqual(await store.getChunks([]), []);
  });

  backend.test('the claims of passages: those the passages state, across items, each item\'s in listClaims\' order', async (t) => {
    const { store } = await backend.open(t);
    const handbookDocument = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const report = await indexDocument(store, 'report.md', REPORT);
    await extractDocument(store, report);
    const [first, second, third] = handbookDocument.chunks;
    assert.ok(first && second && third, 'the handbook has three passages');
    const claim = (chunkId: string, start: number, value: number) => ({
      chunkId, kind: 'money' as const, subject: 'gantry crane', attribute: 'cost', value, unit: 'EUR', text: `It cost ${value} EUR.`,
      start, end: start + 10, entityKeys: [], producer: 'deterministic' as const, extractorVersion: 'claims@test',
    });
    // Stored out of order: the look-up orders them as listClaims does.
    const stated = [claim(third.id, 5, 3), claim(second.id, 40, 22), claim(first.id, 0, 1), claim(second.id, 2, 21)];
    assert.equal(await store.storeExtraction(handbookDocument.itemId, handbookDocument.contentHash, { entities: [], claims: stated, phrases: [], versions: 'claims@test' }), true);

    const asked = [
      { itemId: handbookDocument.itemId, chunkId: second.id },
      { itemId: report.itemId, chunkId: report.chunks[0]!.id },
      { itemId: handbookDocument.itemId, chunkId: third.id },
    ];
    const found = await store.claimsInPassages(asked);
    const ofItem = (itemId: string) => found.filter((claim) => claim.itemId === itemId);
    const expected = async (itemId: string) => (await store.listClaims(itemId)).filter((claim) => asked.some((passage) => passage.chunkId === claim.chunkId));
    assert.deepEqual(ofItem(handbookDocument.itemId), await expected(handbookDocument.itemId));
    const values = (claims: StoredClaim[]) => claims.map((claim) => claim.value);
    assert.deepEqual(values(ofItem(handbookDocument.itemId)).sort(), [21, 22, 3].sort(), 'the first passage, not asked for, is left out');
    assert.deepEqual(values(ofItem(handbookDocument.itemId).filter((claim) => claim.chunkId === second.id)), [21, 22], 'by place in the passage');
    assert.ok(ofItem(report.itemId).length >= 1, 'the report states its cost in its first passage');
    assert.deepEqual(ofItem(report.itemId), await expected(report.itemId));
    assert.equal(found.length, ofItem(handbookDocument.itemId).length + ofItem(report.itemId).length);
    const grouped = found.map((claim) => claim.itemId);
    assert.deepEqual(grouped, [...grouped].sort((a, b) => grouped.indexOf(a) - grouped.indexOf(b)), 'each item\'s claims together');
    assert.deepEqual(await store.claimsInPassages([{ itemId: handbookDocument.itemId, chunkId: 'no-such-chunk' }]), []);
    assert.deepEqual(await store.claimsInPassages([]), []);
  });
});
