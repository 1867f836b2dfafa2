// The model stage of extraction in the editor (relata.extraction.useModel with the answers
// endpoint): the built language server runs it while indexing and says in its status how far it
// is, then drops that line when indexing ends. The endpoint is a test double on this machine
// standing for an OpenAI-compatible model server: it names Larkspur Logistics wherever a passage
// mentions it, and holds its second reply until the test has read the status, so the test sees
// the stage mid-run without depending on how fast anything is.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ShowMessageNotification } from 'vscode-languageserver-protocol';
import path from 'node:path';
import { test } from 'node:test';
import { StatusRequest, type FolderStatus } from '../../shared/protocol.ts';
import { eventually } from '../support/eventually.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const FILES = {
  'call.md': '# Supplier call\n\nA call with Larkspur Logistics about the racking in Bay 4.\n',
  'review.md': '# Supplier review\n\nLarkspur Logistics delivered the Hollowmere Depot order late twice.\n',
  'notes.md': '# Racking notes\n\nNotes from Kestrel Freight about the new racking.\n',
};

test('with relata.extraction.useModel the server runs the model stage, says how far it is in its status, and stops saying so when done', { skip: needsBuild, timeout: 180_000 }, async (t) => {
  let calls = 0;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const endpoint = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', async () => {
      calls += 1;
      if (calls === 2) await held;
      const user = (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages.find((message) => message.role === 'user')?.content ?? '';
      const entities = user.includes('Larkspur Logistics') ? [{ type: 'organisation', surface: 'Larkspur Logistics' }] : [];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ entities, claims: [] }) }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    release();
    endpoint.closeAllConnections();
    endpoint.close();
  });
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), FILES);
  const server = await startServer(t, {
    folder,
    workspace: 'lsp-model-extraction',
    unsetEnv: ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT'],
    settings: {
      dataLocation: path.join(root, 'data'),
      embeddingModel: 'none',
      extractWithModel: true,
      llmEndpoint: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`,
    },
  });
  const status = async (): Promise<FolderStatus> => (await server.connection.sendRequest(StatusRequest.type, {})).folders[0]!;

  await eventually(async () => (await status()).modelExtraction?.calls === 1, 'the status says the model has been called once', 60_000);
  const midway = await status();
  assert.equal(midway.state, 'indexing');
  assert.equal(midway.modelExtraction?.cached, 0);
  assert.equal(typeof midway.modelExtraction?.msLeft, 'number', 'a time left, once a call was timed');
  await eventually(async () => server.statuses.some((report) => report.folders[0]?.modelExtraction?.calls === 1), 'the status notification carries it too');

  release();
  await server.watching(120_000);
  const done = await status();
  assert.equal(done.modelExtraction, null, 'no model line once indexing is done');
  assert.equal(calls, 3, 'one call per thin passage');
});

test('Extraction: Use Model with no model set is said to the person, and the folder is indexed by the rules', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), FILES);
  const messages: string[] = [];
  const server = await startServer(t, {
    folder,
    workspace: 'lsp-model-extraction-unset',
    unsetEnv: ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT'],
    settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none', extractWithModel: true },
    beforeListen: (connection) => connection.onNotification(ShowMessageNotification.type, (message) => void messages.push(message.message)),
  });
  await server.watching(120_000);
  assert.ok(
    messages.some((message) => /Use Model is on, but no model is set .* read by the rules alone/.test(message)),
    `warned: ${JSON.stringify(messages)}`,
  );
  assert.equal((await server.connection.sendRequest(StatusRequest.type, {})).folders[0]!.items.indexed, 3);
});
