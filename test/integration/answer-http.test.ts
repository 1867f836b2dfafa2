// The OpenAI-compatible provider against a real HTTP server the test starts on localhost: a good
// answer, a slow server (timeout → error), malformed responses (rejected with a reason), an error
// status and an unreachable port (errors), what is actually sent, and what is never sent: plain
// http off this machine is refused before any connection.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { answerFromRetrieval } from '../../server/src/answer/answer.ts';
import { createProvider, modelSettingsFrom } from '../../server/src/answer/choice.ts';
import { chatCompletionsUrl, OpenAiProvider } from '../../server/src/answer/openaiProvider.ts';
import { ProviderError } from '../../server/src/answer/provider.ts';
import { assertGuaranteesHold, costRetrieval } from '../support/answerRetrieval.ts';

const QUESTION = 'What did the GC-2 refurbishment cost?';

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

type Handler = (response: ServerResponse, received: Received) => void;

/** Starts a server answering every request with `handler`; returns its base URL and what it received. */
async function chatServer(t: TestContext, handler: Handler): Promise<{ base: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const entry = { url: request.url ?? '', headers: request.headers, body: JSON.parse(raw) as Record<string, unknown> };
      received.push(entry);
      handler(response, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, received };
}

function completion(content: unknown): string {
  return JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
}

function reply(body: string, status = 200): Handler {
  return (response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body);
  };
}

test('an answer from the endpoint is validated like any other, and the request carries only the prompt', async (t) => {
  const content = JSON.stringify({ answer: 'EUR 42,000 [S1], though S2 says EUR 51,500 [S2] [S9].', sufficient: true, citations: ['S1', 'S2', 'S9'] });
  const { base, received } = await chatServer(t, reply(completion(content)));
  const provider = new OpenAiProvider({ endpoint: base, model: 'qwen2.5:3b', apiKey: 'test-key' });
  const retrieval = costRetrieval();
  const result = await answerFromRetrieval(QUESTION, retrieval, provider);
  assertGuaranteesHold(result, retrieval);
  assert.deepEqual(result.citations, ['S1', 'S2']);
  assert.equal(result.invalid_citations, 1);
  assert.equal(result.model, `endpoint:qwen2.5:3b@${base}/chat/completions`);

  const [request] = received;
  assert.equal(request!.url, '/v1/chat/completions');
  assert.equal(request!.headers.authorization, 'Bearer test-key');
  assert.equal(request!.body.model, 'qwen2.5:3b');
  assert.equal(request!.body.stream, false);
  assert.deepEqual((request!.body.messages as { role: string }[]).map((message) => message.role), ['system', 'user']);
  assert.equal((request!.body.response_format as { type: string }).type, 'json_schema');
  const sent = JSON.stringify(request!.body);
  for (const source of retrieval.sources) {
    assert.ok(sent.includes(source.passage), 'the passage is sent');
    assert.ok(!sent.includes(source.item_id) && !sent.includes(source.path), 'no item id or path is sent');
  }
});

test('a slow server is a timeout error, not a rejected answer', async (t) => {
  const { base } = await chatServer(t, (response) => {
    // Far later than the check below allows, so that giving up at the timeout is told apart from
    // waiting for the reply even on a loaded machine.
    const timer = setTimeout(() => response.end(completion('{"answer": "late", "sufficient": false, "citations": []}')), 60_000);
    response.on('close', () => clearTimeout(timer));
  });
  const provider = new OpenAiProvider({ endpoint: base, model: 'slow' });
  const started = performance.now();
  await assert.rejects(answerFromRetrieval(QUESTION, costRetrieval(), provider, { timeoutMs: 200 }), (error: unknown) => {
    assert.ok(error instanceof ProviderError);
    assert.match(error.message, /did not answer within 200 ms/);
    return true;
  });
  assert.ok(performance.now() - started < 20_000, 'gave up at the timeout, not at the reply');
});

