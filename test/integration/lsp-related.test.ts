// `relata/relatedItems` through the real, built language server on a copy of docs/demo (embedding
// model none, so words alone find content neighbours): the GC-2 report's relationships first, then
// content neighbours, each with its labelled number; the "not linked yet" filter; a file outside
// any item answers null; and the editor's `related` agent tool answers the same list.

import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { KnowledgeToolRequest, RelatedItemsRequest } from '../../shared/protocol.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const REPORT = 'maintenance/gantry-crane-gc2-refurbishment-report.md';
const BUDGET = 'finance/q2-2025-capital-budget-review.md';

test('the language server answers Related for a file: relationships, then content neighbours, with the unlinked filter', { skip: needsBuild, timeout: 240_000 }, async (t) => {
  const root = tempDir(t);
  const demo = path.join(root, 'demo');
  cpSync(path.join(REPO_ROOT, 'docs', 'demo'), demo, { recursive: true });
  const server = await startServer(t, {
    folder: demo,
    workspace: 'lsp-related',
    unsetEnv: ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT'],
    settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none' },
  });
  await server.watching(120_000);
  const uri = pathToFileURL(path.join(demo, REPORT)).href;

  const answer = await server.connection.sendRequest(RelatedItemsRequest.type, { uri, limit: 6 });
  assert.ok(answer, 'the report is an indexed item');
  const { related } = answer;
  assert.equal(related.item.path, REPORT);
  assert.ok(related.entries.length > 0 && related.entries.length <= 6);
  const firstContent = related.entries.findIndex((entry) => entry.kind !== 'relationship');
  assert.ok(firstContent > 0, 'relationships lead');
  assert.ok(related.entries.slice(firstContent).every((entry) => entry.kind !== 'relationship'), 'and none comes after the content neighbours');
  const budget = related.entries.find((entry) => entry.item.path === BUDGET);
  assert.equal(budget?.relationship?.type, 'contradicts');
  assert.ok(related.entries.every((entry) => entry.item.path !== REPORT));
  assert.match(related.similarity_label, /semantic similarity/);

  const unlinked = await server.connection.sendRequest(RelatedItemsRequest.type, { uri, onlyUnlinked: true });
  assert.ok(unlinked!.related.entries.length > 0);
  assert.ok(unlinked!.related.entries.every((entry) => !entry.linked));

  const outside = path.join(demo, 'not-indexed.bin');
  writeFileSync(outside, Buffer.from([0, 1, 2]));
  assert.equal(await server.connection.sendRequest(RelatedItemsRequest.type, { uri: pathToFileURL(outside).href }), null);
  assert.equal(await server.connection.sendRequest(RelatedItemsRequest.type, { uri: pathToFileURL(path.join(root, 'elsewhere.md')).href }), null);

  const [tool] = (await server.connection.sendRequest(KnowledgeToolRequest.type, { tool: 'related', input: { path: REPORT, limit: 6 } })).folders;
  const result = tool!.result as { related: { path: string; kind: string }[] };
  assert.deepEqual(
    result.related.map((entry) => entry.path),
    related.entries.map((entry) => entry.item.path),
    'the agent tool reads the same list as the view',
  );
});
