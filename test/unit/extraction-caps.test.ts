// What extraction keeps for one item is capped by design (server/src/extract/caps.ts): over a
// cap, exactly the cap is kept (the most frequent key phrases; claims and entity mentions evenly
// spread over the document) and the item is flagged extraction_capped; under it, nothing changes.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { EvenSample, EXTRACTION_CAPS } from '../../server/src/extract/caps.ts';
import { countPhrases, topPhrases } from '../../server/src/extract/concepts.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { extractionOf } from '../../server/src/pipeline/stages/extract.ts';
import { largeDocument } from '../support/largeDocuments.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

/** Passages of generated prose with names, dates, codes and figures: every extractor finds something. */
function passages(count: number) {
  const text = largeDocument(count * 1_200, 'text', 5);
  const paragraphs = text.split('\n\n');
  return paragraphs.map((paragraph, n) => ({ id: `c${n}`, text: paragraph, headingPath: [] as string[] }));
}

test('EvenSample: a stream over the cap gives exactly the cap, in order, spread from start to end', () => {
  for (const total of [11, 19, 20, 21, 1_000, 12_345]) {
    const sample = new EvenSample<number>(10);
    for (let n = 0; n < total; n++) sample.offer(n);
    const kept = sample.take();
    assert.equal(kept.length, 10, `${total} items`);
    assert.deepEqual([...kept].sort((a, b) => a - b), kept, 'in stream order');
    assert.equal(new Set(kept).size, 10, 'no item twice');
    assert.equal(kept[0], 0);
    assert.ok(kept.at(-1)! >= total * 0.8, `the last kept (${kept.at(-1)}) is near the end of ${total}`);
    assert.equal(sample.seen, total);
  }
});

test('EvenSample: a stream at or under the cap comes back whole', () => {
  for (const total of [0, 1, 10]) {
    const sample = new EvenSample<number>(10);
    for (let n = 0; n < total; n++) sample.offer(n);
    assert.deepEqual(sample.take(), Array.from({ length: total }, (_, n) => n));
  }
});

test('topPhrases over the limit keeps exactly the top-ranked phrases with their exact counts', () => {
  const text = largeDocument(200_000, 'text', 3);
  const all = countPhrases(text);
  assert.ok(all.length > 2_000, `the input has ${all.length} phrases`);
  // Up to 8 × limit distinct phrases are held while counting: here all of them, so counting is exact.
  const limit = Math.ceil(all.length / 4);
  const top = topPhrases(text, [], limit);
  assert.equal(top.phrases.length, limit);
  assert.deepEqual(top.phrases, all.slice(0, limit));
  assert.deepEqual([top.found, top.exact], [all.length, true]);
});

test('topPhrases with more distinct phrases than it holds still keeps the limit, all from the true top', () => {
  const text = largeDocument(200_000, 'text', 3);
  const all = countPhrases(text);
  const trueCount = new Map(all.map((phrase) => [phrase.key, phrase.count]));
  // 2,400 held at most (8 × limit) against 6,000 distinct, about the ratio of a 50 MB text under
  // the default cap: the rarest are dropped while counting.
  const limit = 300;
  assert.ok(all.length > 2.5 * 8 * limit, `the input has ${all.length} phrases`);
  const top = topPhrases(text, [], limit);
  assert.equal(top.phrases.length, limit);
  assert.equal(top.exact, false);
  const boundary = all[limit - 1]!.count;
  for (const phrase of top.phrases) {
    assert.ok(trueCount.get(phrase.key)! >= boundary, `"${phrase.key}" is among the top ${limit} (ties included)`);
    assert.ok(phrase.count <= trueCount.get(phrase.key)!, 'a count is never overstated');
  }
  const exact = top.phrases.filter((phrase) => phrase.count === trueCount.get(phrase.key)).length;
  assert.ok(exact >= 0.9 * limit, `${exact} of ${limit} counts exact`);
});

test('topPhrases under the limit is countPhrases unchanged', () => {
  const text = largeDocument(20_000, 'text', 3);
  const all = countPhrases(text);
  assert.deepEqual(topPhrases(text, [], all.length).phrases, all);
  assert.deepEqual(topPhrases(text, [], EXTRACTION_CAPS.phrases), { phrases: all, found: all.length, exact: true });
});

test('extractionOf over each cap keeps exactly the cap and says so; under the caps it is untouched', () => {
  const chunks = passages(200);
  const full = extractionOf('Operations log', chunks, []);
  assert.equal(full.capped, undefined, 'the default caps do not touch an ordinary document');
  assert.ok(full.entities.length > 40 && full.claims.length > 40 && full.phrases.length > 40, 'every extractor found more than the small caps');

  const caps = { phrases: 30, claims: 20, entities: 25 };
  const capped = extractionOf('Operations log', chunks, [], caps);
  assert.equal(capped.phrases.length, 30);
  assert.deepEqual(capped.phrases, full.phrases.slice(0, 30), 'the most frequent key phrases');
  assert.equal(capped.claims.length, 20);
  assert.equal(capped.entities.length, 25);
  // Claims and mentions are kept from across the document, in document order, as found.
  const order = (chunkId: string) => Number(chunkId.slice(1));
  for (const kept of [capped.claims, capped.entities]) {
    const ordinals = kept.map((result) => order(result.chunkId));
    assert.deepEqual([...ordinals].sort((a, b) => a - b), ordinals);
    assert.ok(ordinals[0]! < 20 && ordinals.at(-1)! > 160, `spread from passage ${ordinals[0]} to ${ordinals.at(-1)}`);
  }
  for (const claim of capped.claims) assert.ok(full.claims.some((c) => c.chunkId === claim.chunkId && c.start === claim.start && c.text === claim.text));
  assert.match(
    capped.capped ?? '',
    new RegExp(`kept 30 of about [\\d,]+ key phrases, 20 of ${full.claims.length.toLocaleString('en')} claims, 25 of ${full.entities.length.toLocaleString('en')} entity mentions`),
  );

  const roomy = { phrases: full.phrases.length, claims: full.claims.length, entities: full.entities.length };
  assert.deepEqual(extractionOf('Operations log', chunks, [], roomy), full, 'at exactly the counts, nothing changes');
});

test('a capped extraction flags the item extraction_capped, and an uncapped one clears the flag', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'log.txt': largeDocument(60_000, 'text', 7) });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'caps', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const item = (await index.store.listItems())[0]!;
  assert.deepEqual(item.flags, []);
  const chunks = (await index.store.listChunks(item.id)).map(({ id, text, headingPath }) => ({ id, text, headingPath }));

  const capped = extractionOf(item.title, chunks, [], { phrases: 10, claims: 5, entities: 5 });
  assert.ok(capped.capped);
  assert.equal(await index.store.storeExtraction(item.id, item.contentHash!, capped), true);
  assert.deepEqual((await index.store.getItem(item.id))!.flags, ['extraction_capped']);
  assert.equal((await index.store.listPhrases(item.id)).length, 10);
  assert.equal((await index.store.listClaims(item.id)).length, 5);
  assert.equal((await index.store.listEntities(item.id)).length, 5);
  const report = await index.index();
  assert.deepEqual(report.files.find((file) => file.path.endsWith('log.txt'))?.flags, ['extraction_capped'], 'the index report shows the flag');

  assert.equal(await index.store.storeExtraction(item.id, item.contentHash!, extractionOf(item.title, chunks, [])), true);
  assert.deepEqual((await index.store.getItem(item.id))!.flags, []);
});
