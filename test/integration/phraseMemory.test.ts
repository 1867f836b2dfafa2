// Discovery remembers the key phrases' item counts and each item's compared phrases between items
// (discover/phraseMemory.ts, issue 32), so a candidate met by a hundred items' discoveries is not
// counted a hundred times. What it remembers must never be stale: an extraction stored or dropped
// changes no row of `items`, yet changes the counts, so it must move the store's count of changes.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { loadProfiles } from '../../server/src/discover/profile.ts';
import { phraseCounts, phraseMemory } from '../../server/src/discover/phraseMemory.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const TF_IDF = { concepts: 'tf_idf' as const, frequencyCap: 1000 };

test('phrase counts and compared phrases are kept while nothing changes, and counted again after an extraction changes', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t, 'relata-phrase-memory-');
  const folder = writeFiles(path.join(root, 'folder'), {
    'a.md': '# Lattice\n\nThe quantum lattice holds. The quantum lattice bends under load.\n',
    'b.md': '# Harbour\n\nThe harbour crane lifts containers. The harbour crane rests at night.\n',
    'c.md': '# Orchard\n\nThe apple orchard blooms. The apple orchard fruits in autumn.\n',
  });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'phrases', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const { store } = index;
  const b = (await store.getItemByPath('b.md'))!;

  const memory = await phraseMemory(store);
  assert.equal((await phraseCounts(store, memory, ['zebra'], 10)).get('zebra'), 0);
  const [before] = await loadProfiles(store, [b], null, TF_IDF);
  assert.equal(await phraseMemory(store), memory, 'nothing changed: the same memory, nothing counted again');
  assert.ok(!before!.phrases.some((phrase) => phrase.key === 'zebra'));

  // b's extraction stored anew (as a new extractor version would), now with a phrase of its own.
  const [facts] = (await store.discoveryFacts([b.id], null, 100)).values();
  const stored = await store.storeExtraction(b.id, b.contentHash!, {
    entities: [],
    claims: [],
    phrases: [...facts!.phrases, { key: 'zebra', phrase: 'zebra', count: 9 }],
    versions: 'test@1',
  });
  assert.ok(stored);

  const after = await phraseMemory(store);
  assert.notEqual(after, memory, 'an extraction stored: what was remembered is dropped');
  assert.equal((await phraseCounts(store, after, ['zebra'], 10)).get('zebra'), 1, 'the phrase is counted again, now in b');
  const [profile] = await loadProfiles(store, [b], null, TF_IDF);
  assert.ok(
    profile!.phrases.some((phrase) => phrase.key === 'zebra'),
    'b is compared by its new phrase, not by the choice remembered from its old extraction',
  );
});
