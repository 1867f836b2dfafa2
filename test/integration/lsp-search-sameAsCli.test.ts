// The language server's `relata/search` and the CLI's in-process search (searchWorkspace on the
// same store, with the same query model) answer a query alike: same results, order, relevance,
// similarity, reasons and passages. The default embedding model (USE-lite) is used, so the vector
// path runs, in the server as in the CLI, alongside the lexical, entity and title paths.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { SearchRequest, type ServerSettings } from '../../shared/protocol.ts';
import { parseEmbeddingChoice } from '../../server/src/embed/choice.ts';
import { dataDirFor } from '../../server/src/lsp/folderSession.ts';
import { queryEmbedder } from '../../server/src/ranking/queryEmbedder.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { openStoreWithBlobs } from '../../server/src/store/index.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const WORKSPACE = 'lsp-search-test';

test('relata/search answers a query as the in-process search does', { skip: needsBuild, timeout: 180_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    'crane.md': '# Gantry crane GC-2\n\nExample Ltd refurbished the gantry crane in May 2025 for EUR 42,000.\n',
    'forklift.md': '# Forklift incident\n\nA forklift struck a pallet rack in bay 4; nobody was hurt. The operator reported it at once.\n',
    'invoice.txt': 'Invoice 118 from Example Ltd for the crane refurbishment, approved by the site manager.\n',
    'sprinkler.md': '# Sprinkler leak\n\nThe warehouse sprinkler leaked over the night shift; a plumber repaired the valve.\n',
    'training.md': '# Safety training\n\nEvery operator completes the forklift safety checklist before a shift.\n',
  });
  const dataLocation = path.join(root, 'data');
  const server = await startServer(t, { folder, workspace: WORKSPACE, settings: { dataLocation, embeddingModel: 'default' } });
  await server.watching(150_000);

  const dataDir = dataDirFor(folder, { dataLocation } as ServerSettings);
  const { store } = await openStoreWithBlobs({ location: { backend: 'sqlite', dataDir }, workspace: WORKSPACE, access: 'read' });
  t.after(() => store.close());
  const embedder = await queryEmbedder(parseEmbeddingChoice('default'), { loadNow: true });
  t.after(() => embedder?.close());

  // A word query, a meaning query (no shared word with its best document), a name, a miss.
  for (const query of ['gantry crane', 'who fixed the water pipe', 'Example Ltd', 'quarterly revenue forecast']) {
    const { folders } = await server.connection.sendRequest(SearchRequest.type, { query, limit: 5 });
    const overLsp = folders[0]?.response;
    assert.ok(overLsp, `the server answered "${query}": ${folders[0]?.error}`);
    const inProcess = await searchWorkspace(store, embedder, query, { limit: 5 });
    assert.deepEqual(overLsp, inProcess, `"${query}" is answered alike`);
    assert.ok(
      !overLsp.unavailable_paths.some((unavailable) => unavailable.path === 'vector'),
      `the vector path ran for "${query}" (${JSON.stringify(overLsp.unavailable_paths)})`,
    );
  }
  assert.equal(await server.shutdown(), 0);
});
