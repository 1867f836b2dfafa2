// Near-duplicates shown once in what the editor is sent (issue 13), from `relata serve --stdio`
// on a folder where a budget memo exists as the file, an identical archive copy and a one-word
// draft: search and Ask give the memo one entry naming the others, the invoice's hover lists its
// disagreement with the memo once, and the Proposals request carries the copy group that the
// tree shows each bundle of relationships under, with every relationship still listed.

import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { AskRequest, RelatedRequest, RelationshipsRequest, SearchRequest } from '../../shared/protocol.ts';
import { COPIES_FOLDER, INVOICE, MEMO_PATHS, shownPaths } from '../support/copiesFolder.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

test('the server sends each group of copies once: search, Ask, the hover and the proposals', { skip: needsBuild, timeout: 180_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), COPIES_FOLDER);
  const server = await startServer(t, {
    folder,
    workspace: 'lsp-near-duplicates',
    unsetEnv: ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT'],
    // The default offline model: near-duplicate similarity needs vectors.
    settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'default' },
  });
  const { connection } = server;
  await server.watching(120_000);

  const search = await connection.sendRequest(SearchRequest.type, { query: 'crane refurbishment cost' });
  const results = search.folders[0]!.response!.results;
  const memo = results.filter((result) => MEMO_PATHS.includes(result.path));
  assert.equal(memo.length, 1, `one memo entry: ${results.map((result) => result.path).join(', ')}`);
  assert.deepEqual(shownPaths(memo).sort(), MEMO_PATHS);

  const ask = await connection.sendRequest(AskRequest.type, { question: 'What did the crane refurbishment cost?' });
  const memoSources = ask.result.sources.filter((source) => MEMO_PATHS.includes(source.path));
  assert.equal(memoSources.length, 1, 'one source label for the memo group');
  assert.equal(ask.result.conflicts.filter((conflict) => conflict.attribute === 'cost').length, 1, 'the cost disagreement once');

  const hover = await connection.sendRequest(RelatedRequest.type, { uri: pathToFileURL(path.join(folder, INVOICE)).href });
  assert.ok(hover, 'the invoice has a hover');
  const withMemo = hover.relationships.filter((relationship) => MEMO_PATHS.includes(relationship.from.path) || MEMO_PATHS.includes(relationship.to.path));
  assert.equal(withMemo.length, 1, `one line for the memo group: ${hover.relationships.map((r) => `${r.from.path}→${r.to.path}`).join(', ')}`);
  const memoEnd = MEMO_PATHS.includes(withMemo[0]!.from.path) ? withMemo[0]!.from : withMemo[0]!.to;
  assert.deepEqual(shownPaths([{ path: memoEnd.path, also: withMemo[0]!.also }]).sort(), MEMO_PATHS, 'the line names the memo\u2019s copies');

  const draft = 'drafts/budget-memo-v2.md';
  const draftHover = await connection.sendRequest(RelatedRequest.type, { uri: pathToFileURL(path.join(folder, draft)).href });
  const named = (draftHover?.relationships ?? []).flatMap((relationship) => [relationship.from.path, relationship.to.path, ...(relationship.also ?? []).map((member) => member.path)]);
  assert.ok(named.includes(INVOICE), 'the draft’s hover lists the invoice');
  assert.ok(!(draftHover?.relationships ?? []).some((relationship) => relationship.also?.some((member) => member.path === draft)), 'a hover never names its own file as a copy');

  const { folders } = await connection.sendRequest(RelationshipsRequest.type, {});
  const group = folders[0]!.copyGroups?.find((candidate) => MEMO_PATHS.some((memoPath) => candidate.also.some((member) => member.path === memoPath)));
  assert.ok(group, `the memo files are one copy group: ${JSON.stringify(folders[0]!.copyGroups)}`);
  assert.equal(group.also.length, 2);
  const contradictions = folders[0]!.relationships.filter((r) => r.type === 'contradicts' && [r.from.path, r.to.path].includes(INVOICE));
  assert.ok(contradictions.length >= 2, 'every relationship is still sent, each decidable on its own');
});
