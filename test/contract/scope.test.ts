// The privacy boundary, on every backend: a store is opened for one workspace (and, on shared
// servers, one folder), and a second workspace at the same location, or the same workspace for a
// second folder, sees nothing of the first through any read of the contract and cannot change it
// through any write that names the first's ids.

import assert from 'node:assert/strict';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { scoreSignals, SCORE_VERSION, sharedEntitySignal } from '../../server/src/scoring/index.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { forEachBackend } from './backends.ts';
import { BUDGET_MEMO, CRANE_HANDBOOK, embedDocument, extractDocument, indexDocument, ingest, MODEL_A, REPORT, unit } from './documents.ts';

const BASIS = 'discover@1|entities@1+claims@1+concepts@2|model-a';

/** A workspace with something of every kind: items, passages, vectors, extraction, a relationship, an alias, jobs, settings, an item's own metadata. */
async function seed(store: WorkspaceStore) {
  const report = await indexDocument(store, 'report.md', REPORT);
  const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
  const handbookDocument = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
  const brief = await indexDocument(store, 'brief.md', '---\nproject: GC-2\n---\n\n# Brief\n\nA brief for the crew.\n');
  for (const document of [report, memo]) await extractDocument(store, document);
  await embedDocument(store, report, MODEL_A, [unit(1, 0, 0, 0)]);
  await embedDocument(store, memo, MODEL_A, [unit(0, 1, 0, 0)]);
  await embedDocument(store, handbookDocument, MODEL_A, [unit(0, 0, 1, 0), unit(0, 0, 0, 1), unit(1, 1, 0, 0)]);
  const signals = [sharedEntitySignal('Ms. Carla Mendes', 'person', 2)];
  const { score } = scoreSignals(signals);
  const relationship = await store.upsertRelationship(
    { fromItemId: report.itemId, toItemId: memo.itemId, type: 'mentions', score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'discover@1' },
    reviewAgainstDecision,
  );
  await store.proposeAliases([{ keyA: 'person:mendes', keyB: 'person:carla mendes', surfaceA: 'Ms. Mendes', surfaceB: 'Ms. Carla Mendes', reason: 'surname' }]);
  const [alias] = await store.listAliases();
  await store.decideAlias(alias!.id, { status: 'confirmed', by: 'ana', note: null });
  await store.recordDiscovery(report.itemId, report.contentHash, BASIS);
  await store.enqueue('ingest', 'secret.md');
  await store.setMeta('embedding.model', MODEL_A.id);
  return { report, memo, handbookDocument, brief, relationshipId: relationship.id, aliasId: alias!.id };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

/** Every read of the contract, from the other store, finds nothing of what `seeded` holds. */
async function assertSeesNothing(other: WorkspaceStore, seeded: Seeded): Promise<void> {
  const { report, memo, handbookDocument, brief } = seeded;
  const itemIds = [report.itemId, memo.itemId, handbookDocument.itemId, brief.itemId];
  const chunkIds = [...report.chunks, ...memo.chunks, ...handbookDocument.chunks].map((chunk) => chunk.id);

  // Items and their texts.
  assert.deepEqual(await other.listItems({ includeDeleted: true }), []);
  assert.deepEqual(await other.livePaths(), []);
  assert.equal(await other.getItemByPath('report.md'), null);
  for (const id of itemIds) {
    assert.equal(await other.getItem(id), null);
    assert.deepEqual(await other.listVersions(id), []);
    assert.equal(await other.getParsedText(id), null);
    assert.equal(await other.getStoredBlocks(id), null);
    assert.deepEqual(await other.listHeadings(id), []);
    assert.deepEqual(await other.listChunks(id), []);
    assert.deepEqual(await other.chunksWithoutVectors(id, MODEL_A.id), []);
  }
  assert.equal(await other.countChunks(), 0);
  assert.equal(await other.countIndexedItems(), 0);
  assert.deepEqual(await other.getChunks(chunkIds), []);

  // Search, lexical and by vector.
  assert.deepEqual(await other.searchItemsLexical('refurbishment hoist cabin', 10), []);
  assert.deepEqual(await other.searchChunksLexical('refurbishment hoist cabin', 10), []);
  assert.deepEqual(await other.searchTitles('crane', 10), []);
  assert.deepEqual(await other.searchItemInfo(itemIds), []);
  await other.registerModel(MODEL_A);
  assert.deepEqual(await other.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 10), []);
  assert.deepEqual(await other.searchVectorsMany(MODEL_A.id, [unit(1, 0, 0, 0), unit(0, 1, 0, 0)], 10), [[], []]);
  assert.deepEqual(await other.bestSimilarities(MODEL_A.id, unit(1, 0, 0, 0), itemIds), []);
  assert.equal(await other.hasVectors(MODEL_A.id), false);
  assert.deepEqual(await other.modelUsage(), [{ ...MODEL_A, vectors: 0, chunks: 0 }]);
  assert.deepEqual(await other.itemsNeedingVectors(MODEL_A.id), []);

  // Extraction and discovery look-ups.
  assert.deepEqual(await other.entitySummaries(), []);
  assert.deepEqual(await other.entityMentions(['person:carla mendes']), []);
  assert.deepEqual(await other.entityKeysStartingWith(['person:', 'organisation:']), []);
  assert.deepEqual(await other.listEntities(report.itemId), []);
  assert.deepEqual(await other.listClaims(report.itemId), []);
  assert.deepEqual(await other.listPhrases(report.itemId), []);
  assert.equal((await other.phraseDocumentFrequencies(['gantry crane'])).get('gantry crane') ?? 0, 0);
  assert.deepEqual(await other.itemsNeedingExtraction('any'), []);
  assert.deepEqual(await other.itemsNeedingDiscovery(BASIS), []);
  assert.deepEqual(await other.itemsWithContentHash(report.contentHash, '', 10), []);
  assert.equal((await other.entityItemCounts(['person:carla mendes'], 10)).get('person:carla mendes') ?? 0, 0);
  assert.equal((await other.phraseItemCounts(['gantry crane'], 10)).get('gantry crane') ?? 0, 0);
  assert.deepEqual(await other.itemsMentioning('person:carla mendes', '', 10), []);
  assert.deepEqual(await other.itemsWithClaimsOn('money', 'cost', 'EUR', '', 10), []);
  const facts = await other.discoveryFacts(itemIds, MODEL_A.id, 10);
  const none = { entities: [], claims: [], phrases: [], vectors: [], metadata: [] };
  for (const id of itemIds) assert.deepEqual(facts.get(id) ?? none, none);
  const gc2 = { key: 'project', value: 'gc-2' };
  assert.deepEqual(await other.listMetadata(brief.itemId), []);
  assert.equal((await other.metadataItemCounts([gc2], 10)).size, 0);
  assert.deepEqual(await other.itemsWithMetadata(gc2, '', 10), []);

  // Relationships and aliases.
  assert.deepEqual(await other.listRelationships(), []);
  assert.equal(await other.getRelationship(seeded.relationshipId), null);
  assert.equal(await other.relationshipBetween(report.itemId, memo.itemId), null);
  assert.deepEqual(await other.relationshipsTouching(itemIds), []);
  assert.deepEqual(await other.relationshipHistory(seeded.relationshipId), []);
  assert.deepEqual(await other.listAliases(), []);
  assert.equal((await other.confirmedAliases(['person:mendes'])).size, 0);

  // The queue and metadata.
  assert.deepEqual(await other.listJobs(), []);
  assert.equal(await other.pendingJobs(), 0);
  assert.deepEqual(await other.jobCounts(), []);
  assert.deepEqual(await other.leases(), []);
  assert.equal(await other.claim('host/9/other', 60_000), null);
  assert.equal(await other.getMeta('embedding.model'), null);
}