test('malformed responses are rejected with a reason, and the retrieval is still returned', async (t) => {
  const cases: [string, RegExp][] = [
    ['<html>Bad Gateway</html>', /response is not JSON/],
    ['{"object": "chat.completion"}', /no "choices"/],
    [JSON.stringify({ choices: [{ message: { role: 'assistant', content: null } }] }), /no message content/],
    [completion('Sure! The cost was EUR 42,000.'), /prose, not the JSON object/],
    [completion(''), /the model returned nothing/],
    [completion('{"answer": "sufficient"}'), /echoes the answer schema/],
  ];
  for (const [body, reason] of cases) {
    const { base } = await chatServer(t, reply(body));
    const retrieval = costRetrieval();
    const result = await answerFromRetrieval(QUESTION, retrieval, new OpenAiProvider({ endpoint: base, model: 'm' }));
    assert.equal(result.answer, null, body);
    assert.match(result.rejected_reason ?? '', reason, body);
    assertGuaranteesHold(result, retrieval);
  }
});

test('an error status or an unreachable endpoint is an error naming the URL', async (t) => {
  const { base } = await chatServer(t, reply('{"error": {"message": "model not found"}}', 404));
  await assert.rejects(
    answerFromRetrieval(QUESTION, costRetrieval(), new OpenAiProvider({ endpoint: base, model: 'absent' })),
    /\/v1\/chat\/completions answered HTTP 404: \{"error": \{"message": "model not found"\}\}/,
  );
  // A port that was just listening and is now closed: connecting is refused at once.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await assert.rejects(
    answerFromRetrieval(QUESTION, costRetrieval(), new OpenAiProvider({ endpoint: `http://127.0.0.1:${port}/v1`, model: 'm' })),
    new RegExp(`could not get an answer from http://127\\.0\\.0\\.1:${port}/v1/chat/completions: ECONNREFUSED`),
  );
});

test('the endpoint may be given as a base URL or as the full chat-completions URL', () => {
  assert.equal(chatCompletionsUrl('http://localhost:11434/v1').href, 'http://localhost:11434/v1/chat/completions');
  assert.equal(chatCompletionsUrl('http://localhost:8080/v1/').href, 'http://localhost:8080/v1/chat/completions');
  assert.equal(chatCompletionsUrl('http://localhost:8080/v1/chat/completions').href, 'http://localhost:8080/v1/chat/completions');
  assert.throws(() => chatCompletionsUrl('localhost:8080'), /not an http\(s\) URL|not a URL/);
  assert.throws(() => chatCompletionsUrl('ftp://example.org/v1'), /not an http\(s\) URL/);
});

test('plain http with an API key reaches a server on this machine; to another machine nothing is sent at all', async (t) => {
  const { base, received } = await chatServer(t, reply(completion(JSON.stringify({ answer: 'EUR 42,000 [S1]', sufficient: true, citations: ['S1'] }))));
  const local = createProvider(modelSettingsFrom({ endpoint: base }, { RELATA_LLM_API_KEY: 'test-key' }))!;
  assert.equal((await answerFromRetrieval(QUESTION, costRetrieval(), local)).answer, 'EUR 42,000 [S1]');
  assert.equal(received[0]!.headers.authorization, 'Bearer test-key');

  const fetched: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input) => {
    fetched.push(String(input));
    throw new Error('no request may leave for a refused endpoint');
  };
  t.after(() => (globalThis.fetch = realFetch));
  const remote = base.replace('127.0.0.1', '192.0.2.10');
  assert.throws(() => createProvider(modelSettingsFrom({ endpoint: remote }, {})), /refusing to send passages over plain http to http:\/\/192\.0\.2\.10/);
  assert.throws(
    () => createProvider(modelSettingsFrom({ endpoint: remote, allowInsecureEndpoint: true }, { RELATA_LLM_API_KEY: 'test-key' })),
    /refusing to send the API key/,
  );
  assert.deepEqual(fetched, []);
  assert.equal(received.length, 1);
});
