// The metadata people give their documents, end to end on a real folder and a real SQLite store:
// two Markdown notes whose front matter both say `project: GC-2` are related with a
// shared_metadata signal naming the key and the value; two that share only an author are not
// related by it (an author is not what a document is about); two sharing nothing but front matter
// are weighed as candidates and left below the minimum score; and `relata item` shows it all.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { describeMetadata } from '../../shared/metadataText.ts';
import { gatherCandidates } from '../../server/src/discover/candidates.ts';
import { DEFAULT_LIMITS } from '../../server/src/discover/limits.ts';
import { loadProfiles, subjectMetadata } from '../../server/src/discover/profile.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { itemDetail } from '../../server/src/engine/itemViews.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/index.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

const note = (frontMatter: string, body: string): string => `---\n${frontMatter}\n---\n\n${body}\n`;

const FILES = {
  'cranes/handover.md': note(
    'title: GC-2 handover\nproject: GC-2\nauthor: Tomasz Wieczorek',
    '# GC-2 handover\n\nMs. Carla Mendes walked the gantry crane with the night shift and signed off the brakes.',
  ),
  'cranes/inspection.md': note(
    'title: GC-2 inspection\nProject: gc-2\nauthor: Priya Raman',
    '# GC-2 inspection\n\nThe hoist rope was replaced before Ms. Carla Mendes inspected the crane rails.',
  ),
  'dock/door.md': note('author: Ana Lima', '# Dock door\n\nMr. Jonas Weber reported the dock door sticking in the cold.'),
  'dock/ramp.md': note('author: Ana Lima', '# Dock ramp\n\nMr. Jonas Weber asked for the ramp hinge to be greased.'),
  'harbour/berths.md': note('project: Harbour Two', '# Berths\n\nTwelve berths are planned along the eastern quay.'),
  'harbour/budget.md': note('project: Harbour Two', '# Spending\n\nThe dredging contract was tendered in spring.'),
};

async function between(store: WorkspaceStore, a: string, b: string) {
  const [itemA, itemB] = [await store.getItemByPath(a), await store.getItemByPath(b)];
  return store.relationshipBetween(itemA!.id, itemB!.id);
}

test('front matter sharing project: GC-2 relates two notes by shared_metadata; a shared author does not', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t, 'relata-metadata-');
  const folder = writeFiles(path.join(root, 'folder'), FILES);
  const dataDir = path.join(root, 'data');
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'metadata', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const { store } = index;

  const cranes = await between(store, 'cranes/handover.md', 'cranes/inspection.md');
  assert.ok(cranes, 'the crane notes are related (they also name Ms. Carla Mendes)');
  const shared = cranes.signals.filter((signal) => signal.type === 'shared_metadata');
  assert.equal(shared.length, 1, 'one shared value: the project (the authors differ, and the title is not metadata)');
  assert.equal(shared[0]!.value.toLowerCase(), 'project: gc-2', 'the value names the key and the value');
  assert.equal(shared[0]!.strength, 1, 'only this pair gives the value');
  assert.equal(shared[0]!.weight, 0.08);
  assert.match(shared[0]!.detail, /project: GC-2|Project: gc-2/);

  const dock = await between(store, 'dock/door.md', 'dock/ramp.md');
  assert.ok(dock, 'the dock notes are related (they name Mr. Jonas Weber)');
  assert.ok(!dock.signals.some((signal) => signal.type === 'shared_metadata'), 'a shared author is not evidence of what a document is about');

  // Sharing nothing but their front matter, the harbour notes are weighed (metadata makes them
  // candidates) and left below the minimum score: 1 × 0.08 alone is not a relationship.
  const berths = (await store.getItemByPath('harbour/berths.md'))!;
  const budget = (await store.getItemByPath('harbour/budget.md'))!;
  const [profile] = await loadProfiles(store, [berths], null);
  const sharing = await store.metadataItemCounts(subjectMetadata(profile!), DEFAULT_LIMITS.frequencyCap);
  assert.deepEqual(Object.fromEntries(sharing), { 'project:harbour two': 2 });
  const candidates = await gatherCandidates(store, profile!, null, DEFAULT_LIMITS, new Map(), sharing, new Map(), new Map());
  assert.deepEqual([...(candidates.get(budget.id) ?? [])], ['metadata']);
  assert.ok(0.08 < DEFAULT_THRESHOLDS.minScore);
  assert.equal(await between(store, 'harbour/berths.md', 'harbour/budget.md'), null, 'no relationship from metadata alone');

  // What `relata item` and the editor show for the item.
  const detail = await itemDetail(store, (await store.getItemByPath('cranes/handover.md'))!);
  assert.deepEqual(detail.metadata, [
    { label: 'project', text: 'GC-2', compared: true },
    { label: 'author', text: 'Tomasz Wieczorek', compared: false },
  ]);
  assert.equal(describeMetadata(detail.metadata), 'project: GC-2 · also given, not used to relate files: author: Tomasz Wieczorek');
});

test('relata item prints the metadata line', { timeout: 5 * 60_000, skip: existsSync(CLI) ? false : 'dist/cli.js is not built: run npm run build' }, async (t) => {
  const root = tempDir(t, 'relata-metadata-cli-');
  const folder = writeFiles(path.join(root, 'folder'), { 'cranes/handover.md': FILES['cranes/handover.md'] });
  const dataDir = path.join(root, 'data');
  const run = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  run('index', folder, '--data', dataDir, '--embedding-model', 'none');
  const printed = run('item', path.join(folder, 'cranes/handover.md'), '--data', dataDir);
  assert.match(printed, /^metadata: project: GC-2 · also given, not used to relate files: author: Tomasz Wieczorek$/m);
});