/** Writes from the other store naming the first store's ids and paths change nothing there. */
async function assertCannotTouch(other: WorkspaceStore, owner: WorkspaceStore, seeded: Seeded): Promise<void> {
  const { report, memo } = seeded;
  assert.equal(await other.recordParse(report.itemId, report.parsed, 'taken over'), false);
  assert.equal(await other.replaceChunks(report.itemId, report.contentHash, []), false);
  assert.equal(await other.storeVectors(report.itemId, report.contentHash, MODEL_A, [{ chunkId: report.chunks[0]!.id, window: 0, start: 0, end: 1, vector: unit(0, 0, 0, 1) }]), false);
  assert.equal(await other.storeExtraction(report.itemId, report.contentHash, { entities: [], claims: [], phrases: [], versions: 'v' }), false);
  await other.markFailed(report.itemId, 'not yours');
  await assert.rejects(other.decideRelationship(seeded.relationshipId, () => ({ status: 'rejected', by: 'eve', note: null, score: 0, signals: [], basis: { type: 'mentions', evidence: [] } })));
  await assert.rejects(other.decideAlias(seeded.aliasId, { status: 'rejected', by: 'eve', note: null }));
  await assert.rejects(other.forgetItems([report.itemId]));
  await other.resetDiscovery(null);
  assert.deepEqual(await other.tombstone('report.md'), []);
  await other.recordSkipped('memo.md', 'not yours', 1);
  await other.releaseLeases(() => true);

  const item = (await owner.getItem(report.itemId))!;
  assert.equal(item.status, 'indexed');
  assert.equal(item.title, report.title);
  assert.equal(item.deletedAt, null);
  assert.equal((await owner.getItem(memo.itemId))!.status, 'indexed');
  assert.deepEqual(await owner.listChunks(report.itemId), report.chunks);
  assert.equal((await owner.listEntities(report.itemId)).length > 0, true);
  assert.equal((await owner.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 1))[0]?.chunkId, report.chunks[0]!.id);
  assert.equal((await owner.getRelationship(seeded.relationshipId))!.status, 'pending');
  assert.equal((await owner.listAliases())[0]!.status, 'confirmed');
  assert.ok(!(await owner.itemsNeedingDiscovery(BASIS)).includes(report.itemId), 'its discovery record stands');
  assert.deepEqual(await owner.itemsWithMetadata({ key: 'project', value: 'gc-2' }, '', 10), [seeded.brief.itemId]);
}

