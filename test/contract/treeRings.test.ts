// The folder tree read ring by ring, on every backend: the store's stretch-of-paths look-up
// (indexedItemsInPathRange, deepestIndexedPath) and Related's nearby fallback built on it
// (engine/treeRings.ts), which must pick exactly the items that listing every item and sorting it
// by tree distance picked before (issue 32), only without reading the whole folder.

import assert from 'node:assert/strict';
import { nearestInTree } from '../../server/src/engine/treeRings.ts';
import { nearestByListing } from '../support/wholeFolderReads.ts';
import { forEachBackend } from './backends.ts';
import { indexDocument, ingest } from './documents.ts';

/**
 * A tree with the awkward cases: root files, a folder at every depth to 4, folders whose names are
 * prefixes of each other or sort beside '/' ('a', 'a.b', 'a-z', 'a0', 'ab'), upper case, and
 * names outside the Basic Multilingual Plane, where UTF-16 order and code-point order differ.
 */
const TREE = [
  'readme.md', 'A.md', 'z.md', 'a.md',
  'a/one.md', 'a/Two.md', 'a/b/x.md', 'a/b/y.md', 'a/b/c/deep.md', 'a/b/c/d/deeper.md', 'a/b/c/d/e.md',
  'a/c/p.md', 'a/c/q.md', 'a.b/n.md', 'a-z/m.md', 'a0/k.md', 'ab/j.md', 'ab/cd/i.md',
  'b/one.md', 'b/c/two.md', 'b/c/d/three.md', 'Zeta/q.md', '\u{1F600}/smile.md', '\uFF21/wide.md', 'x/y/z/w.md',
];

forEachBackend((backend) => {
  backend.test('a stretch of paths gives the live indexed items at exactly that depth, in code-point order, up to the limit', async (t) => {
    const { store } = await backend.open(t);
    for (const filePath of ['a/b/x.md', 'a/b/y.md', 'a/b/z.md', 'a/c.md', 'a/b/c/d.md', 'ab/x.md', 'a.md']) await indexDocument(store, filePath, `# ${filePath}\n\ntext of ${filePath}\n`);
    await ingest(store, 'a/b/pending.md', '# Pending\n\nnot parsed\n');
    await store.tombstone('a/b/z.md');

    const stretch = await store.indexedItemsInPathRange({ from: 'a/', to: 'a0', slashes: 2 }, 10);
    assert.deepEqual(stretch.map((entry) => entry.path), ['a/b/x.md', 'a/b/y.md']);
    assert.deepEqual((await store.indexedItemsInPathRange({ from: 'a/', to: 'a0', slashes: 2 }, 1)).map((entry) => entry.path), ['a/b/x.md']);
    assert.deepEqual((await store.indexedItemsInPathRange({ from: 'a/b/y', to: null, slashes: 2 }, 10)).map((entry) => entry.path), ['a/b/y.md']);
    assert.deepEqual((await store.indexedItemsInPathRange({ from: '', to: null, slashes: 0 }, 10)).map((entry) => entry.path), ['a.md']);
    assert.equal(stretch[0]!.id, (await store.getItemByPath('a/b/x.md'))!.id);
    assert.equal(await store.deepestIndexedPath(), 3);
  });

  backend.test('an empty folder has no depth and no stretch of items', async (t) => {
    const { store } = await backend.open(t);
    assert.equal(await store.deepestIndexedPath(), null);
    assert.deepEqual(await store.indexedItemsInPathRange({ from: '', to: null, slashes: 0 }, 5), []);
  });

  backend.test('the nearest items in the tree are the ones listing every item and sorting by distance picked, from every file', async (t) => {
    const { store } = await backend.open(t);
    const ids = new Map<string, string>();
    for (const filePath of TREE) ids.set(filePath, (await indexDocument(store, filePath, `# ${filePath}\n\ntext of ${filePath}\n`)).itemId);
    await ingest(store, 'a/b/waiting.md', '# Waiting\n\nnot parsed\n');
    await indexDocument(store, 'a/b/gone.md', '# Gone\n\ngone\n');
    await store.tombstone('a/b/gone.md');

    let compared = 0;
    for (const subject of TREE) {
      // The subject itself, and in one case also a neighbour in its own folder and one far away,
      // as Related leaves out what it already shows.
      const blockings = [
        [ids.get(subject)!],
        [ids.get(subject)!, ids.get('a/b/y.md')!, ids.get('b/c/two.md')!, ids.get('readme.md')!],
      ];
      for (const blocked of blockings) {
        const isBlocked = (id: string) => blocked.includes(id);
        for (const count of [1, 3, 7, TREE.length]) {
          const expected = await nearestByListing(store, subject, count, isBlocked);
          const actual = await nearestInTree(store, subject, count, isBlocked, blocked.length);
          assert.deepEqual(actual, expected, `${subject}, ${count} items, ${blocked.length} left out`);
          compared += 1;
        }
      }
    }
    assert.equal(compared, TREE.length * 2 * 4);
  });
});
