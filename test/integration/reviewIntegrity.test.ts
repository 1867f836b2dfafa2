// A person's review stays true: a decision is bound to the type and evidence the person saw.
// On real files and a real store: a confirmed contradiction whose figures come to agree returns
// to review; an unrelated edit keeps the confirmation; a rejected agreement that turns into a
// contradiction stays rejected and says so; and a confirmation committed on another connection
// while discovery weighs the pair is the one discovery's write applies.

import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { RelationshipView } from '../../shared/types.ts';
import { formatRelationship } from '../../server/src/cli/commands/relationships.ts';
import { discoverItem } from '../../server/src/discover/discoverItem.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { decide, listRelationshipViews, relationshipView } from '../../server/src/engine/relationships.ts';
import { DEFAULT_THRESHOLDS, scoreSignals } from '../../server/src/scoring/index.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { openStore } from '../../server/src/store/index.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const DEMO = path.join(REPO_ROOT, 'docs', 'demo');
const REPORT = 'maintenance/gantry-crane-gc2-refurbishment-report.md';
const MEMO = 'finance/q2-2025-capital-budget-review.md';

interface Folder {
  folder: string;
  dataDir: string;
  index: FolderIndex;
}

/** The invoice-backed report (42,000 EUR) and the budget memo (51,500 EUR), indexed without embeddings. */
async function costDocuments(t: TestContext, workspace: string): Promise<Folder> {
  const root = mkdtempSync(path.join(tmpdir(), 'relata-review-'));
  const folder = path.join(root, 'docs');
  for (const file of [REPORT, MEMO]) {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    copyFileSync(path.join(DEMO, file), path.join(folder, file));
  }
  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder, dataDir, workspace, embedding: { kind: 'none' } });
  t.after(async () => {
    await index.close();
    rmSync(root, { recursive: true, force: true });
  });
  await index.index();
  return { folder, dataDir, index };
}

function editMemo({ folder }: Folder, edit: (text: string) => string): void {
  const memo = path.join(folder, MEMO);
  writeFileSync(memo, edit(readFileSync(memo, 'utf8')));
}

const correctToInvoice = (text: string) => text.replaceAll('51,500', '42,000').replaceAll('+6,500', '-3,000');

async function costRelationship({ index }: Folder): Promise<RelationshipView> {
  const views = await listRelationshipViews(index.store, DEFAULT_THRESHOLDS, { includeWeak: true });
  const paths = (view: RelationshipView) => [view.from.path, view.to.path].sort().join(' ');
  const found = views.find((view) => paths(view) === [MEMO, REPORT].sort().join(' '));
  assert.ok(found, 'the two cost documents are related');
  return found;
}

const hasSignal = (view: RelationshipView, type: string) => view.signals.some((signal) => signal.type === type);

test('a confirmed contradiction whose figures come to agree returns to review, scored without the confirmation, with the old decision kept', async (t) => {
  const docs = await costDocuments(t, 'review-corrected');
  const contradiction = await costRelationship(docs);
  assert.equal(contradiction.type, 'contradicts');
  await decide(docs.index.store, contradiction.id, { status: 'confirmed', by: 'ana', note: 'real overrun' });

  editMemo(docs, correctToInvoice);
  await docs.index.index();

  const after = await costRelationship(docs);
  assert.equal(after.id, contradiction.id);
  assert.equal(after.type, 'supports');
  assert.equal(after.status, 'pending', 'nobody confirmed that the two documents agree');
  assert.equal(after.decided_by, null);
  assert.equal(after.note, null);
  assert.ok(!hasSignal(after, 'user_confirmation'));
  assert.equal(after.score, scoreSignals(after.signals).score);
  assert.ok(after.score < 1);

  const changed = after.changed_since_decision!;
  assert.equal(changed.decision, 'confirmed');
  assert.equal(changed.decided_by, 'ana');
  assert.equal(changed.note, 'real overrun');
  assert.ok(changed.changes.includes('type was contradicts, now supports'), changed.changes.join('; '));
  assert.ok(changed.changes.some((change) => /^cost figures (42000 vs 51500|51500 vs 42000) now agree$/.test(change)), changed.changes.join('; '));

  const history = await docs.index.store.relationshipHistory(contradiction.id);
  assert.deepEqual(history.map((event) => event.kind), ['proposed', 'confirmed', 'returned_to_review']);
  assert.equal(history[1]!.note, 'real overrun');
  assert.equal(history[1]!.type, 'contradicts');
  assert.match(history[2]!.note!, /type was contradicts, now supports/);

  const listed = formatRelationship(after);
  assert.match(listed, /changed since you confirmed it \(confirmed by ana .*note: real overrun\): type was contradicts, now supports; cost figures/);
});

