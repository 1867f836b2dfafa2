// Items and ingest, on every backend: what recordIngest decides for one file's bytes (created, a
// new version, unchanged, renamed, a duplicate, the preferred original among identical files),
// a person choosing the original, skipped, unreadable and deleted files, and forgetting.

import assert from 'node:assert/strict';
import { sharedEntitySignal, scoreSignals, SCORE_VERSION } from '../../server/src/scoring/index.ts';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import type { IngestRun } from '../../server/src/store/contract.ts';
import { forEachBackend } from './backends.ts';
import { isUnread } from '../../shared/unreadFiles.ts';
import { BUDGET_MEMO, chunksOf, CRANE_HANDBOOK, extractDocument, hashOf, indexDocument, ingest, parsedTextOf, REPORT } from './documents.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A run in which every file was written at the same moment, so only the path decides. */
const runStartingNow = (): IngestRun => ({ startedAt: new Date().toISOString(), modifiedMs: () => 1_000 });

forEachBackend((backend) => {
  backend.test("a file's check is kept for its live item, and listed for indexed items and copies only, with the parser that read it", async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    await ingest(store, 'copy.md', REPORT);
    await ingest(store, 'pending.md', BUDGET_MEMO);
    const gone = await indexDocument(store, 'gone.md', CRANE_HANDBOOK);
    const seen = (n: number) => ({ size: 100 + n, mtimeMs: 1_000.5 + n, ctimeMs: 2_000.25 + n, checkedMs: 90_000 + n });
    for (const [n, file] of ['report.md', 'copy.md', 'pending.md', 'gone.md'].entries()) await store.recordFileCheck(file, seen(n));
    await store.tombstone(gone.path);
    // A path with no live item records nothing.
    await store.recordFileCheck('nowhere.md', seen(9));
    const checks = (await store.fileChecks()).sort((a, b) => a.path.localeCompare(b.path));
    assert.deepEqual(checks, [
      { path: 'copy.md', ...seen(1), parserVersion: null, duplicate: true },
      { path: 'report.md', ...seen(0), parserVersion: report.parsed.parserVersion, duplicate: false },
    ]);
    // A later check replaces the earlier one.
    await store.recordFileCheck('report.md', seen(5));
    assert.deepEqual((await store.fileChecks()).find((check) => check.path === 'report.md'), { path: 'report.md', ...seen(5), parserVersion: report.parsed.parserVersion, duplicate: false });
  });

  backend.test('the counts per state are what listing every live item and counting gives, an unread file apart from the indexed', async (t) => {
    const { store } = await backend.open(t);
    await ingest(store, 'pending.md', '# Pending\n\nnot parsed yet\n');
    await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await indexDocument(store, 'report.md', REPORT);
    await store.recordSkipped('video.mp4', 'unsupported file type .mp4', 12_000_000);
    await store.recordFailed('broken.pdf', 'not a PDF: no header');
    await indexDocument(store, 'memo.md', BUDGET_MEMO);
    await store.tombstone('memo.md');
    // A scan that gave (almost) no text: indexed, flagged, counted as unread.
    const scan = await ingest(store, 'scan.md', '# Scan\n\n.\n');
    const parsed = await parsedTextOf('scan.md', '# Scan\n\n.\n');
    parsed.document.flags = ['little_text'];
    assert.ok(await store.recordParse(scan.itemId, parsed, 'Scan'));
    assert.ok(await store.replaceChunks(scan.itemId, parsed.contentHash, chunksOf(store, scan.itemId, parsed)));

    const listed = { pending: 0, indexed: 0, failed: 0, skipped: 0, duplicate: 0, unread: 0 };
    for (const item of await store.listItems()) {
      if (isUnread(item)) listed.unread += 1;
      else if (item.status !== 'deleted') listed[item.status] += 1;
    }
    assert.deepEqual(listed, { pending: 1, indexed: 2, failed: 1, skipped: 1, duplicate: 0, unread: 1 });
    assert.deepEqual(await store.countItemsByState(), listed);
  });

  backend.test('a first ingest creates a pending item at version 1 and queues its parse', async (t) => {
    const { store } = await backend.open(t);
    const outcome = await ingest(store, 'notes/a.md', '# A\n\nalpha\n');
    assert.equal(outcome.kind, 'created');
    const item = (await store.getItem(outcome.itemId))!;
    assert.equal(item.path, 'notes/a.md');
    assert.equal(item.status, 'pending');
    assert.equal(item.contentHash, hashOf('# A\n\nalpha\n'));
    assert.equal(item.size, 11);
    assert.equal(item.version, 1);
    assert.equal(item.duplicateOf, null);
    assert.equal(item.deletedAt, null);
    assert.equal(item.forgottenAt, null);
    assert.deepEqual(item.flags, []);
    assert.deepEqual(await store.getItemByPath('notes/a.md'), item);
    const [version, ...more] = await store.listVersions(item.id);
    assert.equal(more.length, 0);
    assert.deepEqual({ ...version!, createdAt: undefined }, { version: 1, contentHash: item.contentHash, size: 11, createdAt: undefined });
    assert.deepEqual((await store.listJobs()).map((job) => [job.stage, job.subject, job.status]), [['parse', item.id, 'queued']]);
    assert.equal(await store.getItem('no-such-item'), null);
    assert.equal(await store.getItemByPath('notes/b.md'), null);
  });

  backend.test('the same bytes at the same path are unchanged, and nothing is queued', async (t) => {
    const { store } = await backend.open(t);
    const first = await ingest(store, 'a.md', '# A\n\nalpha\n');
    const parse = (await store.claim('w', 60_000))!;
    await store.complete(parse, 'w');
    assert.deepEqual(await ingest(store, 'a.md', '# A\n\nalpha\n'), { kind: 'unchanged', itemId: first.itemId });
    assert.equal((await store.getItem(first.itemId))!.version, 1);
    assert.equal((await store.listVersions(first.itemId)).length, 1);
    assert.equal(await store.pendingJobs(), 0);
  });

  backend.test('new bytes at a path are a new version of the same item, parsed again', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    const changed = `${CRANE_HANDBOOK}\nOne more line.\n`;
    assert.deepEqual(await ingest(store, 'handbook.md', changed), { kind: 'new_version', itemId: document.itemId });
    const item = (await store.getItem(document.itemId))!;
    assert.equal(item.version, 2);
    assert.equal(item.contentHash, hashOf(changed));
    assert.equal(item.status, 'pending');
    assert.deepEqual((await store.listVersions(document.itemId)).map((v) => [v.version, v.contentHash]), [
      [1, document.contentHash],
      [2, hashOf(changed)],
    ]);
    const parse = (await store.listJobs()).find((job) => job.stage === 'parse' && job.subject === document.itemId);
    assert.equal(parse?.status, 'queued');
  });

  backend.test('bytes that moved to a new path keep their identity: renamed', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'old/report.md', REPORT);
    const outcome = await ingest(store, 'new/report.md', REPORT, (file) => file !== 'old/report.md');
    assert.deepEqual(outcome, { kind: 'renamed', itemId: document.itemId, fromPath: 'old/report.md', needsParse: false });
    assert.equal(await store.getItemByPath('old/report.md'), null);
    const moved = (await store.getItemByPath('new/report.md'))!;
    assert.equal(moved.id, document.itemId);
    assert.equal(moved.status, 'indexed', 'a rename keeps what was derived from the bytes');
    assert.equal((await store.listChunks(moved.id)).length, document.chunks.length);
    assert.deepEqual(await store.livePaths(), ['new/report.md']);
  });

  backend.test('a deleted item whose bytes reappear at another path is revived and needs parsing', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'report.md', REPORT);
    await store.tombstone('report.md');
    const outcome = await ingest(store, 'archive/report.md', REPORT);
    assert.deepEqual(outcome, { kind: 'renamed', itemId: document.itemId, fromPath: 'report.md', needsParse: true });
    const item = (await store.getItem(document.itemId))!;
    assert.equal(item.path, 'archive/report.md');
    assert.equal(item.deletedAt, null);
    assert.equal(item.status, 'pending');
    const parse = (await store.listJobs()).find((job) => job.stage === 'parse' && job.subject === document.itemId);
    assert.equal(parse?.status, 'queued');
  });

  backend.test('identical bytes at a second live path are a duplicate of the first, not parsed again', async (t) => {
    const { store } = await backend.open(t);
    const original = await indexDocument(store, 'report.md', REPORT);
    const jobsBefore = (await store.listJobs()).length;
    const outcome = await ingest(store, 'copy of report.md', REPORT);
    assert.equal(outcome.kind, 'duplicate');
    assert.equal(outcome.kind === 'duplicate' && outcome.duplicateOf, original.itemId);
    assert.notEqual(outcome.itemId, original.itemId);
    const copy = (await store.getItem(outcome.itemId))!;
    assert.equal(copy.status, 'duplicate');
    assert.equal(copy.duplicateOf, original.itemId);
    assert.equal(copy.contentHash, original.contentHash);
    assert.deepEqual(await store.listChunks(copy.id), []);
    assert.equal((await store.listJobs()).length, jobsBefore, 'nothing to parse for a copy');
    assert.equal(await store.countChunks(), original.chunks.length, 'the text is stored once');
    assert.deepEqual(await ingest(store, 'copy of report.md', REPORT), { kind: 'unchanged', itemId: copy.id });
  });

  backend.test('among identical files first seen in one run, the preferred original wins whatever the read order', async (t) => {
    for (const order of [['archive/report.md', 'report.md'], ['report.md', 'archive/report.md']]) {
      const { store } = await backend.open(t);
      const run = runStartingNow();
      for (const file of order) await ingest(store, file, REPORT, () => true, run);
      const original = (await store.getItemByPath('report.md'))!;
      const copy = (await store.getItemByPath('archive/report.md'))!;
      assert.notEqual(original.status, 'duplicate', `read ${order.join(' then ')}`);
      assert.equal(copy.status, 'duplicate');
      assert.equal(copy.duplicateOf, original.id);
    }
  });

  backend.test('an original established before the run is never displaced by a preferred newcomer', async (t) => {
    const { store } = await backend.open(t);
    const established = await ingest(store, 'archive/report.md', REPORT);
    await sleep(5);
    const outcome = await ingest(store, 'report.md', REPORT, () => true, runStartingNow());
    assert.equal(outcome.kind, 'duplicate');
    assert.equal(outcome.kind === 'duplicate' && outcome.duplicateOf, established.itemId);
  });

  backend.test('a person chooses the original: the former original and its other copies follow it', async (t) => {
    const { store } = await backend.open(t);
    const a = await indexDocument(store, 'a.md', REPORT);
    const b = await ingest(store, 'b.md', REPORT);
    const c = await ingest(store, 'c.md', REPORT);
    assert.deepEqual(await store.chooseOriginal('b.md'), { itemId: b.itemId, formerOriginalId: a.itemId });
    const chosen = (await store.getItem(b.itemId))!;
    assert.equal(chosen.duplicateOf, null);
    assert.equal(chosen.status, 'pending', 'its bytes are parsed again');
    assert.equal((await store.listJobs()).find((job) => job.stage === 'parse' && job.subject === b.itemId)?.status, 'queued');
    assert.equal((await store.getItem(a.itemId))!.status, 'duplicate');
    assert.equal((await store.getItem(a.itemId))!.duplicateOf, b.itemId);
    assert.deepEqual(await store.listChunks(a.itemId), [], 'nothing of the former original is served');
    assert.equal((await store.getItem(c.itemId))!.duplicateOf, b.itemId);
    await assert.rejects(store.chooseOriginal('b.md'), (error: Error) => error.message.includes('b.md'), 'an original is refused, by path');
    await assert.rejects(store.chooseOriginal('nowhere.md'), (error: Error) => error.message.includes('nowhere.md'));
  });

  backend.test('a skipped file is recorded with its reason and size, and a skipped item stops being served', async (t) => {
    const { store } = await backend.open(t);
    await store.recordSkipped('video.mp4', 'unsupported file type .mp4', 12_000_000);
    const skipped = (await store.getItemByPath('video.mp4'))!;
    assert.equal(skipped.status, 'skipped');
    assert.equal(skipped.reason, 'unsupported file type .mp4');
    assert.equal(skipped.size, 12_000_000);
    assert.equal(skipped.contentHash, null);

    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await store.recordSkipped('handbook.md', 'larger than 0.001 MB', 4_000);
    const item = (await store.getItem(document.itemId))!;
    assert.equal(item.status, 'skipped');
    assert.equal(item.reason, 'larger than 0.001 MB');
    assert.equal(await store.countChunks(), 0);
    assert.deepEqual(await store.searchChunksLexical('hoist', 5), []);
    assert.deepEqual((await store.listItems()).map((i) => i.path), ['handbook.md', 'video.mp4']);
  });

  backend.test('an unreadable file fails its item with the reason, keeps its id, and hands its copies back for ingest', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'report.md', REPORT);
    await ingest(store, 'copy.md', REPORT);
    assert.deepEqual(await store.recordFailed('report.md', 'EACCES: permission denied'), ['copy.md']);
    const failed = (await store.getItem(document.itemId))!;
    assert.equal(failed.status, 'failed');
    assert.equal(failed.reason, 'EACCES: permission denied');
    assert.equal(failed.contentHash, null, 'the bytes there are unknown now');
    assert.equal(await store.countChunks(), 0);
    assert.deepEqual(await ingest(store, 'report.md', REPORT), { kind: 'new_version', itemId: document.itemId }, 'readable again: same identity');

    assert.deepEqual(await store.recordFailed('locked.md', 'EACCES: permission denied'), []);
    const first = (await store.getItemByPath('locked.md'))!;
    assert.equal(first.status, 'failed');
    assert.equal(first.reason, 'EACCES: permission denied');
  });

  backend.test('a deleted file is tombstoned: kept, never served, its copies handed back', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await ingest(store, 'copy.md', CRANE_HANDBOOK);
    await indexDocument(store, 'report.md', REPORT);
    assert.deepEqual(await store.tombstone('handbook.md'), ['copy.md']);
    assert.equal(await store.getItemByPath('handbook.md'), null);
    const tombstone = (await store.getItem(document.itemId))!;
    assert.equal(tombstone.status, 'deleted');
    assert.ok(tombstone.deletedAt && !Number.isNaN(Date.parse(tombstone.deletedAt)));
    assert.deepEqual(await store.listChunks(document.itemId), []);
    assert.deepEqual(await store.searchItemsLexical('cabin heater', 5), []);
    assert.deepEqual(await store.searchChunksLexical('cabin heater', 5), []);
    assert.deepEqual((await store.listItems()).map((item) => item.path), ['copy.md', 'report.md']);
    assert.deepEqual((await store.listItems({ includeDeleted: true })).map((item) => item.path), ['copy.md', 'handbook.md', 'report.md']);
    assert.deepEqual((await store.livePaths()).sort(), ['copy.md', 'report.md']);
    assert.deepEqual(await store.tombstone('never-seen.md'), []);
  });

  backend.test('a file that comes back at its path gets its old identity back', async (t) => {
    const { store } = await backend.open(t);
    const document = await indexDocument(store, 'handbook.md', CRANE_HANDBOOK);
    await store.tombstone('handbook.md');
    const back = await ingest(store, 'handbook.md', `${CRANE_HANDBOOK}\nRestored.\n`);
    assert.deepEqual(back, { kind: 'new_version', itemId: document.itemId });
    const item = (await store.getItem(document.itemId))!;
    assert.equal(item.deletedAt, null);
    assert.equal(item.version, 2);
  });

  backend.test('forgetting a deleted item removes what came from its bytes and keeps the record that it existed', async (t) => {
    const { store } = await backend.open(t);
    const report = await indexDocument(store, 'report.md', REPORT);
    const memo = await indexDocument(store, 'memo.md', BUDGET_MEMO);
    await extractDocument(store, report);
    await extractDocument(store, memo);
    const signals = [sharedEntitySignal('Ms. Carla Mendes', 'person', 2)];
    const { score } = scoreSignals(signals);
    const { id } = await store.upsertRelationship(
      { fromItemId: report.itemId, toItemId: memo.itemId, type: 'mentions', score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'discover@1' },
      reviewAgainstDecision,
    );
    await store.tombstone('report.md');

    assert.deepEqual(await store.forgetItems([report.itemId]), { forgotten: [report.itemId], unreferencedHashes: [report.contentHash] });
    const forgotten = (await store.getItem(report.itemId))!;
    assert.ok(forgotten.forgottenAt && !Number.isNaN(Date.parse(forgotten.forgottenAt)));
    assert.equal(forgotten.title, null);
    assert.equal(forgotten.path, 'report.md', 'the row says it existed');
    assert.equal(forgotten.contentHash, report.contentHash);
    assert.equal((await store.listVersions(report.itemId)).length, 1);
    assert.equal(await store.getParsedText(report.itemId), null);
    assert.equal(await store.getStoredBlocks(report.itemId), null);
    assert.deepEqual(await store.listChunks(report.itemId), []);
    assert.deepEqual(await store.listEntities(report.itemId), []);
    assert.deepEqual(await store.listClaims(report.itemId), []);
    assert.deepEqual(await store.listPhrases(report.itemId), []);
    assert.ok(!(await store.listJobs()).some((job) => job.subject === report.itemId || job.subject === 'report.md'), 'its jobs are gone');
    assert.deepEqual(await store.searchItemsLexical('refurbishment', 5).then((hits) => hits.map((hit) => hit.itemId)), [memo.itemId]);

    const relationship = (await store.getRelationship(id))!;
    assert.ok(!JSON.stringify(relationship.signals).includes('Carla Mendes'), 'what the relationship quoted is gone');
    assert.equal(relationship.signals[0]!.type, 'shared_entity');
    assert.equal(relationship.signals[0]!.weight, signals[0]!.weight, 'the signal keeps its weight');
    const history = await store.relationshipHistory(id);
    assert.equal(history.length, 1, 'the history stays');
    assert.ok(!JSON.stringify(history).includes('Carla Mendes'), 'and quotes nothing either');
    assert.equal(await store.scrubForgotten(), true, 'no other reader holds the store');
    assert.deepEqual(await store.searchChunksLexical('hoist', 5), []);
  });

  backend.test('forgetting refuses, before changing anything, an item whose file is still in the folder', async (t) => {
    const { store } = await backend.open(t);
    const gone = await indexDocument(store, 'gone.md', REPORT);
    const live = await indexDocument(store, 'live.md', BUDGET_MEMO);
    await store.tombstone('gone.md');
    await assert.rejects(store.forgetItems([gone.itemId, live.itemId]), (error: Error) => error.message.includes('live.md'));
    assert.equal((await store.getItem(gone.itemId))!.forgottenAt, null, 'nothing was forgotten');
    assert.ok(await store.getParsedText(gone.itemId));
    assert.deepEqual(await store.forgetItems([]), { forgotten: [], unreferencedHashes: [] });
    assert.equal(await store.scrubForgotten(), true, 'nothing to scrub');
  });

  backend.test('bytes another item or version still refers to are not reported unreferenced', async (t) => {
    const site = backend.site(t);
    const { store: alice } = await site.open({ workspace: 'alice' });
    const { store: bob } = await site.open({ workspace: 'bob' });
    const first = `${REPORT}\nDraft.\n`;
    const item = await ingest(alice, 'report.md', first);
    await ingest(alice, 'report.md', REPORT);
    await ingest(bob, 'report.md', REPORT);
    await ingest(alice, 'keep.md', BUDGET_MEMO);
    await alice.tombstone('report.md');
    const { unreferencedHashes } = await alice.forgetItems([item.itemId]);
    assert.deepEqual(unreferencedHashes, [hashOf(first)], 'every version of the item is weighed; the bytes bob holds stay');
  });
});
