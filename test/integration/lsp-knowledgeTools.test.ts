// The editor's agent tools (issue 17, item 3) are answered by `relata/knowledgeTool`, which runs
// the same four read-only tools as `relata mcp`. Here the built language server answers them on a
// copy of docs/demo: a path may be relative, absolute or a file URI; a bad path or a missing query
// is that folder's error with the reason, not a crash; and no tool decides anything.

import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { KnowledgeToolRequest, type KnowledgeToolParams } from '../../shared/protocol.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const REPORT = 'maintenance/gantry-crane-gc2-refurbishment-report.md';

test('the agent tools answer from the store, each folder on its own, and never decide anything', { skip: needsBuild, timeout: 240_000 }, async (t) => {
  const root = tempDir(t);
  const demo = path.join(root, 'demo');
  cpSync(path.join(REPO_ROOT, 'docs', 'demo'), demo, { recursive: true });
  const server = await startServer(t, {
    folder: demo,
    workspace: 'lsp-knowledge-tools',
    unsetEnv: ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT'],
    settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none' },
  });
  await server.watching(120_000);
  const call = async (params: KnowledgeToolParams) => (await server.connection.sendRequest(KnowledgeToolRequest.type, params)).folders;

  const [searched] = await call({ tool: 'search', input: { query: 'gantry crane refurbishment cost', limit: 5 } });
  const search = searched!.result as { results: { path: string; relevance: { meaning: string }; passage: { untrusted_document_text: string } }[]; note: string };
  const report = search.results.find((result) => result.path === REPORT);
  assert.ok(report, `the GC-2 report among ${search.results.map((result) => result.path).join(', ')}`);
  assert.match(report.relevance.meaning, /not a probability/);
  assert.equal(typeof report.passage.untrusted_document_text, 'string');
  assert.match(search.note, /untrusted document content/);

  const [related] = await call({ tool: 'relationships', input: { path: pathToFileURL(path.join(demo, REPORT)).href } });
  const relationships = related!.result as { relationships: { type: string; strength: { value: number }; signals: { contribution: number }[] }[]; note: string };
  const contradiction = relationships.relationships.find((relationship) => relationship.type === 'contradicts');
  assert.ok(contradiction, 'a file URI finds the item in the folder holding it');
  assert.match(relationships.note, /person's decision/);

  const [conflicts] = await call({ tool: 'conflicts', input: {} });
  const cost = (conflicts!.result as { conflicts: { attribute: string; sides: { figure: string }[] }[] }).conflicts.find((conflict) => conflict.attribute === 'cost');
  assert.deepEqual(cost?.sides.map((side) => side.figure).sort(), ['42,000 EUR', '51,500 EUR']);

  const [item] = await call({ tool: 'item', input: { path: path.join(demo, REPORT) } });
  const knowledge = item!.result as { item: string; claims: { value: number }[] };
  assert.equal(knowledge.item, REPORT, 'an absolute path inside the folder is read relative to it');
  assert.ok(knowledge.claims.some((claim) => claim.value === 42000));

  const [outside] = await call({ tool: 'item', input: { path: '../../etc/passwd' } });
  assert.equal(outside!.result, undefined);
  assert.match(outside!.error ?? '', /outside the indexed folder/);
  const [unknown] = await call({ tool: 'relationships', input: { path: 'no/such/file.md' } });
  assert.match(unknown!.error ?? '', /not an item of the indexed folder/);
  const [noQuery] = await call({ tool: 'search', input: {} });
  assert.match(noQuery!.error ?? '', /search needs a query/);
  await assert.rejects(
    server.connection.sendRequest(KnowledgeToolRequest.type, { tool: 'confirm' as 'search', input: {} }),
    /params\.tool/,
    'there is no tool that decides',
  );
  const [stillAnswering] = await call({ tool: 'search', input: { query: 'crane' } });
  assert.ok(stillAnswering!.result, 'the server answers on after bad calls');
});
