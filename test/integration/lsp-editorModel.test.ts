// Answers with the editor's model (issue 17): the built language server asks its client for a
// model through `relata/editorModel`, and the client here is this test. The client is a scripted
// test double standing for VS Code's Language Model API (no chat model can be installed on this
// machine): it answers each prompt with what the test scripts, or says no model, no consent, a
// quota or a cancellation as vscode.lm would. The server is real (dist/cli.js serve --stdio) on a
// copy of docs/demo, so every answer guarantee is checked through the editor-model path.

import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { CancellationTokenSource, type CancellationToken, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { AskRequest, EditorModelRequest, type AnswersProvider, type EditorModelParams, type EditorModelResult } from '../../shared/protocol.ts';
import type { AnswerResult } from '../../shared/types.ts';
import { needsBuild, startServer, type RunningServer } from '../support/languageServer.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const QUESTION = 'What did the GC-2 refurbishment cost?';

type Lend = (params: EditorModelParams, token: CancellationToken) => Promise<EditorModelResult> | EditorModelResult;

interface EditorClient {
  server: RunningServer;
  /** Every prompt the server handed the editor's model. */
  prompts: EditorModelParams[];
  /** What the editor's model does with the next prompts. */
  lend(script: Lend): void;
  ask(options?: { askId?: string | null; token?: CancellationToken }): Promise<AnswerResult>;
}

async function editorClient(t: TestContext, provider: AnswersProvider, settings: Record<string, unknown> = {}, withHandler = true): Promise<EditorClient> {
  const root = tempDir(t);
  const folder = path.join(root, 'demo');
  cpSync(path.join(REPO_ROOT, 'docs', 'demo'), folder, { recursive: true });
  const prompts: EditorModelParams[] = [];
  let script: Lend = () => ({ kind: 'unavailable', reason: 'no_model', message: 'No language model is available in the editor.' });
  const server = await startServer(t, {
    folder,
    workspace: `lsp-editor-model-${provider}`,
    unsetEnv: ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT', 'RELATA_LLM_ENDPOINT_MODEL'],
    settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none', answersProvider: provider, ...settings },
    beforeListen: (connection: ProtocolConnection) => {
      if (!withHandler) return;
      connection.onRequest(EditorModelRequest.type, (params, token) => {
        prompts.push(params);
        return script(params, token);
      });
    },
  });
  await server.watching(120_000);
  let asks = 0;
  return {
    server,
    prompts,
    lend: (next) => (script = next),
    ask: async ({ askId, token } = {}) => {
      const id = askId === null ? undefined : (askId ?? `ask-${++asks}`);
      const response = await server.connection.sendRequest(AskRequest.type, { question: QUESTION, ...(id ? { askId: id } : {}) }, token);
      return response.result;
    },
  };
}

const text = (reply: unknown, model = 'scripted-editor-model'): Lend => () => ({ kind: 'text', text: typeof reply === 'string' ? reply : JSON.stringify(reply), model });

/** The retrieval that must survive whatever the model does: sources S1… and the recorded cost contradiction. */
function assertRetrievalKept(result: AnswerResult): void {
  assert.ok(result.sources.length >= 2, `sources kept: ${result.sources.map((source) => source.path).join(', ')}`);
  assert.deepEqual(result.sources.map((source) => source.label), result.sources.map((_, index) => `S${index + 1}`));
  assert.ok(result.conflicts.some((conflict) => /42,?000/.test(conflict.detail) && /51,?500/.test(conflict.detail)), 'the recorded contradiction is kept');
}

test('the editor\'s model answers through the client, and every guarantee holds on that path', { skip: needsBuild, timeout: 240_000 }, async (t) => {
  const editor = await editorClient(t, 'auto');

  editor.lend(text({ answer: 'The sources disagree: EUR 42,000 [S1] and EUR 51,500 [S2] [S9].', sufficient: true, citations: ['S1', 'S2', 'S9'] }));
  const answered = await editor.ask();
  assert.equal(answered.model, 'editor:scripted-editor-model', 'the result names the editor\'s model');
  assert.equal(answered.model_note, undefined);
  assert.deepEqual(answered.citations, ['S1', 'S2']);
  assert.equal(answered.invalid_citations, 1, 'the citation to S9 is dropped and counted');
  assert.doesNotMatch(answered.answer ?? '', /S9/);
  assertRetrievalKept(answered);

  const prompt = editor.prompts.at(-1)!;
  assert.match(prompt.askId, /^ask-/);
  assert.match(prompt.user, /<<<SOURCE S1 [0-9a-f]{16}>>>/, 'the same delimited, S-labelled prompt as every provider');
  assert.ok(prompt.output && prompt.output.schema, 'the answer schema goes with the prompt');
  for (const source of answered.sources) {
    assert.ok(!prompt.user.includes(source.item_id) && !prompt.system.includes(source.item_id), 'no item id reaches the model');
    assert.ok(!prompt.user.includes(source.path), `no path reaches the model: ${source.path}`);
  }

  editor.lend(text({ answer: 'It cost EUR 42,000.', sufficient: true, citations: [] }));
  const uncited = await editor.ask();
  assert.equal(uncited.sufficient, false, 'sufficiency without a citation is downgraded');
  assert.equal(uncited.answer, 'It cost EUR 42,000.');

  editor.lend(text('{"answer": "string", "sufficient": true, "citations": ["S1"]}'));
  const echo = await editor.ask();
  assert.equal(echo.answer, null);
  assert.match(echo.rejected_reason ?? '', /echoes the answer schema/);
  assertRetrievalKept(echo);

  editor.lend(text(''));
  const empty = await editor.ask();
  assert.equal(empty.answer, null);
  assert.equal(empty.rejected_reason, 'the model returned nothing');
  assertRetrievalKept(empty);

  editor.lend(() => ({ kind: 'text', text: 42 as unknown as string, model: 'odd' }));
  const malformed = await editor.ask();
  assert.equal(malformed.answer, null, 'a reply that is not text is a bad answer, not a crash');
  assert.ok(malformed.rejected_reason);
  assertRetrievalKept(malformed);
});

test('no model, refused consent, a quota or a cancellation in the editor: a clear message, and the retrieval', { skip: needsBuild, timeout: 240_000 }, async (t) => {
  const editor = await editorClient(t, 'auto');
  const cases: [EditorModelResult & { kind: 'unavailable' }, RegExp][] = [
    [{ kind: 'unavailable', reason: 'no_model', message: 'No language model is available in the editor.' }, /No language model is available in the editor\. No local model file or endpoint is configured/],
    [{ kind: 'unavailable', reason: 'no_consent', message: 'You did not allow Relata to use the editor\'s language model.' }, /did not allow Relata/],
    [{ kind: 'unavailable', reason: 'quota', message: 'The editor\'s language model refused for now (quota reached).' }, /quota reached/],
    [{ kind: 'unavailable', reason: 'cancelled', message: 'The request to the editor\'s model was cancelled.' }, /^The request to the editor's model was cancelled\. Showing the matching passages only\.$/],
  ];
  for (const [unavailable, said] of cases) {
    editor.lend(() => unavailable);
    const result = await editor.ask();
    assert.equal(result.answer, null, unavailable.reason);
    assert.equal(result.model, null, unavailable.reason);
    assert.match(result.model_note ?? '', said, unavailable.reason);
    assert.match(result.model_note ?? '', /Showing the matching passages only\.$/);
    assertRetrievalKept(result);
  }

  const before = editor.prompts.length;
  const withoutAsk = await editor.ask({ askId: null });
  assert.equal(editor.prompts.length, before, 'an ask no person started never reaches the editor\'s model');
  assert.match(withoutAsk.model_note ?? '', /only for a question a person asks in the editor/);
  assertRetrievalKept(withoutAsk);
});

test('cancelling the ask cancels the editor\'s model request', { skip: needsBuild, timeout: 240_000 }, async (t) => {
  const editor = await editorClient(t, 'editor');
  let modelToken: CancellationToken | undefined;
  let reached!: () => void;
  const modelAsked = new Promise<void>((resolve) => (reached = resolve));
  editor.lend((_, token) => {
    modelToken = token;
    reached();
    return new Promise<EditorModelResult>((resolve) => token.onCancellationRequested(() => resolve({ kind: 'unavailable', reason: 'cancelled', message: 'cancelled' })));
  });
  const cancellation = new CancellationTokenSource();
  const asked = editor.ask({ token: cancellation.token }).then(
    () => 'answered',
    (error: Error) => error.message,
  );
  await modelAsked;
  cancellation.cancel();
  assert.match(await asked, /cancel/i, 'the ask ends as cancelled');
  assert.equal(modelToken?.isCancellationRequested, true, 'the editor was told to stop its model');
});

test('a quota in the editor hands over to the configured endpoint, and the answer says so', { skip: needsBuild, timeout: 240_000 }, async (t) => {
  const reply = JSON.stringify({ answer: 'EUR 42,000 [S1] or EUR 51,500 [S2].', sufficient: true, citations: ['S1', 'S2'] });
  const endpoint = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    endpoint.closeAllConnections();
    endpoint.close();
  });
  const base = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
  const editor = await editorClient(t, 'auto', { llmEndpoint: base });
  editor.lend(() => ({ kind: 'unavailable', reason: 'quota', message: 'The editor\'s language model refused for now (quota reached).' }));
  const result = await editor.ask();
  assert.match(result.model ?? '', /^endpoint/, `answered by the endpoint: ${result.model}`);
  assert.deepEqual(result.citations, ['S1', 'S2']);
  assert.match(result.model_note ?? '', /quota reached\)\. Answered with endpoint:/);

  editor.lend(() => ({ kind: 'unavailable', reason: 'cancelled', message: 'The request to the editor\'s model was cancelled.' }));
  const cancelled = await editor.ask();
  assert.equal(cancelled.model, null, 'a cancellation is the person\'s choice: no other model is asked');
  assert.match(cancelled.model_note ?? '', /cancelled/);
});

test('with provider none no model is asked; a client that lends no model is said to', { skip: needsBuild, timeout: 240_000 }, async (t) => {
  const none = await editorClient(t, 'none');
  none.lend(text({ answer: 'x [S1]', sufficient: true, citations: ['S1'] }));
  const result = await none.ask();
  assert.equal(none.prompts.length, 0);
  assert.equal(result.model, null);
  assert.equal(result.model_note, undefined);
  assertRetrievalKept(result);

  const bare = await editorClient(t, 'editor', {}, false);
  const unlent = await bare.ask();
  assert.equal(unlent.model, null);
  assert.match(unlent.model_note ?? '', /does not lend its language model/);
  assertRetrievalKept(unlent);
});
