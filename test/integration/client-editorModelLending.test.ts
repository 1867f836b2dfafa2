// The two halves of "answers with the editor's model" together: the extension's own lending code
// (client/src/editorModel/lending.ts, askFolders.ts: the live-ask registry, the prompt as user
// messages with the schema, the error mapping) answers the real built language server's
// `relata/editorModel` requests, on a copy of docs/demo. Only vscode.lm itself is a stand-in: the
// scripted chat models below stand for a chat model extension such as Copilot (none can be
// installed here), with vscode.LanguageModelError's codes.

import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { AskRequest, EditorModelRequest } from '../../shared/protocol.ts';
import type { AnswerResult } from '../../shared/types.ts';
import { askFolders, type AskServer } from '../../client/src/askFolders.ts';
import { lendModel, LiveAsks, type ChatModel, type EditorModels } from '../../client/src/editorModel/lending.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const QUESTION = 'What did the GC-2 refurbishment cost?';

class LanguageModelError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** What the scripted chat model does with the next prompt: reply with these fragments, or throw. */
type Script = { reply: string[] } | { failure: Error };

async function editorWindow(t: TestContext) {
  const root = tempDir(t);
  const folder = path.join(root, 'demo');
  cpSync(path.join(REPO_ROOT, 'docs', 'demo'), folder, { recursive: true });
  const asks = new LiveAsks();
  const prompts: (readonly string[])[] = [];
  let script: Script = { reply: [] };
  const model: ChatModel = {
    id: 'copilot-gpt-4o',
    name: 'Scripted GPT-4o',
    vendor: 'copilot',
    family: 'gpt-4o',
    async send(messages) {
      prompts.push(messages);
      if ('failure' in script) throw script.failure;
      const fragments = script.reply;
      return (async function* () {
        yield* fragments;
      })();
    },
  };
  const models: EditorModels = {
    select: async () => [model],
    errorCode: (error) => (error instanceof LanguageModelError ? error.code : undefined),
    isCancellation: () => false,
  };
  const server = await startServer(t, {
    folder,
    workspace: 'client-editor-model-lending',
    unsetEnv: ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT', 'RELATA_LLM_ENDPOINT_MODEL'],
    settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none', answersProvider: 'auto' },
    // As ServerConnection registers it in the extension.
    beforeListen: (connection) => connection.onRequest(EditorModelRequest.type, (params, token) => lendModel(params, asks, models, { family: '' }, token)),
  });
  await server.watching(120_000);
  const askServer: AskServer = { request: (type, params, token) => server.connection.sendRequest(type, params, token as never) };
  return {
    asks,
    prompts,
    script: (next: Script) => (script = next),
    /** A person's Ask, through the extension's own path. */
    ask: async (): Promise<AnswerResult> => {
      const turn = await askFolders(askServer, asks, QUESTION, [{ uri: server.folderUri, name: 'demo' }]);
      assert.equal(turn.answers[0]!.error, undefined);
      return turn.answers[0]!.answer!.result;
    },
    /** An ask naming an id this window never started. */
    askAsStranger: async (): Promise<AnswerResult> =>
      (await server.connection.sendRequest(AskRequest.type, { question: QUESTION, askId: 'ask-not-from-this-window' })).result,
  };
}

function assertRetrievalKept(result: AnswerResult): void {
  assert.ok(result.sources.length >= 2, 'the sources are kept');
  assert.ok(result.conflicts.some((conflict) => /42,?000/.test(conflict.detail) && /51,?500/.test(conflict.detail)), 'the recorded contradiction is kept');
}

test('a person\'s Ask is answered by the editor\'s model through the extension\'s lending, and validated by the server', { skip: needsBuild, timeout: 240_000 }, async (t) => {
  const window = await editorWindow(t);

  // Streamed in pieces, inside a code fence as chat models like to reply.
  window.script({ reply: ['```json\n{"answer": "The sources disagree: EUR 42,000 [S1] ', 'and EUR 51,500 [S2] [S7].", ', '"sufficient": true, "citations": ["S1", "S2", "S7"]}\n```'] });
  const answered = await window.ask();
  assert.equal(answered.model, 'editor:Scripted GPT-4o (copilot)');
  assert.equal(answered.model_note, undefined);
  assert.deepEqual(answered.citations, ['S1', 'S2']);
  assert.equal(answered.invalid_citations, 1, 'the citation to S7 named no source and was dropped');
  assertRetrievalKept(answered);
  assert.equal(window.asks.size, 0, 'the ask ended with its answer');

  const [rules, question] = window.prompts.at(-1)!;
  assert.match(rules!, /S1/, 'the rules go first, as their own message');
  assert.match(question!, /<<<SOURCE S1 [0-9a-f]{16}>>>/, 'then the delimited passages');
  assert.match(question!, /Reply with JSON only/);
  assert.match(question!, /"citations"/, 'with the answer schema');
});

test('when the editor says no, the answer says why and the retrieval is still returned', { skip: needsBuild, timeout: 240_000 }, async (t) => {
  const window = await editorWindow(t);

  window.script({ failure: new LanguageModelError('NoPermissions', 'The user did not grant access') });
  const refused = await window.ask();
  assert.equal(refused.answer, null);
  assert.match(refused.model_note ?? '', /Relata is not allowed to use the editor's language model \(The user did not grant access\)/);
  assert.match(refused.model_note ?? '', /No local model file or endpoint is configured/, 'auto then tried the configured models');
  assertRetrievalKept(refused);

  window.script({ failure: new LanguageModelError('Blocked', 'Rate limit exceeded') });
  const quota = await window.ask();
  assert.match(quota.model_note ?? '', /refused for now, e\.g\. a quota or rate limit \(Rate limit exceeded\)/);
  assertRetrievalKept(quota);

  const asked = window.prompts.length;
  window.script({ reply: ['{"answer": "never", "sufficient": true, "citations": ["S1"]}'] });
  const stranger = await window.askAsStranger();
  assert.equal(window.prompts.length, asked, 'the model was not asked for an ask this window did not start');
  assert.match(stranger.model_note ?? '', /answers only questions you ask in this window/);
  assertRetrievalKept(stranger);
});
