// One voice per copy group (issue 27, relationship-score-v2, rule 6), on a real folder indexed into
// a real SQLite store: three copies of one memo (two byte-identical, one near-duplicate whose date
// line differs) state EUR 42,000, one report states EUR 51,500. Measured before: the conflict line
// counted 42,000 from three files against one 51,500, a false corroboration. Ask's conflicts, the
// MCP conflicts tool (which @relata's /conflicts shows) and `relata relationships` must each count
// the memo once, and never list a disagreement between two copies of one document as a conflict.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { retrieveForAnswer } from '../../server/src/answer/retrieval.ts';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { conflictsOf } from '../../server/src/knowledge/knowledgeTools.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/model.ts';
import { describeVoices } from '../../shared/voiceText.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const memo = (date: string, cost: string) => `# Budget memo: crane refurbishment

Printed ${date}.
Ms. Lena Fischer of Larkspur Logistics reviewed the refurbishment of gantry crane GC-2 by Example Ltd.
The refurbishment cost EUR ${cost} and was completed on 16 May 2025.
The budget for the work was EUR 45,000, so the project came in under budget.
`;

const MEMO = 'finance/budget-memo.md';
const COPY = 'archive/budget-memo-old.md';
const DRAFT = 'drafts/budget-memo-v2.md';
const REPORT = 'maintenance/report.md';
const MEMO_GROUP = [COPY, DRAFT, MEMO];

const REPORT_TEXT = `# Maintenance report: crane refurbishment

