// Discovery on the demo folder with the real default embedding model: the deliberate cost
// contradiction, the byte-identical copy, and the two same-warehouse incident reports that read
// alike but describe different events. Then review: nothing auto-confirmed, decisions dominate
// and delete nothing, rejected pairs are never re-proposed, reprocessing is idempotent.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RelationshipView } from '../../shared/types.ts';
import type { Classification, ClassifierInput, RelationshipClassifier } from '../../server/src/discover/classifier.ts';
import { DISCOVER_VERSION } from '../../server/src/discover/discoverItem.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { decide, listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/index.ts';
import { DATABASE_FILE } from '../../server/src/store/sqlite/sqliteStore.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const DEMO = path.join(REPO_ROOT, 'docs', 'demo');
const COST_A = 'maintenance/gantry-crane-gc2-refurbishment-report.md';
const COST_B = 'finance/q2-2025-capital-budget-review.md';
const COPY = 'shared-drive/incidents-backup/incident-2025-03-14-forklift-collision.md';
const FORKLIFT = 'incidents/incident-2025-03-14-forklift-collision.md';
const SPRINKLER = 'incidents/incident-2025-07-22-sprinkler-leak.md';

const between = (views: RelationshipView[], a: string, b: string) =>
  views.find((view) => (view.from.path === a && view.to.path === b) || (view.from.path === b && view.to.path === a));

/** What a reviewer would compare before and after reprocessing. */
const essence = (views: RelationshipView[]) =>
  views.map((view) => ({ id: view.id, from: view.from.path, to: view.to.path, type: view.type, score: view.score, status: view.status, signals: view.signals }));

