// Related for one item, on a real folder indexed into a real SQLite store: relationships first
// (confirmed before pending, rejected ones left out), then content neighbours by fused rank; the
// "not linked yet" filter; never empty on a folder of two indexed documents, with the embedding
// model `none` too; another workspace's items never appear. Vectors come from a small hand-made
// model stored through the store's own API, so which item is nearest is known in advance.

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import path from 'node:path';
import { reviewAgainstDecision } from '../../server/src/discover/decisionReview.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { relatedTo, RelatedItemError } from '../../server/src/engine/related.ts';
import { decide } from '../../server/src/engine/relationships.ts';
import { scoreSignals, SCORE_VERSION, conceptSignal, similaritySignal } from '../../server/src/scoring/index.ts';
import type { RelationshipProposal, WorkspaceStore } from '../../server/src/store/contract.ts';
import type { RelationshipType, SignalView } from '../../shared/types.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const MODEL = { id: 'test-directions', dims: 4, version: '1', maxTokens: 512 };

const FILES = {
  'notes/crane.md': '# Gantry crane\n\nThe hydraulic cylinder of the gantry crane leaked. The hydraulic cylinder seals were replaced and the cylinder was pressure tested.\n',
  'notes/crane-followup.md': '# Follow-up\n\nAfter the hydraulic cylinder repair, the cylinder seals held at full pressure for a week.\n',
  'notes/reading.md': '# Reading list\n\nNovels for the summer: a long walk along the coast, and letters from a lighthouse.\n',
  'reports/linked.md': '# Maintenance calendar\n\nThe yearly calendar of inspections for every machine on site.\n',
  'reports/confirmed.md': '# Budget\n\nThe capital budget for the coming year, by department.\n',
  'reports/rejected.md': '# Canteen\n\nThe canteen menu changes every Monday.\n',
};

/** Each file's direction in the hand-made model: the follow-up lies closest to the crane note, the reading list farthest. */
const DIRECTIONS: Record<string, number[]> = {
  'notes/crane.md': [1, 0, 0, 0],
  'notes/crane-followup.md': [0.95, 0.31, 0, 0],
  'notes/reading.md': [0.6, 0, 0.8, 0],
  'reports/linked.md': [0.7, 0, 0, 0.71],
  'reports/confirmed.md': [0, 1, 0, 0],
  'reports/rejected.md': [0.9, 0, 0.44, 0],
};

