// The scoring version switch on a real folder, real SQLite and the real default model: a memo, a
// near-copy of it and a report that disagrees with both, among unrelated notes. Under v2 the copy is
// a copy (derived_from, shared_text, flagged), not support; the same store reprocessed under v1
// reads it as v1 did (supports, flagged by cosine), and each relationship records its version.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RelationshipView } from '../../shared/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { DEFAULT_THRESHOLDS, RELATIONSHIP_SCORE_V1 } from '../../server/src/scoring/index.ts';

const MEMO = [
  '# Budget memo: gantry crane GC-7 refurbishment',
  '',
  'Prepared by Imogen Castellane for the Harbourline capital committee.',
  '',
  'The refurbishment of gantry crane GC-7 cost EUR 42,000 in total, as invoiced by Veldmark Hoisting.',
  'The work replaced the hoist brake, rewired the pendant controls and re-certified the runway beam.',
  'Load testing at ten tonnes passed on the first attempt, and the operators were briefed afterwards.',
  'The committee asked that the spare brake pads be ordered before the winter maintenance window.',
  'Invoices were reconciled against purchase order PO-7781 and the delivery notes kept by stores.',
  'Any further work on the crane needs a separate approval from the committee chair.',
].join('\n');

const COPY = MEMO.replace('Any further work on the crane', 'Any further work on the gantry crane');
const REPORT = [
  '# GC-7 refurbishment close-out report',
  '',
  'Imogen Castellane closed out purchase order PO-7781 with Veldmark Hoisting this week.',
  'The refurbishment of gantry crane GC-7 cost EUR 51,500 in total once the runway beam was included.',
].join('\n');

const FILLER = [
  'The canteen menu rotates weekly; vegetarian options are marked in green on the board.',
  'Parking permits for contractors are issued at the gatehouse between seven and nine.',
  'The fire drill in the north wing is scheduled for the first Tuesday of each quarter.',
  'New starters collect their badges from reception and sign the visitor policy.',
  'The printer on the second floor takes A3 paper; toner is kept in the stationery cupboard.',
  'Cycle storage is behind building C, with showers in the basement changing rooms.',
  'Holiday requests go through the HR portal at least two weeks ahead.',
];

const between = (views: RelationshipView[], a: string, b: string) =>
  views.find((view) => (view.from.path === a && view.to.path === b) || (view.from.path === b && view.to.path === a));

describe('scoring versions on one real folder', { timeout: 10 * 60_000 }, () => {
  let folder: string;
  let dataDir: string;
  let v2: RelationshipView[];
  let v1: RelationshipView[];

  before(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'relata-versions-folder-'));
    dataDir = mkdtempSync(path.join(tmpdir(), 'relata-versions-data-'));
    writeFileSync(path.join(folder, 'memo.md'), MEMO);
    writeFileSync(path.join(folder, 'memo-copy.md'), COPY);
    writeFileSync(path.join(folder, 'report.md'), REPORT);
    FILLER.forEach((text, i) => writeFileSync(path.join(folder, `note-${i}.md`), `# Note ${i}\n\n${text}\n`));
    const embedding = { kind: 'use-lite' as const, threads: 1 };
    const index = await FolderIndex.open({ folder, dataDir, workspace: 'versions-test', embedding });
    try {
      await index.index();
      v2 = await listRelationshipViews(index.store, DEFAULT_THRESHOLDS);
    } finally {
      await index.close();
    }
    const underV1 = await FolderIndex.open({ folder, dataDir, workspace: 'versions-test', embedding, settings: { scoreVersion: RELATIONSHIP_SCORE_V1 } });
    try {
      await underV1.reprocess(null);
      v1 = await listRelationshipViews(underV1.store, DEFAULT_THRESHOLDS);
    } finally {
      await underV1.close();
    }
  });

  after(() => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('under v2 a near-copy is derived_from with its shared text, flagged, and its figures do not count as support', () => {
    const copy = between(v2, 'memo.md', 'memo-copy.md');
    assert.ok(copy, 'the copy is related to its memo');
    assert.equal(copy.type, 'derived_from');
    assert.equal(copy.near_duplicate, true);
    assert.equal(copy.score_version, 'relationship-score-v2');
    const shared = copy.signals.find((signal) => signal.type === 'shared_text');
    assert.ok(shared, 'the shared_text signal is stored with its arithmetic');
    assert.match(shared.value, /of word sequences shared/);
    assert.equal(copy.signals.filter((signal) => signal.type === 'claim_support').length, 0);
  });

  test('under v2 the report still contradicts the memo: the pair is tied by a person, an order and a supplier', () => {
    const conflict = between(v2, 'memo.md', 'report.md');
    assert.ok(conflict);
    assert.equal(conflict.type, 'contradicts');
    assert.ok(!conflict.near_duplicate);
  });

  test('the same store reprocessed under v1 scores as v1 did: the copy supports its memo, and v1 is recorded', () => {
    const copy = between(v1, 'memo.md', 'memo-copy.md');
    assert.ok(copy);
    assert.equal(copy.score_version, 'relationship-score-v1');
    assert.equal(copy.type, 'supports', 'v1 read the repeated figure as support');
    assert.equal(copy.signals.filter((signal) => signal.type === 'shared_text').length, 0, 'v1 knows no shared_text');
    assert.ok(v1.every((view) => view.score_version === 'relationship-score-v1'));
  });
});