forEachBackend((backend) => {
  backend.test('a second workspace at the same location sees nothing of the first and cannot change it', async (t) => {
    const site = backend.site(t);
    const { store: alice } = await site.open({ workspace: 'alice' });
    const seeded = await seed(alice);
    const { store: bob } = await site.open({ workspace: 'bob' });
    await assertSeesNothing(bob, seeded);
    await assertCannotTouch(bob, alice, seeded);
  });

  backend.test('the same workspace for a second folder on the same servers sees nothing of the first', async (t) => {
    const site = backend.site(t);
    const { store: first } = await site.open({ workspace: 'alice', folder: 'contracts' });
    const seeded = await seed(first);
    const { store: second } = await site.open({ workspace: 'alice', folder: 'minutes' });
    await assertSeesNothing(second, seeded);
    await assertCannotTouch(second, first, seeded);
  });

  backend.test('two workspaces holding the same file each get an item of their own', async (t) => {
    const site = backend.site(t);
    const { store: alice } = await site.open({ workspace: 'alice' });
    const { store: bob } = await site.open({ workspace: 'bob' });
    const mine = await indexDocument(alice, 'report.md', REPORT);
    const theirs = await ingest(bob, 'report.md', REPORT);
    assert.equal(theirs.kind, 'created', 'not unchanged, not a copy of the other workspace\'s item');
    assert.notEqual(theirs.itemId, mine.itemId);
    await bob.tombstone('report.md');
    assert.equal((await alice.getItem(mine.itemId))!.deletedAt, null);
    assert.deepEqual((await alice.searchItemsLexical('refurbishment', 5)).map((hit) => hit.itemId), [mine.itemId]);
  });

  backend.test('what the first workspace holds is still all there for it', async (t) => {
    const site = backend.site(t);
    const { store: alice } = await site.open({ workspace: 'alice' });
    const seeded = await seed(alice);
    await site.open({ workspace: 'bob' });
    assert.equal((await alice.listItems()).length, 4);
    assert.equal(await alice.countChunks(), [seeded.report, seeded.memo, seeded.handbookDocument, seeded.brief].reduce((total, document) => total + document.chunks.length, 0));
    assert.equal((await alice.listMetadata(seeded.brief.itemId)).length, 1);
    assert.equal((await alice.searchVectors(MODEL_A.id, unit(1, 0, 0, 0), 10)).length, 5);
    assert.equal((await alice.listRelationships()).length, 1);
    assert.equal((await alice.listJobs()).some((job) => job.subject === 'secret.md'), true);
    assert.ok((await alice.entitySummaries()).some((summary) => summary.key === 'person:carla mendes'));
    assert.equal(await alice.getMeta('embedding.model'), MODEL_A.id);
  });
});
