// Requests are not kept waiting behind a folder's indexing run or behind each other (issue 33):
// through the built language server, on a folder big enough that its first run is still under way
// for the whole exchange, a search is answered and a re-indexed file is done while the run still has
// files pending, and searches the editor cancelled are answered as cancelled. The order of events
// is asserted, never a duration: the run has hundreds of files left when the answers arrive.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { CancellationTokenSource, LSPErrorCodes, ResponseError } from 'vscode-languageserver-protocol/node';
import { ReindexFileRequest, SearchRequest, StatusRequest } from '../../shared/protocol.ts';
import { eventually } from '../support/eventually.ts';
import { writeCorpus } from '../support/generateCorpus.ts';
import { needsBuild, startServer, type RunningServer } from '../support/languageServer.ts';

const FILES = 600;

async function serverIndexing(t: import('node:test').TestContext): Promise<{ server: RunningServer; folder: string }> {
  // Not tempDir: its removal would run before a later hook shuts the server down, and the server is
  // still reading files (and writing their bytes into the data folder) when a test ends.
  const root = mkdtempSync(path.join(tmpdir(), 'relata-test-'));
  let server: RunningServer | undefined;
  t.after(async () => {
    await server?.shutdown().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  });
  const folder = path.join(root, 'folder');
  writeCorpus(folder, FILES, 3);
  server = await startServer(t, { folder, workspace: 'during', settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none' } });
  // Under way: some passages are stored (so a search finds something), most files are still ahead.
  await eventually(async () => {
    const status = (await server.connection.sendRequest(StatusRequest.type, {})).folders[0];
    return status?.state === 'indexing' && status.chunks > 0;
  }, 'the first run stores its first passages', 60_000);
  return { server, folder };
}

/**
 * The run is still under way: no status has said it finished, and it still has work queued (files
 * to read, or passages still to extract and relate: on an idle machine every file may be read by
 * then, with extraction and discovery of hundreds of them still ahead).
 */
async function stillIndexing(server: RunningServer): Promise<void> {
  assert.equal(server.statuses.some((report) => report.folders[0]?.state === 'watching'), false, 'the first run had already finished');
  const status = (await server.connection.sendRequest(StatusRequest.type, {})).folders[0]!;
  assert.equal(status.state, 'indexing');
  assert.ok(
    status.items.pending > 0 || status.queueDepth > 0,
    `the run still has work ahead (${status.items.pending} of ${FILES} files pending, ${status.queueDepth} jobs queued)`,
  );
}

test('a search and a re-indexed file are answered while the folder’s first run still has files pending', { skip: needsBuild, timeout: 180_000 }, async (t) => {
  const { server, folder } = await serverIndexing(t);
  const { connection } = server;

  const searched = await connection.sendRequest(SearchRequest.type, { query: 'crane inspection', limit: 5 });
  assert.equal(searched.folders[0]?.error, undefined);
  assert.ok((searched.folders[0]?.response?.results.length ?? 0) > 0, 'the passages stored so far are found');
  await stillIndexing(server);

  // generateCorpus.ts's last file: queued last by the run's scan, so the run reaches it last.
  const last = path.join(folder, `group-${(FILES - 1) % 7}`, `doc-${FILES - 1}.md`);
  const reindexed = await connection.sendRequest(ReindexFileRequest.type, { uri: pathToFileURL(last).href });
  assert.match(reindexed.outcome, /^re-indexed/);
  await stillIndexing(server);
});

test('searches the editor cancelled while they waited are answered as cancelled; the one it kept is answered', { skip: needsBuild, timeout: 180_000 }, async (t) => {
  const { server } = await serverIndexing(t);
  const { connection } = server;

  // A person typing: each keystroke a new query, each cancelling the one before.
  const typed = 'forklift inspection report budget'.split('').map((_, n, letters) => letters.slice(0, n + 1).join(''));
  const sources = typed.map(() => new CancellationTokenSource());
  const answers = typed.map((query, n) => connection.sendRequest(SearchRequest.type, { query, limit: 5 }, sources[n]!.token));
  for (const source of sources.slice(0, -1)) source.cancel();
  const settled = await Promise.allSettled(answers);

  const kept = settled.at(-1)!;
  assert.equal(kept.status, 'fulfilled');
  assert.ok((kept.value.folders[0]?.response?.results.length ?? 0) > 0);
  for (const outcome of settled.slice(0, -1)) {
    assert.equal(outcome.status, 'rejected', 'a cancelled search was answered with results');
    assert.ok(outcome.reason instanceof ResponseError);
    assert.equal(outcome.reason.code, LSPErrorCodes.RequestCancelled);
  }
  await stillIndexing(server);
});