async function indexed(t: TestContext, files: Record<string, string>, workspace = 'alice', dataDir = tempDir(t, 'relata-related-data-')) {
  const folder = writeFiles(tempDir(t, 'relata-related-'), files);
  const index = await FolderIndex.open({ folder, dataDir, workspace, embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  return { index, store: index.store, dataDir };
}

async function storeDirections(store: WorkspaceStore, directions: Record<string, number[]>): Promise<void> {
  await store.registerModel(MODEL);
  for (const [file, direction] of Object.entries(directions)) {
    const item = (await store.getItemByPath(file))!;
    const length = Math.hypot(...direction);
    const chunks = await store.listChunks(item.id);
    await store.storeVectors(
      item.id,
      item.contentHash!,
      MODEL,
      chunks.map((chunk) => ({ chunkId: chunk.id, window: 0, start: 0, end: chunk.text.length, vector: Float32Array.from(direction, (x) => x / length) })),
    );
  }
}

async function relate(store: WorkspaceStore, from: string, to: string, type: RelationshipType, signals: SignalView[]): Promise<string> {
  const [a, b] = [(await store.getItemByPath(from))!, (await store.getItemByPath(to))!];
  const { score } = scoreSignals(signals);
  const proposal: RelationshipProposal = {
    fromItemId: a.id,
    toItemId: b.id,
    type,
    score,
    proposedScore: score,
    scoreVersion: SCORE_VERSION,
    nearDuplicate: false,
    signals,
    producedBy: 'test',
  };
  return (await store.upsertRelationship(proposal, reviewAgainstDecision)).id;
}

async function craneFolder(t: TestContext) {
  const { store, dataDir } = await indexed(t, FILES);
  await storeDirections(store, DIRECTIONS);
  // The link evidence is another part's work; a `links_to` record is what Related reads of it.
  await relate(store, 'notes/crane.md', 'reports/linked.md', 'links_to', [similaritySignal(0.99)]);
  const confirmed = await relate(store, 'reports/confirmed.md', 'notes/crane.md', 'supports', [conceptSignal('capital budget', 2)]);
  await decide(store, confirmed, { status: 'confirmed', by: 'ana' });
  const rejected = await relate(store, 'notes/crane.md', 'reports/rejected.md', 'similar_to', [similaritySignal(0.99)]);
  await decide(store, rejected, { status: 'rejected', by: 'ana' });
  return { store, dataDir };
}

describe('Related for the file in front of you', { timeout: 10 * 60_000 }, () => {
  test('relationships come first, a confirmed one before pending ones, then content neighbours with the closest first; a rejected pair appears nowhere', async (t) => {
    const { store } = await craneFolder(t);
    const view = await relatedTo(store, 'notes/crane.md', { modelId: MODEL.id });
    const kinds = view.entries.map((entry) => entry.kind);
    const firstContent = kinds.indexOf('similar_content');
    assert.ok(firstContent > 0, `relationships, then content: ${kinds.join(', ')}`);
    assert.ok(kinds.slice(0, firstContent).every((kind) => kind === 'relationship'));
    assert.ok(kinds.slice(firstContent).every((kind) => kind === 'similar_content'));
    assert.equal(view.entries[0]!.item.path, 'reports/confirmed.md', 'the confirmed relationship leads');
    assert.equal(view.entries[0]!.relationship?.status, 'confirmed');
    assert.equal(view.entries[0]!.relationship?.direction, 'incoming');
    const link = view.entries.find((entry) => entry.item.path === 'reports/linked.md')!;
    assert.equal(link.kind, 'relationship');
    assert.equal(link.relationship?.direction, 'outgoing');
    assert.deepEqual(link.why, ['links to it']);
    assert.ok(view.entries.every((entry) => entry.item.path !== 'reports/rejected.md'), 'a rejected pair is left out');
    assert.ok(view.entries.every((entry) => entry.item.path !== 'notes/crane.md'), 'never the item itself');
    const content = view.entries.slice(firstContent);
    assert.equal(content[0]!.item.path, 'notes/crane-followup.md', 'nearest in vectors and in words comes first');
    assert.ok(content[0]!.why.some((why) => /shares words: .*cylinder/.test(why)), content[0]!.why.join('; '));
    assert.ok(Math.abs(content[0]!.similarity! - 0.95) < 0.01, 'the number shown is the cosine of the closest windows');
    assert.equal(content[0]!.passage?.location.kind, 'lines');
    assert.match(view.similarity_label, /semantic similarity/);
    assert.match(view.similarity_label, /not a strength or a probability/);
  });

  test('relationships and content neighbours each carry their own number: strength for one, similarity for the other', async (t) => {
    const { store } = await craneFolder(t);
    const view = await relatedTo(store, 'notes/crane.md', { modelId: MODEL.id });
    for (const entry of view.entries) {
      if (entry.kind === 'relationship') {
        assert.equal(entry.similarity, null);
        assert.equal(entry.relationship!.score_version, SCORE_VERSION);
        assert.ok(entry.relationship!.evidence.length > 0);
      } else {
        assert.equal(entry.relationship, null);
        assert.equal(typeof entry.similarity, 'number');
      }
    }
  });

  test('"not linked yet" leaves out what the documents link, as a relationship and as a neighbour', async (t) => {
    const { store } = await craneFolder(t);
    const all = await relatedTo(store, 'notes/crane.md', { modelId: MODEL.id });
    assert.ok(all.entries.some((entry) => entry.linked));
    const unlinked = await relatedTo(store, 'notes/crane.md', { modelId: MODEL.id, onlyUnlinked: true });
    assert.ok(unlinked.entries.length > 0);
    assert.ok(unlinked.entries.every((entry) => !entry.linked));
    assert.ok(unlinked.entries.every((entry) => entry.item.path !== 'reports/linked.md'));
    // From the other end, the link reads as incoming and is filtered the same way.
    const fromLinked = await relatedTo(store, 'reports/linked.md', { modelId: MODEL.id });
    const back = fromLinked.entries.find((entry) => entry.item.path === 'notes/crane.md')!;
    assert.equal(back.relationship?.direction, 'incoming');
    assert.deepEqual(back.why, ['linked from it']);
    const fromLinkedUnlinked = await relatedTo(store, 'reports/linked.md', { modelId: MODEL.id, onlyUnlinked: true });
    assert.ok(fromLinkedUnlinked.entries.every((entry) => entry.item.path !== 'notes/crane.md'));
  });

  test('relationships of equal strength come in the order of their paths, whatever ids the store gave the items', async (t) => {
    const others = ['e', 'b', 'f', 'a', 'd', 'c'].map((name) => `tied/${name}.md`);
    const files = Object.fromEntries([['tied/subject.md', '# Subject\n\nThe subject note.\n'], ...others.map((file) => [file, `# ${file}\n\nA note of its own.\n`])]);
    const { store } = await indexed(t, files);
    // Six pairs of one strength: ordered by their ids (random per store) they came in one of 720 orders.
    for (const file of others) await relate(store, 'tied/subject.md', file, 'links_to', [similaritySignal(0.99)]);
    const view = await relatedTo(store, 'tied/subject.md', { limit: 6 });
    assert.deepEqual(
      view.entries.map((entry) => [entry.kind, entry.item.path]),
      [...others].sort().map((file) => ['relationship', file]),
    );
    assert.equal(new Set(view.entries.map((entry) => entry.relationship?.strength)).size, 1, 'one strength');
  });

  test('the limit counts every entry, relationships first', async (t) => {
    const { store } = await craneFolder(t);
    const view = await relatedTo(store, 'notes/crane.md', { modelId: MODEL.id, limit: 1 });
    assert.deepEqual(view.entries.map((entry) => entry.item.path), ['reports/confirmed.md']);
  });

  test('with the embedding model none, shared words alone fill the list, and the note says why', async (t) => {
    const { store } = await indexed(t, FILES);
    const view = await relatedTo(store, 'notes/crane.md');
    assert.equal(view.entries[0]?.item.path, 'notes/crane-followup.md');
    assert.equal(view.entries[0]?.similarity, null, 'no cosine is made up without vectors');
    assert.ok(view.notes.some((note) => /embedding model is none/.test(note)), view.notes.join('; '));
  });

  test('never empty on a folder of two indexed documents that share nothing, embedding none', async (t) => {
    const { store } = await indexed(t, {
      'a/sourdough.md': 'Sourdough bread rises overnight in a warm kitchen.\n',
      'b/entanglement.md': 'Quantum entanglement links particle states across distance.\n',
    });
    for (const file of ['a/sourdough.md', 'b/entanglement.md']) {
      const view = await relatedTo(store, file);
      assert.equal(view.entries.length, 1, `${file}: ${JSON.stringify(view)}`);
      assert.equal(view.entries[0]!.kind, 'nearby');
      assert.equal(view.entries[0]!.similarity, null);
      assert.ok(view.notes.some((note) => /nothing close in content/.test(note)));
    }
  });

  test('never empty on two documents with vectors', async (t) => {
    const two = { 'one.md': FILES['notes/crane.md'], 'two.md': FILES['notes/reading.md'] };
    const { store } = await indexed(t, two);
    await storeDirections(store, { 'one.md': [1, 0, 0, 0], 'two.md': [0, 1, 0, 0] });
    const view = await relatedTo(store, 'one.md', { modelId: MODEL.id });
    assert.deepEqual(view.entries.map((entry) => entry.item.path), ['two.md']);
    assert.equal(view.entries[0]!.kind, 'similar_content');
  });

  test("another workspace's items never appear, though they sit in the same store and say the same", async (t) => {
    const { store, dataDir } = await indexed(t, FILES, 'alice');
    const other = await indexed(t, { 'bob/crane-copy.md': FILES['notes/crane-followup.md'] + '\nBob.\n' }, 'bob', dataDir);
    await storeDirections(store, DIRECTIONS);
    await storeDirections(other.store, { 'bob/crane-copy.md': [1, 0, 0, 0] });
    const bobItem = (await other.store.getItemByPath('bob/crane-copy.md'))!;
    for (const modelId of [MODEL.id, null]) {
      const view = await relatedTo(store, 'notes/crane.md', { modelId, limit: 50 });
      assert.ok(view.entries.length > 0);
      assert.ok(view.entries.every((entry) => entry.item.item_id !== bobItem.id && !entry.item.path.startsWith('bob/')), JSON.stringify(view.entries));
    }
  });

  test('a document whose distinctive words are full-text syntax is searched as words, not as a query', async (t) => {
    const hostile = 'NEAR( "title": AND OR NOT * ^ column:text NEAR( "title": AND OR NOT * ^ column:text\n';
    const { store } = await indexed(t, { 'hostile.md': hostile + hostile, 'other.md': 'Column text and the title near the end.\n' });
    const view = await relatedTo(store, 'hostile.md');
    assert.deepEqual(view.entries.map((entry) => entry.item.path), ['other.md']);
  });

  test('a path that is not an indexed item is refused with the path and the reason', async (t) => {
    const { store } = await indexed(t, FILES);
    await assert.rejects(relatedTo(store, 'notes/missing.md'), (error: Error) => error instanceof RelatedItemError && /notes\/missing\.md: not an item/.test(error.message));
    await assert.rejects(relatedTo(store, path.posix.join('..', 'outside.md')), RelatedItemError);
  });
});
