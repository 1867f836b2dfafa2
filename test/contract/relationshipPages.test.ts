// The Proposals view's pages read from the store's counts and each unit's first rows (issue 32),
// on every backend: the same relationships, unit totals and count awaiting review as reading and
// classifying every relationship gave, for every filter, with small pages that cut units, "Show
// more" on one, relationships resting on a link alone, decided ones, conflicts, pending ones under
// the threshold and relationships whose end was deleted.

import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import path from 'node:path';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { relationshipPages, type PageRequest } from '../../server/src/engine/relationshipPages.ts';
import { decide } from '../../server/src/engine/relationships.ts';
import { DEFAULT_THRESHOLDS, documentLinkSignal, scoreSignals, SCORE_VERSION, sharedEntitySignal, similaritySignal } from '../../server/src/scoring/index.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { DATABASE_FILE } from '../../server/src/store/dataDir.ts';
import { NO_FILTER, type ProposalFilter } from '../../shared/proposalPages.ts';
import type { RelationshipType, SignalView } from '../../shared/types.ts';
import { forEachBackend } from './backends.ts';
import { relationshipPagesByListing } from '../support/wholeFolderReads.ts';

const FILES = 16;

/** Evidence of each kind the view sorts by: wording alone, a link alone (with what it already says), a link with a name, a name. */
function evidence(kind: number, n: number): SignalView[] {
  const link = documentLinkSignal(`f${n}.md`, `f${n + 1}.md`, `line ${n}`, `[see](f${n + 1}.md)`);
  const similarity = similaritySignal(0.9 + (n % 10) / 100);
  const name = sharedEntitySignal(`Project ${n % 5} Ltd`, 'organisation', 2 + (n % 3));
  return [[similarity], [link, similarity], [link, name], [similarity, name]][kind % 4]!;
}

async function fill(store: WorkspaceStore): Promise<void> {
  const ids: string[] = [];
  for (let n = 0; n < FILES; n += 1) ids.push((await store.recordIngest({ path: `f${n}.md`, contentHash: `hash-${n}`, size: 1 }, () => true)).itemId);
  const types: RelationshipType[] = ['similar_to', 'links_to', 'contradicts', 'supports', 'mentions', 'occurred_before'];
  let n = 0;
  for (let a = 0; a < FILES; a += 1) {
    for (const step of [1, 2, 3, 5]) {
      const b = (a + step) % FILES;
      const signals = evidence(n, n);
      const type = types[n % types.length]!;
      // Every seventh under the threshold: stored, listed only once decided.
      const score = n % 7 === 0 ? 0.1 : scoreSignals(signals).score;
      const { id } = await store.upsertRelationship(
        { fromItemId: ids[a]!, toItemId: ids[b]!, type, score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'test' },
        reviewAgainstDecision,
      );
      // Some of each type confirmed (a confirmed contradiction stays in Conflicts), some rejected.
      if (n % 9 === 4 || n % 12 === 2) await decide(store, id, { status: 'confirmed', by: 'ana' });
      if (n % 11 === 5) await decide(store, id, { status: 'rejected', by: 'ana' });
      n += 1;
    }
  }
  await store.tombstone('f3.md');
}

const FILTERS: [string, ProposalFilter][] = [
  ['no filter', NO_FILTER],
  ['two types', { types: ['contradicts', 'links_to'], statuses: null, minStrength: 0 }],
  ['pending and rejected', { types: null, statuses: ['pending', 'rejected'], minStrength: 0 }],
  ['a minimum strength', { types: null, statuses: null, minStrength: 0.3 }],
];

forEachBackend((backend) => {
  backend.test('the pages, unit totals and count awaiting review are what reading every relationship gave, for every filter and page size', async (t) => {
    const { store } = await backend.open(t);
    await fill(store);
    let cut = 0;
    for (const [label, filter] of FILTERS) {
      for (const pageSize of [1, 2, 200]) {
        for (const moreRows of [new Map<string, number>(), new Map([['pending:similar_to', 3], ['conflicts', 2]])]) {
          const request: PageRequest = { filter, pageSize, moreRows };
          const expected = await relationshipPagesByListing(store, DEFAULT_THRESHOLDS, request);
          const actual = await relationshipPages(store, DEFAULT_THRESHOLDS, request);
          const step = `${label}, pages of ${pageSize}, ${moreRows.size ? 'more of two units' : 'first pages'}`;
          assert.deepEqual(actual.relationships, expected.relationships, step);
          assert.deepEqual(actual.unitTotals, expected.unitTotals, step);
          assert.equal(actual.awaitingReview, expected.awaitingReview, step);
          if (Object.values(expected.unitTotals).reduce((sum, total) => sum + total, 0) > expected.relationships.length) cut += 1;
        }
      }
    }
    // The fixture reaches every unit, and small pages did cut them.
    const { unitTotals } = await relationshipPagesByListing(store, DEFAULT_THRESHOLDS, { filter: NO_FILTER, pageSize: 1, moreRows: new Map() });
    for (const unit of ['linked', 'confirmed', 'rejected', 'conflicts', 'pending:similar_to', 'pending:links_to']) assert.ok(unitTotals[unit]! > 0, unit);
    assert.ok(cut > 10);
  });

  if (backend.name === 'sqlite') {
    backend.test('a store written before the unit index gets it, each relationship marked as resting on a link alone or not', async (t) => {
      const site = backend.site(t);
      const { store } = await site.open();
      await fill(store);
      const request: PageRequest = { filter: NO_FILTER, pageSize: 2, moreRows: new Map() };
      const expected = await relationshipPagesByListing(store, DEFAULT_THRESHOLDS, request);
      await store.close();
      // As the store stood at schema 21: no index, and the column (added here by this build) unset.
      const location = site.location();
      assert.equal(location.backend, 'sqlite');
      const db = new Database(path.join(location.dataDir, DATABASE_FILE));
      db.exec('DROP INDEX relationships_units; UPDATE relationships SET linked = 0; DELETE FROM schema_migrations WHERE version >= 22');
      db.close();
      const { store: upgraded } = await site.open();
      assert.deepEqual(await relationshipPages(upgraded, DEFAULT_THRESHOLDS, request), expected);
      assert.ok(expected.unitTotals.linked! > 0);
    });
  }
});