Example Ltd completed the refurbishment of gantry crane GC-2 for Larkspur Logistics.
The refurbishment cost EUR 51,500 and was completed on 16 May 2025.
Payment is due within 30 days.
`;

async function indexed(t: TestContext, draftCost: string) {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    [MEMO]: memo('12 May 2025', '42,000'),
    [COPY]: memo('12 May 2025', '42,000'),
    [DRAFT]: memo('14 May 2025', draftCost),
    [REPORT]: REPORT_TEXT,
  });
  // The default (offline) embedding model: discovery's near-duplicate flag needs vectors.
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'one-voice' });
  t.after(() => index.close());
  await index.index();
  const id = async (relative: string) => (await index.store.getItemByPath(relative))!.id;
  return { index, id, context: { store: index.store, root: index.folder, embedder: null, thresholds: DEFAULT_THRESHOLDS } };
}

test('three copies of one memo against one report: each side of the conflict is one voice, the memo named with its 2 copies', { timeout: 120_000 }, async (t) => {
  const { index, id, context } = await indexed(t, '42,000');
  const draftLink = await index.store.relationshipBetween(await id(DRAFT), await id(MEMO));
  assert.ok(draftLink?.nearDuplicate, `precondition: discovery flags the draft, one short line apart, as a near-duplicate of the memo: ${JSON.stringify(draftLink?.signals.map((signal) => signal.type))}`);
  assert.equal((await index.store.getItemByPath(COPY))!.duplicateOf, await id(MEMO), 'precondition: the archive file is stored as the memo\'s byte-identical copy');

  const { conflicts } = await retrieveForAnswer(index.store, null, 'What did the crane refurbishment cost?');
  const cost = conflicts.filter((conflict) => conflict.attribute === 'cost');
  assert.equal(cost.length, 1, `one cost disagreement: ${JSON.stringify(conflicts.map((conflict) => conflict.detail))}`);
  const sides = new Map(cost[0]!.sides!.map((side) => [side.value, side]));
  assert.equal(sides.size, 2, 'two sides');
  const memoSide = sides.get('42,000 EUR')!;
  const reportSide = sides.get('51,500 EUR')!;
  assert.equal(memoSide.voices.length, 1, 'the three memo files are one voice');
  assert.equal(memoSide.voices[0]!.item.path, MEMO, 'spoken by the original');
  assert.deepEqual(memoSide.voices[0]!.copies.map((copy) => copy.path).sort(), [COPY, DRAFT]);
  assert.deepEqual(memoSide.items.map((item) => item.path).sort(), MEMO_GROUP, 'every file stating it is still listed');
  assert.deepEqual(reportSide.voices.map((voice) => voice.item.path), [REPORT]);
  assert.equal(describeVoices(memoSide), `${MEMO} and 2 copies`);
  const original = await index.store.relationshipBetween(await id(MEMO), await id(REPORT));
  assert.equal(cost[0]!.relationship_id, original!.id, 'anchored on the relationship between the originals');

  const mcp = (await conflictsOf(context, undefined)).conflicts.filter((conflict) => conflict.attribute === 'cost');
  assert.equal(mcp.length, 1, `the MCP conflicts tool lists the disagreement once, not once per copy: ${JSON.stringify(mcp)}`);
  assert.deepEqual(
    mcp[0]!.sides.map((side) => [side.path, side.figure, side.copies]),
    [
      [MEMO, '42,000 EUR', [COPY, DRAFT]],
      [REPORT, '51,500 EUR', []],
    ],
  );
  assert.equal(mcp[0]!.relationship.id, original!.id);
  assert.ok(mcp[0]!.relationship_ids.length >= 2, 'the draft\'s own relationship carrying it is named, not dropped');

  const listed = await listRelationshipViews(index.store, DEFAULT_THRESHOLDS, { oneVoice: true });
  const withReport = listed.filter((view) => view.type === 'contradicts' && [view.from.path, view.to.path].includes(REPORT));
  assert.deepEqual(withReport.map((view) => view.id), [original!.id], 'relata relationships shows the contradiction once, under the original');
  assert.deepEqual(withReport[0]!.also_stated_by?.map((statement) => statement.copy.path), [DRAFT], 'also stated by the draft');
  const everything = await listRelationshipViews(index.store, DEFAULT_THRESHOLDS);
  assert.ok(everything.some((view) => view.id === withReport[0]!.also_stated_by![0]!.relationship_id), 'the draft\'s relationship is still stored and listed without grouping');
});

test('a disagreement between two copies of one document is never listed as a conflict between sources', { timeout: 120_000 }, async (t) => {
  // A draft whose cost differs: whether discovery flags it a near-duplicate is rule 5's decision
  // (a changed figure makes the pair a comparison under the text-overlap rule, not under the
  // cosine rule), so the flag is set through the store here: this proves what conflicts do with a
  // pair flagged as copies, whichever rule flagged it.
  const { index, id, context } = await indexed(t, '45,000');
  const between = await index.store.relationshipBetween(await id(DRAFT), await id(MEMO));
  assert.ok(between?.type === 'contradicts', `precondition: the draft and the memo are recorded as contradicting: ${between?.type}`);
  await index.store.upsertRelationship({ ...between, nearDuplicate: true }, reviewAgainstDecision);

  const inGroup = (paths: readonly string[]) => paths.every((shown) => MEMO_GROUP.includes(shown));
  const { conflicts } = await retrieveForAnswer(index.store, null, 'What did the crane refurbishment cost?');
  assert.ok(conflicts.length > 0, 'the memo group still disagrees with the report');
  for (const conflict of conflicts) {
    assert.ok(!conflict.relationship_ids!.includes(between.id), `the copies' own contradiction is not a conflict: ${conflict.detail}`);
    assert.ok(!inGroup(conflict.items.map((item) => item.path)), `a conflict needs a source outside the memo's copies: ${conflict.detail}`);
    assert.ok(conflict.sides!.some((side) => side.items.some((item) => item.path === REPORT)), `the report is on a side: ${conflict.detail}`);
  }
  const mcp = (await conflictsOf(context, DRAFT)).conflicts;
  assert.ok(mcp.every((conflict) => !conflict.relationship_ids.includes(between.id)), 'nor in the MCP conflicts tool');
  assert.ok(mcp.every((conflict) => !inGroup(conflict.sides.map((side) => side.path))));
});
