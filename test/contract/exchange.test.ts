// Export and import through the contract, on every backend: a store yields every record it holds
// for its workspace, kind by kind; an empty store of the same backend loads them and yields them
// back record for record, answering as the original does with nothing queued; a store that holds
// something refuses an import before taking a record. (The export directory, its files and the
// command line are tested on SQLite in test/integration/exportImport.test.ts.)

import assert from 'node:assert/strict';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { decide } from '../../server/src/engine/relationships.ts';
import { scoreSignals, SCORE_VERSION, sharedEntitySignal } from '../../server/src/scoring/index.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { EXCHANGE_KINDS, ImportTargetNotEmptyError, type ExchangeRecord } from '../../server/src/store/exchange/records.ts';
import { forEachBackend } from './backends.ts';
import { BUDGET_MEMO, CANTEEN_MENU, CRANE_HANDBOOK, embedDocument, extractDocument, indexDocument, ingest, MODEL_A, REPORT, unit } from './documents.ts';

async function collect(records: AsyncIterable<ExchangeRecord>): Promise<ExchangeRecord[]> {
  const all: ExchangeRecord[] = [];
  for await (const record of records) all.push(record);
  return all;
}

async function* replay(records: readonly ExchangeRecord[], taken: { count: number } = { count: 0 }): AsyncIterable<ExchangeRecord> {
  for (const record of records) {
    taken.count += 1;
    yield record;
  }
}

/** A workspace holding every kind of record, in the states a round trip must keep. */
async function everyKind(store: WorkspaceStore): Promise<void> {
  await store.setMeta('folder_root', '/home/ana/contracts');
  const report = await indexDocument(store, 'report.md', REPORT);
  const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
  await indexDocument(store, 'memo.md', `${BUDGET_MEMO}\nAmended in April.\n`);
  const handbookDocument = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
  await indexDocument(store, 'brief.md', '---\nproject: GC-2\ntags: cranes; safety\nauthor: Ana\n---\n\n# Brief\n\nA brief for the crew.\n');
  await ingest(store, 'copy of report.md', REPORT);
  const gone = await indexDocument(store, 'menu.md', CANTEEN_MENU);
  await store.tombstone('menu.md');
  await store.forgetItems([gone.itemId]);
  await extractDocument(store, report);
  await embedDocument(store, report, MODEL_A, [unit(1, 0, 0, 0)]);
  await embedDocument(store, handbookDocument, MODEL_A, [unit(0, 1, 0, 0), unit(0, 0, 1, 0), unit(0, 0, 0, 1)]);
  await store.recordDiscovery(report.itemId, report.contentHash, 'discover@1|x|model-a');
  const signals = [sharedEntitySignal('Ms. Carla Mendes', 'person', 2)];
  const { score } = scoreSignals(signals);
  const { id } = await store.upsertRelationship(
    { fromItemId: report.itemId, toItemId: memo.itemId, type: 'mentions', score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'discover@1' },
    reviewAgainstDecision,
  );
  await decide(store, id, { status: 'confirmed', by: 'ana', note: 'same inspection' });
  await store.proposeAliases([{ keyA: 'person:mendes', keyB: 'person:carla mendes', surfaceA: 'Ms. Mendes', surfaceB: 'Ms. Carla Mendes', reason: 'surname' }]);
}

forEachBackend((backend) => {
  backend.test('an export loaded into an empty store is exported again record for record, and answers as the original', async (t) => {
    const { store: original } = await backend.open(t);
    await everyKind(original);
    const exported = await collect(original.exportRecords());

    const order = exported.map((record) => EXCHANGE_KINDS.indexOf(record.record));
    assert.ok(order.every((kind, n) => kind >= 0 && (n === 0 || kind >= order[n - 1]!)), 'kind by kind, in EXCHANGE_KINDS order');
    const kinds = new Set(exported.map((record) => record.record));
    assert.deepEqual(EXCHANGE_KINDS.filter((kind) => !kinds.has(kind)), [], 'the workspace holds every kind of record');
    assert.ok(!exported.some((record) => 'stage' in record), 'the job queue is not exported');

    const { store: restored } = await backend.open(t);
    const counts = await restored.importRecords(replay(exported));
    for (const kind of EXCHANGE_KINDS) assert.equal(counts[kind], exported.filter((record) => record.record === kind).length, kind);
    assert.deepEqual(await collect(restored.exportRecords()), exported);

    assert.deepEqual(await restored.listJobs(), [], 'nothing is queued by an import');
    assert.deepEqual(await restored.listItems({ includeDeleted: true }), await original.listItems({ includeDeleted: true }));
    // The same hits in the same order. Not the same BM25 figures: an index's statistics may still
    // count entries of forgotten or replaced texts in the original (SQLite FTS5 does), not in a fresh one.
    const ranked = async (store: WorkspaceStore, search: 'searchItemsLexical' | 'searchChunksLexical', query: string) => (await store[search](query, 5)).map((hit) => hit.id);
    for (const query of ['refurbishment cost', 'cabin heater', 'hoist']) {
      for (const search of ['searchItemsLexical', 'searchChunksLexical'] as const) {
        const hits = await ranked(original, search, query);
        assert.ok(hits.length > 0, `${search} finds ${query}`);
        assert.deepEqual(await ranked(restored, search, query), hits, `${search} ${query}`);
      }
    }
    assert.deepEqual(await restored.searchVectors(MODEL_A.id, unit(1, 1, 0, 0), 5), await original.searchVectors(MODEL_A.id, unit(1, 1, 0, 0), 5));
    const [relationship] = await original.listRelationships();
    assert.deepEqual(await restored.listRelationships(), [relationship]);
    assert.deepEqual(await restored.relationshipHistory(relationship!.id), await original.relationshipHistory(relationship!.id));
    assert.deepEqual(await restored.listAliases(), await original.listAliases());
    assert.deepEqual(await restored.entitySummaries(), await original.entitySummaries());
    assert.deepEqual(await restored.modelUsage(), await original.modelUsage());
    // Metadata travels in the parsed document and is indexed again by the import.
    const brief = (await original.getItemByPath('brief.md'))!;
    const metadata = await original.listMetadata(brief.id);
    assert.equal(metadata.length, 4);
    assert.deepEqual(await restored.listMetadata(brief.id), metadata);
    assert.deepEqual(await restored.metadataItemCounts(metadata, 10), await original.metadataItemCounts(metadata, 10));
    assert.equal(await restored.getMeta('folder_root'), '/home/ana/contracts');
  });

  backend.test('an import into a store that holds something for its workspace is refused before a record is taken', async (t) => {
    const { store: original } = await backend.open(t);
    await indexDocument(original, 'report.md', REPORT);
    const exported = await collect(original.exportRecords());
    const { store: target } = await backend.open(t);
    await ingest(target, 'memo.md', BUDGET_MEMO);
    const taken = { count: 0 };
    await assert.rejects(target.importRecords(replay(exported, taken)), ImportTargetNotEmptyError);
    assert.equal(taken.count, 0);
    assert.deepEqual((await target.listItems()).map((item) => item.path), ['memo.md']);
  });
});
