// The sample each item's similarity baseline is read against (discover/folderSimilarity.ts) is the
// same for the same folder in any store: it follows the files' bytes and paths, not the random ids
// a store gives its items. Chosen by id, two indexes of one folder proposed different pairs under
// relationship-score-v2 (SciFact's claims: 23, 27 and 29 proposals in three fresh stores).

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { BASELINE_SAMPLE, folderSample } from '../../server/src/discover/folderSimilarity.ts';
import type { ItemRecord } from '../../server/src/store/contract.ts';

/** A folder's live items as a fresh store would hold them: the same paths and bytes, new ids. */
function storedFolder(files: readonly { path: string; contentHash: string }[]): ItemRecord[] {
  return files.map(({ path, contentHash }) => ({
    id: randomUUID(),
    path,
    title: null,
    status: 'indexed',
    reason: null,
    duplicateOf: null,
    contentHash,
    parserVersion: 'test',
    flags: [],
    version: 1,
    updatedAt: '2026-12-07T00:00:00.000Z',
    size: 100,
    createdAt: '2026-12-07T00:00:00.000Z',
    deletedAt: null,
    forgottenAt: null,
  }));
}

const FILES = Array.from({ length: 200 }, (_, n) => ({ path: `notes/note-${n}.md`, contentHash: `sha256-${(n * 7919).toString(16)}` }));
// Two files with the same bytes (a copy): the sample still orders them the same way every time.
FILES.push({ path: 'copies/note-0.md', contentHash: FILES[0]!.contentHash });

test('one folder gives the same baseline sample in any store, whatever ids the items were given and in whatever order they are listed', () => {
  const paths = (items: ItemRecord[]) => folderSample(items).sample.map((item) => item.path);
  const first = paths(storedFolder(FILES));
  assert.equal(first.length, BASELINE_SAMPLE + 1);
  for (let store = 0; store < 5; store += 1) {
    assert.deepEqual(paths(storedFolder(FILES)), first, 'new ids');
    assert.deepEqual(paths(storedFolder([...FILES].reverse())), first, 'listed in another order');
  }
});

test('the sample follows the bytes: an edited file may leave it or join it, a renamed one keeps its place unless its bytes tie', () => {
  const before = folderSample(storedFolder(FILES)).sample.map((item) => item.contentHash);
  const renamed = FILES.map((file, n) => (n === 5 ? { ...file, path: 'archive/renamed.md' } : file));
  assert.deepEqual(folderSample(storedFolder(renamed)).sample.map((item) => item.contentHash), before);
});