test('a confirmation holds when an edit leaves the type and the figures compared as they were', async (t) => {
  const docs = await costDocuments(t, 'review-unrelated');
  const contradiction = await costRelationship(docs);
  await decide(docs.index.store, contradiction.id, { status: 'confirmed', by: 'ana', note: 'real overrun' });

  editMemo(docs, (text) => `${text}\nThe review was discussed at the operations meeting; no further actions were agreed.\n`);
  await docs.index.index();

  const after = await costRelationship(docs);
  assert.equal(after.type, 'contradicts');
  assert.equal(after.status, 'confirmed');
  assert.equal(after.score, 1);
  assert.equal(after.note, 'real overrun');
  assert.ok(hasSignal(after, 'user_confirmation'));
  assert.equal(after.changed_since_decision, null);
});

test('a rejected agreement that turns into a contradiction stays rejected and says what changed', async (t) => {
  const docs = await costDocuments(t, 'review-rejected');
  editMemo(docs, correctToInvoice);
  await docs.index.index();
  const agreement = await costRelationship(docs);
  assert.equal(agreement.type, 'supports');
  const rejected = await decide(docs.index.store, agreement.id, { status: 'rejected', by: 'ana', note: 'coincidence' });

  editMemo(docs, (text) => text.replaceAll('42,000', '51,500'));
  await docs.index.index();

  const after = await costRelationship(docs);
  assert.equal(after.status, 'rejected', 'a rejected pair is never re-proposed');
  assert.equal(after.score, rejected.score);
  assert.deepEqual(after.signals, rejected.signals, 'the evidence the person rejected is kept');
  assert.equal(after.note, 'coincidence');
  const changed = after.changed_since_decision!;
  assert.equal(changed.decision, 'rejected');
  assert.ok(changed.changes.includes('type was supports, now contradicts'), changed.changes.join('; '));
  assert.ok(changed.changes.some((change) => /^cost figures now differ/.test(change)), changed.changes.join('; '));
  assert.match(formatRelationship(after), /evidence changed since you rejected it \(rejected by ana .*\): type was supports, now contradicts/);
  const history = (await docs.index.store.relationshipHistory(agreement.id)).map((event) => event.kind);
  assert.deepEqual(history.slice(-2), ['rejected', 'evidence_changed']);

  await docs.index.reprocess(null);
  assert.equal((await docs.index.store.relationshipHistory(agreement.id)).length, history.length, 'the same change is noted once');
});

test('a confirmation committed on another connection between discovery reading the pair and writing it keeps its effect', async (t) => {
  const docs = await costDocuments(t, 'review-race');
  const contradiction = await costRelationship(docs);
  const reviewer = openStore({ dataDir: docs.dataDir, workspace: 'review-race' });
  t.after(() => reviewer.close());

  // Discovery's store: everything it reads goes to the index's connection; just before its first
  // write, the person's confirmation is committed on the other connection.
  let confirmedMidway = false;
  const discovery = new Proxy(docs.index.store, {
    get(target, property, receiver) {
      if (property === 'upsertRelationship') {
        return async (...args: Parameters<WorkspaceStore['upsertRelationship']>) => {
          if (!confirmedMidway) {
            confirmedMidway = true;
            await decide(reviewer, contradiction.id, { status: 'confirmed', by: 'ana', note: 'real overrun' });
          }
          return target.upsertRelationship(...args);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const memo = (await docs.index.store.getItemByPath(MEMO))!;
  await discoverItem(discovery, memo.id, { modelId: null, thresholds: DEFAULT_THRESHOLDS });
  assert.ok(confirmedMidway, 'the confirmation came between the read and the write');

  const after = (await relationshipView(docs.index.store, contradiction.id))!;
  assert.equal(after.status, 'confirmed');
  assert.equal(after.decided_by, 'ana');
  assert.ok(hasSignal(after, 'user_confirmation'));
  assert.equal(after.score, 1);

  await docs.index.reprocess(null);
  const reprocessed = (await relationshipView(docs.index.store, contradiction.id))!;
  assert.equal(reprocessed.status, 'confirmed');
  assert.ok(hasSignal(reprocessed, 'user_confirmation'));
  assert.equal(reprocessed.score, 1);
});