describe('discovery on docs/demo', { timeout: 10 * 60_000 }, () => {
  let dataDir: string;
  let index: FolderIndex;
  let views: RelationshipView[];

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'relata-discovery-'));
    index = await FolderIndex.open({ folder: DEMO, dataDir, workspace: 'discovery-test', embedding: { kind: 'use-lite', threads: 1 } });
    await index.index();
    views = await listRelationshipViews(index.store, DEFAULT_THRESHOLDS);
  });

  after(async () => {
    await index.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the two cost documents contradict each other, and the detail names both figures without deciding', () => {
    const cost = between(views, COST_A, COST_B);
    assert.ok(cost, 'the cost documents are related');
    assert.equal(cost.type, 'contradicts');
    const contradiction = cost.signals.find((signal) => signal.type === 'claim_contradiction');
    assert.ok(contradiction, 'a claim_contradiction signal is stored');
    assert.match(contradiction.detail, /42,000/);
    assert.match(contradiction.detail, /51,500/);
    assert.match(contradiction.detail, /does not decide which is correct/);
  });

  test('the byte-identical copy is derived_from its original through content_hash_match, and reported as a duplicate', async () => {
    const copy = between(views, COPY, FORKLIFT);
    assert.ok(copy);
    assert.equal(copy.type, 'derived_from');
    assert.equal(copy.from.path, COPY, 'the copy is derived from the original, not the other way round');
    assert.ok(copy.signals.some((signal) => signal.type === 'content_hash_match' && signal.strength === 1));
    const item = await index.store.getItemByPath(COPY);
    assert.equal(item?.status, 'duplicate');
  });

  test('the two same-warehouse incident reports are weakly related, and only chronologically or by likeness', () => {
    const incidents = between(views, FORKLIFT, SPRINKLER);
    if (incidents) {
      assert.ok(incidents.score < 0.45, `below the expansion threshold (got ${incidents.score})`);
      assert.ok(['similar_to', 'mentions', 'occurred_before', 'occurred_after'].includes(incidents.type), incidents.type);
      assert.ok(!incidents.signals.some((signal) => signal.type === 'claim_contradiction' || signal.type === 'claim_support'));
    }
    for (const view of views) {
      assert.ok(!['supersedes', 'same_entity_as', 'possibly_explains', 'updates'].includes(view.type), `${view.id} is ${view.type}`);
    }
  });

  test('every stored relationship explains itself: version, signals with details, provenance', () => {
    assert.ok(views.length > 0);
    for (const view of views) {
      assert.equal(view.score_version, 'relationship-score-v2');
      assert.ok(view.score >= DEFAULT_THRESHOLDS.storeScore);
      assert.equal(view.produced_by, DISCOVER_VERSION);
      for (const signal of view.signals) assert.ok(signal.detail.length > 10 && signal.weight !== 0);
    }
  });

  test('nothing is auto-confirmed', () => {
    assert.ok(views.every((view) => view.status === 'pending' && view.decided_by === null));
  });

  test('reprocessing is idempotent: the same relationships, no duplicates, no new history', async () => {
    const eventsBefore = countEvents(dataDir);
    await index.reprocess(null);
    const again = await listRelationshipViews(index.store, DEFAULT_THRESHOLDS);
    assert.deepEqual(essence(again), essence(views));
    assert.equal(countEvents(dataDir), eventsBefore, 'an unchanged proposal records no update');
  });

  test('a confirmation saturates the score and survives reprocessing; the proposal stays in the history', async () => {
    const cost = between(views, COST_A, COST_B)!;
    const confirmed = await decide(index.store, cost.id, { status: 'confirmed', by: 'ana', note: 'checked the invoice' });
    assert.equal(confirmed.score, 1);
    assert.equal(confirmed.status, 'confirmed');
    assert.equal(confirmed.decided_by, 'ana');
    assert.deepEqual(confirmed.signals.slice(0, -1), cost.signals, 'the evidence is kept as proposed');
    await index.reprocess([COST_A]);
    const after = (await index.store.getRelationship(cost.id))!;
    assert.equal(after.status, 'confirmed');
    assert.equal(after.score, 1);
    const history = await index.store.relationshipHistory(cost.id);
    assert.deepEqual(history.map((event) => event.kind), ['proposed', 'confirmed']);
    assert.equal(history[0]!.score, cost.score);
  });

  test('a rejection drives the score to zero, deletes nothing, and is never re-proposed', async () => {
    const copy = between(views, COPY, FORKLIFT)!;
    const rejected = await decide(index.store, copy.id, { status: 'rejected', by: 'ana', note: null });
    assert.equal(rejected.score, 0);
    assert.equal(rejected.signals.length, copy.signals.length + 1);
    await index.reprocess(null);
    const after = (await index.store.getRelationship(copy.id))!;
    assert.equal(after.status, 'rejected');
    assert.equal(after.score, 0);
    const all = await index.store.listRelationships();
    assert.equal(all.filter((r) => r.id === copy.id).length, 1, 'one row per pair');
    const expandable = await index.store.relationshipsTouching([after.fromItemId], { statuses: ['pending', 'confirmed'] });
    assert.ok(!expandable.some((r) => r.id === copy.id), 'a rejected relationship is not offered for expansion');
  });

  test('new weights rescore nothing until reprocess asks', async () => {
    const sample = views.find((view) => view.status === 'pending' && view.id !== between(views, COPY, FORKLIFT)!.id && view.id !== between(views, COST_A, COST_B)!.id)!;
    setScoreVersion(dataDir, sample.id, 'relationship-score-v0');
    await index.index();
    assert.equal((await index.store.getRelationship(sample.id))!.scoreVersion, 'relationship-score-v0', 'indexing again leaves it alone');
    await index.reprocess(null);
    assert.equal((await index.store.getRelationship(sample.id))!.scoreVersion, 'relationship-score-v2');
  });
});

