// The hover's server side on real documents (docs/demo's GC-2 report and the Q2 budget review):
// over the first line, the item's relationships with the contradiction's two figures; over a name
// the extractor found, that name with where it sits in the line and no relationships read; over a
// plain word, nothing.

import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { RelatedRequest } from '../../shared/protocol.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const REPORT = 'maintenance/gantry-crane-gc2-refurbishment-report.md';
const BUDGET = 'finance/q2-2025-capital-budget-review.md';
const LINE = 'Example Ltd carried out the following work between 7 April and 16 May 2025:';

test('the hover: figures of a contradiction on the first line, a known name elsewhere, nothing over a plain word', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'folder');
  for (const file of [REPORT, BUDGET]) {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, 'docs', 'demo', file), path.join(folder, file));
  }
  const server = await startServer(t, { folder, workspace: 'hover', settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none' } });
  const { connection } = server;
  await server.watching();
  const uri = pathToFileURL(path.join(folder, REPORT)).href;

  const title = await connection.sendRequest(RelatedRequest.type, { uri, position: { line: 7, character: 4 }, lineText: '# Gantry crane GC-2 refurbishment: completion report' });
  const contradiction = title?.relationships.find((relationship) => relationship.type === 'contradicts');
  assert.ok(contradiction, 'the report contradicts the budget review');
  const figures = title?.conflicts?.[contradiction.id] ?? [];
  assert.ok(figures.length > 0, 'the contradiction comes with its figures');
  assert.equal(title?.language, 'en', 'the first line names the language the report is written in');
  const values = figures.flatMap((conflict) => conflict.sides.map((side) => `${side.item.path}: ${side.value}`));
  assert.ok(values.some((value) => value.startsWith(BUDGET) && value.includes('51,500')), values.join('; '));
  assert.ok(values.some((value) => value.startsWith(REPORT) && !value.includes('51,500')), values.join('; '));

  const name = await connection.sendRequest(RelatedRequest.type, { uri, position: { line: 19, character: 3 }, lineText: LINE, relationships: false });
  assert.deepEqual(name?.relationships, [], 'off the first line the relationships are not read');
  const mention = name?.mentions.find((found) => found.surface === 'Example Ltd');
  assert.ok(mention, `Example Ltd is a name Relata knows: ${JSON.stringify(name?.mentions)}`);
  assert.equal(LINE.slice(mention.start, mention.end), 'Example Ltd');
  assert.ok(mention.items.some((item) => item.path === BUDGET), 'the budget review mentions it too');

  const plain = await connection.sendRequest(RelatedRequest.type, { uri, position: { line: 19, character: LINE.indexOf('following') + 2 }, lineText: LINE, relationships: false });
  assert.deepEqual(plain?.mentions, [], 'no name under "following"');
  assert.equal(await server.shutdown(), 0, server.stderr());
});
