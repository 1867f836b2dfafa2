// A copy's path in the editor is its original: the hover and the item request on a byte-identical
// copy answer with the original's item, saying "identical to", and `relata/chooseOriginal` lets a
// person swap the two, after which the hover reads from the new original and the copy relationship
// reads copy → original.

import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ErrorCodes, ResponseError } from 'vscode-languageserver-protocol/node';
import { ChooseOriginalRequest, ItemRequest, RelatedRequest } from '../../shared/protocol.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const REPORT = 'maintenance/gantry-crane-gc2-refurbishment-report.md';
const BUDGET = 'finance/q2-2025-capital-budget-review.md';

test('hover and item detail on a copy show its original; choosing the copy as original swaps them', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'folder');
  const files: Record<string, string> = { [REPORT]: REPORT, 'archive/gc2.md': REPORT, [BUDGET]: BUDGET };
  for (const [target, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, target)), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, 'docs', 'demo', source), path.join(folder, target));
  }
  // The archive copy has the shorter path, but the working file is older: it is the original.
  utimesSync(path.join(folder, REPORT), new Date('2026-01-10T09:00:00Z'), new Date('2026-01-10T09:00:00Z'));
  utimesSync(path.join(folder, 'archive/gc2.md'), new Date('2026-03-10T09:00:00Z'), new Date('2026-03-10T09:00:00Z'));
  const uriOf = (relative: string) => pathToFileURL(path.join(folder, relative)).href;

  const server = await startServer(t, { folder, workspace: 'reviewer', settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none' } });
  const { connection, folderUri } = server;
  await server.watching();

  const hover = await connection.sendRequest(RelatedRequest.type, { uri: uriOf('archive/gc2.md') });
  assert.equal(hover?.item.path, REPORT, 'the copy hovers as its original');
  assert.equal(hover?.identicalCopy, 'archive/gc2.md');
  assert.ok(hover?.relationships.some((relationship) => relationship.type === 'contradicts'), 'with the original\'s relationships');
  const copyOf = hover?.relationships.find((relationship) => relationship.type === 'derived_from');
  assert.equal(copyOf?.from.path, 'archive/gc2.md', 'the copy is derived from the original');
  assert.equal(copyOf?.to.path, REPORT);
  const detail = await connection.sendRequest(ItemRequest.type, { uri: uriOf('archive/gc2.md') });
  assert.equal(detail?.item.path, REPORT);
  assert.equal(detail?.item.identicalCopy, 'archive/gc2.md');
  assert.ok((detail?.item.chunks.length ?? 0) > 0);
  assert.equal((await connection.sendRequest(RelatedRequest.type, { uri: uriOf(REPORT) }))?.identicalCopy, undefined);

  const chosen = await connection.sendRequest(ChooseOriginalRequest.type, { uri: uriOf('archive/gc2.md') });
  assert.deepEqual(chosen, { folder: folderUri, original: 'archive/gc2.md', formerOriginal: REPORT });
  const after = await connection.sendRequest(RelatedRequest.type, { uri: uriOf(REPORT) });
  assert.equal(after?.item.path, 'archive/gc2.md');
  assert.equal(after?.identicalCopy, REPORT);
  assert.ok(after?.relationships.some((relationship) => relationship.type === 'contradicts'), 'the new original is related in its own right');
  const flipped = after?.relationships.find((relationship) => relationship.type === 'derived_from');
  assert.equal(flipped?.from.path, REPORT, 'the former original now reads as the copy');
  assert.equal(flipped?.to.path, 'archive/gc2.md');

  const refused = await connection.sendRequest(ChooseOriginalRequest.type, { uri: uriOf(BUDGET) }).then(
    () => assert.fail('a file with no identical copy was made an original'),
    (error: unknown) => error,
  );
  assert.ok(refused instanceof ResponseError);
  assert.equal(refused.code, ErrorCodes.InvalidParams);
  assert.match(refused.message, /q2-2025-capital-budget-review\.md is not a copy of another file/);
  assert.equal(await server.shutdown(), 0, server.stderr());
});
