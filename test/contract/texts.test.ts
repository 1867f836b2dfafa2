// Parse results, passages and lexical search, on every backend: a parse is stored only for the
// item's current bytes, read back as the parser gave it; passages replace each other atomically;
// a failed item serves nothing; BM25 search over items and passages answers best first and takes
// the query syntax people type (phrases, punctuation, function words) without interpreting it.

import assert from 'node:assert/strict';
import { joinBlocks } from '../../server/src/parse/document.ts';
import type { LexicalHit } from '../../server/src/store/contract.ts';
import { forEachBackend } from './backends.ts';
import { BUDGET_MEMO, CANTEEN_MENU, chunksOf, CRANE_HANDBOOK, handbook, hashOf, indexDocument, ingest, parsedTextOf, REPORT } from './documents.ts';

function assertBestFirst(hits: LexicalHit[]): void {
  for (let n = 1; n < hits.length; n += 1) assert.ok(hits[n - 1]!.bm25 >= hits[n]!.bm25, `best first: ${hits.map((hit) => hit.bm25).join(', ')}`);
}

forEachBackend((backend) => {
  backend.test('a parse of the current bytes is stored, read back as the parser gave it, and queues chunking', async (t) => {
    const { store } = await backend.open(t);
    const { itemId } = await ingest(store, 'handbook.md', CRANE_HANDBOOK);
    const parsed = await parsedTextOf('handbook.md', CRANE_HANDBOOK);
    assert.equal(await store.getParsedText(itemId), null);
    assert.equal(await store.recordParse(itemId, parsed, 'Crane handbook'), true);
    assert.deepEqual(await store.getParsedText(itemId), parsed);
    const item = (await store.getItem(itemId))!;
    assert.equal(item.title, 'Crane handbook');
    assert.equal(item.parserVersion, parsed.parserVersion);
    assert.deepEqual(item.flags, parsed.document.flags);
    assert.equal((await store.listJobs()).find((job) => job.stage === 'chunk' && job.subject === itemId)?.status, 'queued');
  });

  backend.test('the stored text is the blocks joined, and its every word is in the item index', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'guide.md', '# Crane guide\n\nThe gantry crane is inspected weekly.\n\n## Faults\n\nA zanzibarite alarm means the hoist brake slipped.\n');
    const parsed = (await store.getParsedText(document.itemId))!;
    assert.equal(parsed.document.text, joinBlocks(parsed.document.blocks));
    assert.match(parsed.document.text, /zanzibarite alarm/);
    assert.deepEqual((await store.searchItemsLexical('zanzibarite', 5)).map((hit) => hit.itemId), [document.itemId]);
  });

  backend.test('a parse is refused for bytes the item no longer holds, for a copy and for a deleted item', async (t) => {
    const { store } = await backend.open(t);
    const { itemId } = await ingest(store, 'report.md', REPORT);
    const old = await parsedTextOf('report.md', REPORT);
    await ingest(store, 'report.md', BUDGET_MEMO);
    assert.equal(await store.recordParse(itemId, old, 'stale'), false);
    assert.equal(await store.getParsedText(itemId), null);
    assert.equal((await store.getItem(itemId))!.title, null);

    const copy = await ingest(store, 'memo copy.md', BUDGET_MEMO);
    assert.equal(copy.kind, 'duplicate');
    assert.equal(await store.recordParse(copy.itemId, await parsedTextOf('memo copy.md', BUDGET_MEMO), 'copy'), false);

    await store.tombstone('report.md');
    assert.equal(await store.recordParse(itemId, await parsedTextOf('report.md', BUDGET_MEMO), 'deleted'), false);
    assert.equal(await store.recordParse('no-such-item', old, 'none'), false);
  });

  backend.test('the stored blocks and headings are read back without the whole document', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const stored = (await store.getStoredBlocks(document.itemId))!;
    assert.equal(stored.contentHash, document.contentHash);
    assert.deepEqual(JSON.parse(stored.blocksJson), document.parsed.document.blocks);
    assert.deepEqual(await store.listHeadings(document.itemId), ['Crane handbook', 'Hoist', 'Rails', 'Cabin']);
    const { itemId: unparsed } = await ingest(store, 'menu.md', CANTEEN_MENU);
    assert.equal(await store.getStoredBlocks(unparsed), null);
    assert.deepEqual(await store.listHeadings(unparsed), []);
    assert.deepEqual(await store.listDocumentLinks(unparsed), []);
  });

  backend.test('a document\'s links are read back as the parser wrote them, without its blocks', async (t) => {
    const { store } = await backend.open(t);
    const text = '# Guide\n\nSee [the build guide](../build/) and [[Release notes]].\n';
    const { itemId } = await ingest(store, 'guide.md', text);
    const parsed = await parsedTextOf('guide.md', text);
    assert.equal(await store.recordParse(itemId, parsed, 'Guide'), true);
    assert.deepEqual(await store.listDocumentLinks(itemId), parsed.document.links);
    assert.deepEqual(
      (await store.listDocumentLinks(itemId)).map((link) => link.target),
      ['../build/', 'Release notes'],
    );
  });

  backend.test('passages of the current bytes replace the item\'s passages, index the item and queue embed and extract', async (t) => {
    const { store } = await backend.open(t);
    const { itemId } = await ingest(store, 'handbook.md', CRANE_HANDBOOK);
    const parsed = await parsedTextOf('handbook.md', CRANE_HANDBOOK);
    await store.recordParse(itemId, parsed, 'Crane handbook');
    const chunks = chunksOf(store, itemId, parsed);
    assert.equal(chunks.length, 3);
    assert.equal(await store.replaceChunks(itemId, parsed.contentHash, chunks), true);
    assert.deepEqual(await store.listChunks(itemId), chunks);
    assert.equal((await store.getItem(itemId))!.status, 'indexed');
    const jobs = await store.listJobs();
    for (const stage of ['embed', 'extract']) assert.equal(jobs.find((job) => job.stage === stage && job.subject === itemId)?.status, 'queued', stage);
    assert.equal(await store.countIndexedItems(), 1);

    // Re-running the stage replaces rather than adds.
    const fewer = chunks.slice(0, 2);
    assert.equal(await store.replaceChunks(itemId, parsed.contentHash, fewer), true);
    assert.deepEqual(await store.listChunks(itemId), fewer);
    assert.equal(await store.countChunks(), 2);
    assert.deepEqual(await store.searchChunksLexical('cabin heater', 5), [], 'the dropped passage left the index');
  });

  backend.test('passages for bytes the item no longer holds are refused and the current ones stay', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const newer = handbook('Crane handbook', [['Hoist', 'hoist motor']]);
    await ingest(store, 'handbook.md', newer);
    assert.equal(await store.replaceChunks(document.itemId, document.contentHash, document.chunks.slice(0, 1)), false);
    assert.deepEqual(await store.listChunks(document.itemId), document.chunks);
    const copy = await ingest(store, 'copy.md', newer);
    assert.equal(copy.kind, 'duplicate');
    assert.equal(await store.replaceChunks(copy.itemId, hashOf(newer), document.chunks), false);
  });

  backend.test('a failed item records the reason and the parser that said so, and serves nothing', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await store.markFailed(document.itemId, 'Markdown nested too deeply to read', 'markdown@99');
    const failed = (await store.getItem(document.itemId))!;
    assert.equal(failed.status, 'failed');
    assert.equal(failed.reason, 'Markdown nested too deeply to read');
    assert.equal(failed.parserVersion, 'markdown@99');
    assert.deepEqual(failed.flags, []);
    assert.deepEqual(await store.listChunks(document.itemId), []);
    assert.deepEqual(await store.searchChunksLexical('hoist', 5), []);
    assert.deepEqual(await store.searchItemsLexical('hoist', 5), []);
    assert.equal(await store.countIndexedItems(), 0);

    await store.markFailed(document.itemId, 'thread limit');
    assert.equal((await store.getItem(document.itemId))!.parserVersion, 'markdown@99', 'kept when no parser is named');
  });

  backend.test('a copy is never marked failed: it has no parse of its own', async (t) => {
    const { store } = await backend.open(t);
    await indexDocument(store, 'report.md', REPORT);
    const copy = await ingest(store, 'copy.md', REPORT);
    await store.markFailed(copy.itemId, 'parse failed');
    assert.equal((await store.getItem(copy.itemId))!.status, 'duplicate');
  });

  backend.test('passages are listed in order per item and counted across the workspace', async (t) => {
    const { store } = await backend.open(t);
    const first = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const second = await indexDocument(store, 'report.md', REPORT);
    assert.deepEqual((await store.listChunks(first.itemId)).map((chunk) => chunk.ordinal), [0, 1, 2]);
    assert.deepEqual(await store.listChunks(second.itemId), second.chunks);
    assert.equal(await store.countChunks(), first.chunks.length + second.chunks.length);
    assert.deepEqual(await store.listChunks('no-such-item'), []);
  });

  backend.test('item search: BM25 over title and text, best first, deleted items left out', async (t) => {
    const { store } = await backend.open(t);
    const handbookDocument = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const report = await indexDocument(store, 'report.md', REPORT);
    const menu = await indexDocument(store, 'menu.md', CANTEEN_MENU);
    const hoist = await store.searchItemsLexical('hoist', 10);
    assert.deepEqual(hoist.map((hit) => hit.itemId), [handbookDocument.itemId, report.itemId], 'twelve mentions rank above one');
    assertBestFirst(hoist);
    assert.ok(hoist.every((hit) => hit.id === hit.itemId && hit.bm25 > 0));
    assert.deepEqual((await store.searchItemsLexical('canteen', 10)).map((hit) => hit.itemId), [menu.itemId], 'the title is searched');
    assert.equal((await store.searchItemsLexical('hoist', 1)).length, 1, 'the limit bounds the hits');
    await store.tombstone('handbook.md');
    assert.deepEqual((await store.searchItemsLexical('hoist', 10)).map((hit) => hit.itemId), [report.itemId]);
  });

  backend.test('passage search: BM25 over passage text, best first, naming the passage and its item', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const report = await indexDocument(store, 'report.md', REPORT);
    const [cabin, ...others] = await store.searchChunksLexical('cabin heater', 10);
    assert.deepEqual(others, []);
    assert.equal(cabin!.id, document.chunks[2]!.id);
    assert.equal(cabin!.itemId, document.itemId);
    const hoist = await store.searchChunksLexical('hoist brake', 10);
    assert.deepEqual(hoist.map((hit) => hit.id), [document.chunks[0]!.id, report.chunks[0]!.id]);
    assertBestFirst(hoist);
    assert.equal((await store.searchChunksLexical('hoist brake', 1)).length, 1);
  });

  backend.test('a typed query is words, not syntax: phrases, punctuation and operators are read as words', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const report = await indexDocument(store, 'report.md', REPORT);
    const phrase = await store.searchItemsLexical('"cabin heater"', 10);
    assert.deepEqual(phrase.map((hit) => hit.itemId), [document.itemId]);
    assert.deepEqual((await store.searchChunksLexical('"cabin heater"', 10)).map((hit) => hit.id), [document.chunks[2]!.id]);
    for (const query of ['title:crane NEAR(a b) "x" OR', 'refurbishment AND (cost', 'cost*', "Mendes' report -crane"]) {
      await store.searchItemsLexical(query, 10);
      await store.searchChunksLexical(query, 10);
    }
    assert.ok((await store.searchItemsLexical('refurbishment AND (cost', 10)).some((hit) => hit.itemId === report.itemId));
    assert.deepEqual(await store.searchItemsLexical('?!', 10), []);
    assert.deepEqual(await store.searchChunksLexical('', 10), []);
  });

  backend.test('function words are left out of a query, so a rare one cannot outrank the words that matter', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    // "did" appears in this one document only, which would make it the rarest (heaviest) query word.
    const other = await indexDocument(store, 'minutes.md', '# Minutes\n\nWho did what at the meeting was written down.\n');
    const hits = await store.searchItemsLexical('What did the refurbishment cost?', 10);
    assert.deepEqual(hits.map((hit) => hit.itemId), [report.itemId]);
    assert.ok(!hits.some((hit) => hit.itemId === other.itemId));
    const functionWordsOnly = (await store.searchItemsLexical('who did what', 10)).map((hit) => hit.itemId);
    if (backend.name === 'sqlite') {
      assert.deepEqual(functionWordsOnly, [other.itemId], 'a query of function words only still finds');
    } else {
      // MongoDB's English text index leaves its stop words out of the index itself, so a query of
      // nothing else finds nothing (docs/SCALE.md, "Differences from SQLite"); it must not fail.
      assert.deepEqual(functionWordsOnly, []);
    }
  });
});
