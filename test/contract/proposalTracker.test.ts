// What a pass did to the proposals, read from what the store wrote since the last look (issue 32),
// on every backend: the items and relationships written since a moment, and the language server's
// ProposalTracker built on them, which must say exactly what reading every relationship and every
// item after each pass said before, through proposals added, rescored, decided, files edited,
// moved, deleted and brought back.

import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { decide } from '../../server/src/engine/relationships.ts';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import type { ProposalChanges } from '../../server/src/lsp/proposalChanges.ts';
import { ProposalTracker } from '../../server/src/lsp/proposalTracker.ts';
import { DEFAULT_THRESHOLDS, scoreSignals, SCORE_VERSION, similaritySignal } from '../../server/src/scoring/index.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { forEachBackend } from './backends.ts';
import { ListingEverything } from '../support/wholeFolderReads.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function propose(store: WorkspaceStore, from: string, to: string, cosine: number) {
  const signals = [similaritySignal(cosine)];
  const { score } = scoreSignals(signals);
  return store.upsertRelationship(
    { fromItemId: from, toItemId: to, type: 'similar_to', score, proposedScore: score, scoreVersion: SCORE_VERSION, nearDuplicate: false, signals, producedBy: 'test' },
    reviewAgainstDecision,
  );
}

forEachBackend((backend) => {
  backend.test('the items and relationships written since a moment are those written at or after it, deleted items included', async (t) => {
    const { store } = await backend.open(t);
    const a = await store.recordIngest({ path: 'a.md', contentHash: 'hash-a', size: 1 }, () => true);
    const b = await store.recordIngest({ path: 'b.md', contentHash: 'hash-b', size: 1 }, () => true);
    const c = await store.recordIngest({ path: 'c.md', contentHash: 'hash-c', size: 1 }, () => true);
    const first = await propose(store, a.itemId, b.itemId, 0.9);
    await sleep(5);
    const since = new Date().toISOString();
    await sleep(5);
    const second = await propose(store, a.itemId, c.itemId, 0.9);
    await store.tombstone('b.md');
    await store.recordIngest({ path: 'd.md', contentHash: 'hash-d', size: 1 }, () => true);

    assert.deepEqual((await store.listItems({ includeDeleted: true, writtenSince: since })).map((item) => item.path).sort(), ['b.md', 'd.md']);
    assert.deepEqual((await store.listItems({ writtenSince: since })).map((item) => item.path), ['d.md']);
    // Between live items only, as every list of relationships: a-b lost its end and was written before anyway.
    assert.deepEqual((await store.listRelationships({ writtenSince: since })).map((record) => record.id), [second.id]);
    assert.deepEqual((await store.listRelationships()).map((record) => record.id), [second.id]);
    assert.notEqual(first.id, second.id);
  });

  // With no margin each look reads only what was written after the last one began: the
  // relationships left alone are carried over, and one whose end was deleted or came back is found
  // through that end. With the server's margin each look reads the last minute again, all of this.
  for (const [margin, tracker] of [['no margin', () => new ProposalTracker(0)], ["the server's margin", () => new ProposalTracker()]] as const) {
    backend.test(`the proposals a pass changed are what reading every relationship and item said, through edits, moves, decisions and deletions (${margin})`, (t) =>
      sameNotesAsListing(t, tracker()),
    );
  }
  async function sameNotesAsListing(t: TestContext, tracker: ProposalTracker): Promise<void> {
    const { store } = await backend.open(t);
    const ids = new Map<string, string>();
    const add = async (file: string, hash = `hash-${file}`) => ids.set(file, (await store.recordIngest({ path: file, contentHash: hash, size: 1 }, () => true)).itemId);
    for (const file of ['a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'f.md']) await add(file);
    const id = (file: string) => ids.get(file)!;

    const reference = new ListingEverything();
    const seen: ProposalChanges[] = [];
    const compare = async (step: string) => {
      await sleep(2);
      const expected = await reference.look(store);
      const actual = await tracker.look(store, DEFAULT_THRESHOLDS.storeScore);
      assert.deepEqual(actual, expected, step);
      if (actual) seen.push(actual);
    };
    await compare('the first look');

    // Wording alone scores 0.29 at a cosine of 0.99, 0.27 at 0.95: over the 0.25 threshold.
    const ab = await propose(store, id('a.md'), id('b.md'), 0.99);
    const ac = await propose(store, id('a.md'), id('c.md'), 0.95);
    await propose(store, id('d.md'), id('e.md'), 0.97);
    // Under the threshold: stored, never pending in the list.
    await propose(store, id('e.md'), id('f.md'), 0.05);
    await compare('three proposals made');

    await propose(store, id('a.md'), id('b.md'), 0.95);
    await decide(store, ac.id, { status: 'confirmed', by: 'ana' });
    await store.recordIngest({ path: 'b.md', contentHash: 'hash-b.md-2', size: 2 }, () => true);
    await compare('one rescored, one confirmed, a file edited');

    await store.tombstone('d.md');
    await store.recordIngest({ path: 'g.md', contentHash: 'hash-f.md', size: 1 }, (file) => file !== 'f.md');
    await propose(store, id('a.md'), id('b.md'), 0.05);
    await compare('a file deleted, another moved, a proposal fallen under the threshold');

    await add('d.md', 'hash-d.md-back');
    await propose(store, id('c.md'), id('f.md'), 0.99);
    await compare('the deleted file back, a proposal with the moved one');

    await compare('nothing written');
    await compare('nothing written, once more');

    assert.equal(ab.outcome, 'created');
    // The steps did change what is pending, so the comparison above compared something.
    assert.deepEqual(seen, [
      { withdrawn: 0, added: 3, changed: 0, edited: [] },
      { withdrawn: 0, added: 0, changed: 1, edited: ['b.md'] },
      { withdrawn: 2, added: 0, changed: 0, edited: ['d.md', 'f.md', 'g.md'] },
      { withdrawn: 0, added: 2, changed: 0, edited: ['d.md'] },
      { withdrawn: 0, added: 0, changed: 0, edited: [] },
      { withdrawn: 0, added: 0, changed: 0, edited: [] },
    ]);
  }
});
