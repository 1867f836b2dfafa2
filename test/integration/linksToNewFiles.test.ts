// When a file arrives, the files whose links now reach it are discovered again
// (discover/links/linksToNewFiles.ts), and each check after the first reads only what changed: the
// links of files whose bytes changed and the relationships of files whose links now resolve
// differently, not every file's, which made each save of a new file cost a pass over the folder.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const NOTES = 40;

/** Counts, on the store itself, the reads the check makes per file: the links a file writes, the relationships of files. */
function countReads(store: WorkspaceStore) {
  const reads = { links: 0, relationshipsOf: 0 };
  const listDocumentLinks = store.listDocumentLinks.bind(store);
  const relationshipsTouching = store.relationshipsTouching.bind(store);
  store.listDocumentLinks = (itemId) => {
    reads.links += 1;
    return listDocumentLinks(itemId);
  };
  store.relationshipsTouching = (itemIds, options) => {
    reads.relationshipsOf += itemIds.length;
    return relationshipsTouching(itemIds, options);
  };
  return reads;
}

async function between(store: WorkspaceStore, a: string, b: string) {
  const [first, second] = [(await store.getItemByPath(a))!, (await store.getItemByPath(b))!];
  return store.relationshipBetween(first.id, second.id);
}

test('a file that arrives gets the files linking to it discovered again; each later check reads only the files that changed', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t, 'relata-links-new-');
  const files: Record<string, string> = {};
  // Each note links to the next; the last one to a guide not written yet.
  for (let n = 0; n < NOTES - 1; n += 1) files[`notes/note-${n}.md`] = `# Note ${n}\n\nSee [the next note](note-${n + 1}.md) about topic ${n}.\n`;
  files[`notes/note-${NOTES - 1}.md`] = `# Note ${NOTES - 1}\n\nSee [the build guide](../guides/build.md).\n`;
  const folder = writeFiles(path.join(root, 'folder'), files);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'links-new', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  assert.equal(await between(index.store, `notes/note-${NOTES - 1}.md`, 'guides/build.md').catch(() => null), null, 'no guide yet');

  const reads = countReads(index.store);
  writeFiles(folder, { 'guides/build.md': '# Build guide\n\nHow to build.\n', 'guides/other.md': '# Other\n\nNothing links here.\n' });
  await index.indexChanges(['guides/build.md', 'guides/other.md']);
  const relationship = await between(index.store, `notes/note-${NOTES - 1}.md`, 'guides/build.md');
  assert.equal(relationship?.type, 'links_to', 'the note linking to the guide was discovered again once it arrived');
  // The check read the links of the two new files, and the relationships of the one file whose link
  // now resolves differently (discovery itself reads the links and relationships of the items it weighs).
  const checkReads = { ...reads };
  assert.ok(checkReads.links < NOTES / 2, `links read for ${checkReads.links} files, not the folder's ${NOTES + 2}`);
  assert.ok(checkReads.relationshipsOf < NOTES / 2, `relationships read for ${checkReads.relationshipsOf} files, not the folder's`);
});
