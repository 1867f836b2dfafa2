// The Proposals view in pages (issue 32), read from a real SQLite store: each unit (a type's group
// awaiting review, Linked in the documents, Confirmed, Rejected, Conflicts) sends its first
// relationships in the order the view shows them and counts the rest; "Show more" sends more of one
// unit; the filter is applied before units are cut and counted; the badge's count ignores it.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { NO_FILTER } from '../../shared/proposalPages.ts';
import type { RelationshipType, SignalView } from '../../shared/types.ts';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { relationshipPages } from '../../server/src/engine/relationshipPages.ts';
import { decide, listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { DEFAULT_THRESHOLDS, documentLinkSignal, scoreSignals, SCORE_VERSION, sharedEntitySignal, similaritySignal } from '../../server/src/scoring/index.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { tempDir } from '../support/tempFolder.ts';

async function storeWithRelationships(t: TestContext) {
  const store = openSqliteStore({ dataDir: path.join(tempDir(t), 'data'), workspace: 'pages' });
  t.after(() => store.close());
  const ids: string[] = [];
  for (let n = 0; n < 40; n += 1) ids.push((await store.recordIngest({ path: `notes/n${String(n).padStart(2, '0')}.md`, contentHash: `h${n}`, size: 10 }, () => true)).itemId);
  const propose = async (a: number, b: number, type: RelationshipType, signals: SignalView[]) => {
    const { score } = scoreSignals(signals);
    return (await store.upsertRelationship({ fromItemId: ids[a]!, toItemId: ids[b]!, type, score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'test' }, reviewAgainstDecision)).id;
  };
  // 12 similar pairs of rising similarity, 3 contradictions (one confirmed), 2 links stated by the documents.
  for (let n = 0; n < 12; n += 1) await propose(n, n + 20, 'similar_to', [similaritySignal(0.8 + n * 0.01), sharedEntitySignal(`Person ${n}`, 'person', 2)]);
  const contradictions = [];
  for (let n = 0; n < 3; n += 1) contradictions.push(await propose(n, n + 12, 'contradicts', [sharedEntitySignal('Example Ltd', 'organisation', 2), similaritySignal(0.7 + n * 0.05)]));
  await decide(store, contradictions[0]!, { status: 'confirmed', by: 'ana' });
  for (let n = 0; n < 2; n += 1) await propose(n + 30, n + 35, 'links_to', [documentLinkSignal(`notes/n${n + 30}.md`, `notes/n${n + 35}.md`, 'line 3', '[next](n35.md)')]);
  return store;
}

test('each unit sends its strongest relationships first and counts the rest; the badge counts every one awaiting review', async (t) => {
  const store = await storeWithRelationships(t);
  const everything = await listRelationshipViews(store, DEFAULT_THRESHOLDS);
  const pages = await relationshipPages(store, DEFAULT_THRESHOLDS, { filter: NO_FILTER, pageSize: 3, moreRows: new Map() });
  assert.deepEqual(pages.unitTotals, { 'pending:similar_to': 12, 'pending:contradicts': 2, conflicts: 3, confirmed: 1, linked: 2 });
  assert.equal(pages.awaitingReview, 14);
  const similar = pages.relationships.filter((r) => r.type === 'similar_to');
  const strongestSimilar = everything.filter((r) => r.type === 'similar_to').sort((a, b) => b.score - a.score).slice(0, 3);
  assert.deepEqual(similar.map((r) => r.id).sort(), strongestSimilar.map((r) => r.id).sort(), 'the three strongest similar pairs');
  assert.equal(pages.relationships.filter((r) => r.type === 'contradicts').length, 3, 'every contradiction: none of their units holds more than 3');
  assert.ok(pages.relationships.every((r) => r.from.path.startsWith('notes/') && r.to.path.startsWith('notes/')), 'both ends named');
});

test('"Show more" sends more of that unit only; a filter narrows the units and their counts, not the badge', async (t) => {
  const store = await storeWithRelationships(t);
  const more = await relationshipPages(store, DEFAULT_THRESHOLDS, { filter: NO_FILTER, pageSize: 3, moreRows: new Map([['pending:similar_to', 8]]) });
  assert.equal(more.relationships.filter((r) => r.type === 'similar_to').length, 8);
  assert.equal(more.relationships.filter((r) => r.type === 'links_to').length, 2);

  const strongest = (await listRelationshipViews(store, DEFAULT_THRESHOLDS)).filter((r) => r.type === 'similar_to').map((r) => r.score).sort((a, b) => b - a);
  const filtered = await relationshipPages(store, DEFAULT_THRESHOLDS, { filter: { types: ['similar_to'], statuses: null, minStrength: strongest[4]! }, pageSize: 3, moreRows: new Map() });
  assert.deepEqual(filtered.unitTotals, { 'pending:similar_to': strongest.filter((score) => score >= strongest[4]!).length });
  assert.equal(filtered.awaitingReview, 14, 'the badge counts what awaits review, whatever the view shows');
});
