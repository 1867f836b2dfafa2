// The language server's search threads embed their queries through a port of their own to the
// query model's thread (embed/modelPort.ts), not through the main thread, which indexing keeps
// busy (issue 33). Asserted by what the main thread was asked to do, never by a duration: after
// handing each thread a port once, it relays no query's embedding, and the answers are the ones
// the same search gives in-process with the same model.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { queryEmbedder } from '../../server/src/ranking/queryEmbedder.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { SEARCH_THREADS, SearchThreads } from '../../server/src/ranking/searchThreads.ts';
import { writeCorpus } from '../support/generateCorpus.ts';
import { tempDir } from '../support/tempFolder.ts';

const QUERIES = ['crane inspection', 'forklift incident report', 'supplier invoice approval', 'warehouse sprinkler leak repair', 'budget', 'who approved the contract'];

test('search threads embed queries through the model’s port: the main thread hands each a port once and relays nothing', { timeout: 10 * 60_000 }, async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'folder');
  writeCorpus(folder, 24, 5);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'model-port', embedding: { kind: 'use-lite', threads: 1 } });
  t.after(() => index.close());
  await index.index();
  assert.equal(index.location.backend, 'sqlite');

  const embedder = (await queryEmbedder({ kind: 'use-lite', threads: 1 }))!;
  t.after(() => embedder.close());
  const threads = new SearchThreads({ location: index.location, workspace: index.store.workspace });
  t.after(() => threads.close());

  // Twice over, all at once, so both threads run searches and each thread embeds several queries.
  const answers = await Promise.all([...QUERIES, ...QUERIES.map((query) => `${query} summary`)].map((query) => threads.search(query, { limit: 5 }, embedder)));

  assert.equal(threads.embeddings.relayed, 0, 'a query’s embedding went through the main thread');
  assert.ok(threads.embeddings.portsHandedOver >= 1 && threads.embeddings.portsHandedOver <= SEARCH_THREADS, `one port per thread at most, ${threads.embeddings.portsHandedOver} handed over`);
  // A query the model could not embed would name the vector path as unavailable.
  for (const answer of answers) assert.deepEqual(answer.unavailable_paths, [], `every path ran for “${answer.query}”`);
  assert.ok(answers.filter((answer) => answer.results.some((result) => (result.contributions.vector ?? 0) > 0)).length >= QUERIES.length, 'the vector path found items');

  // The same model through the port: the same answers as the search run here.
  for (const query of QUERIES) {
    const inThread = await threads.search(query, { limit: 5 }, embedder);
    const here = await searchWorkspace(index.store, embedder, query, { limit: 5 });
    assert.deepEqual(
      inThread.results.map((result) => [result.item_id, result.query_relevance]),
      here.results.map((result) => [result.item_id, result.query_relevance]),
    );
  }
  assert.equal(threads.embeddings.relayed, 0);
});