test('a model opinion is asked only of candidates at the minimum score, adds one weak signal, and cannot establish supersedes', {
  timeout: 5 * 60_000,
}, async () => {
  // A test double at the model boundary: no language model can run here, and the point is an
  // opinion we control (always "supersedes", at full confidence).
  const asked: [ClassifierInput, ClassifierInput][] = [];
  const classifier: RelationshipClassifier = {
    name: 'scripted-model',
    async classify(a, b): Promise<Classification> {
      asked.push([a, b]);
      return { type: 'supersedes', confidence: 1 };
    },
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-discovery-model-'));
  const index = await FolderIndex.open({ folder: DEMO, dataDir, workspace: 'discovery-model', embedding: { kind: 'none' }, classifier });
  try {
    await index.index();
    const views = await index.store.listRelationships();
    assert.ok(asked.length > 0, 'the model was asked about some pairs');
    const ids = (await index.store.listItems()).map((item) => item.id);
    for (const pair of asked) {
      const seen = JSON.stringify(pair);
      assert.ok(!ids.some((id) => seen.includes(id)), 'the model never sees item ids');
    }
    for (const view of views) {
      const model = view.signals.filter((signal) => signal.type === 'model_classification');
      assert.ok(model.length <= 1);
      if (model.length === 1) {
        assert.equal(model[0]!.weight, 0.15);
        assert.ok(view.proposedScore - 0.15 >= DEFAULT_THRESHOLDS.minScore - 1e-9, 'the pair reached the minimum score before the model was asked');
      }
      assert.notEqual(view.type, 'supersedes', 'a model alone never establishes supersedes');
    }
    const copy = views.find((view) => view.type === 'derived_from');
    assert.ok(copy, 'the copy is still derived_from by its hash');
  } finally {
    await index.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

function countEvents(dataDir: string): number {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM relationship_events').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Simulates a relationship scored by an older scoring model. */
function setScoreVersion(dataDir: string, id: string, version: string): void {
  const db = new Database(path.join(dataDir, DATABASE_FILE));
  try {
    db.prepare('UPDATE relationships SET score_version = ? WHERE id = ?').run(version, id);
  } finally {
    db.close();
  }
}

test('a discovery that keeps failing is reported on its job and costs the item nothing', { timeout: 5 * 60_000 }, async () => {
  // A test double at the model boundary that fails outright (the real model classifier catches its
  // model's errors; this one stands for a bug inside discovery itself).
  const classifier: RelationshipClassifier = {
    name: 'broken-model',
    async classify(): Promise<Classification> {
      throw new Error('classifier exploded');
    },
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-discovery-failing-'));
  const index = await FolderIndex.open({ folder: DEMO, dataDir, workspace: 'discovery-failing', embedding: { kind: 'none' }, classifier });
  try {
    await index.index();
    const items = await index.store.listItems();
    assert.ok(items.filter((item) => item.status === 'indexed').length >= 9, 'every readable file is still indexed');
    const failed = (await index.store.listJobs()).filter((job) => job.stage === 'discover' && job.status === 'failed');
    assert.ok(failed.length > 0, 'the failing discoveries are recorded');
    assert.match(failed[0]!.lastError ?? '', /discover failed: classifier exploded/);
    const maintenance = await index.store.getItemByPath(COST_A);
    assert.equal(maintenance?.status, 'indexed');
    assert.ok((await index.store.listChunks(maintenance!.id)).length > 0, 'its passages are kept');
    assert.ok((await index.store.searchChunksLexical('refurbishment cost', 5)).length > 0, 'and still found');
  } finally {
    await index.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('when a document changes, its relationships are updated in place, not duplicated', { timeout: 5 * 60_000 }, async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'relata-discovery-edit-'));
  const folder = path.join(root, 'demo');
  cpSync(DEMO, folder, { recursive: true });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'discovery-edit', embedding: { kind: 'none' } });
  try {
    await index.index();
    const before = between(await listRelationshipViews(index.store, DEFAULT_THRESHOLDS), COST_A, COST_B)!;
    assert.equal(before.type, 'contradicts');

    // The finance memo is corrected to the invoiced figure: the two documents now agree.
    const memo = path.join(folder, COST_B);
    writeFileSync(memo, readFileSync(memo, 'utf8').replaceAll('51,500', '42,000').replaceAll('+6,500', '-3,000'));
    await index.index();

    const views = await listRelationshipViews(index.store, DEFAULT_THRESHOLDS, { includeWeak: true });
    const after = between(views, COST_A, COST_B)!;
    assert.equal(after.id, before.id, 'the same relationship');
    assert.equal(views.filter((view) => view.id === before.id).length, 1);
    assert.equal(after.type, 'supports');
    assert.ok(!after.signals.some((signal) => signal.type === 'claim_contradiction'));
    assert.ok(after.signals.some((signal) => signal.type === 'claim_support' && signal.value === 'cost'));
    const history = await index.store.relationshipHistory(before.id);
    assert.deepEqual(history.map((event) => event.type), ['contradicts', 'supports'], 'the earlier proposal is kept in the history');
  } finally {
    await index.close();
    rmSync(root, { recursive: true, force: true });
  }
});
