// A real local model through node-llama-cpp: the test writes a tiny llama-architecture GGUF with
// random weights (no model can be downloaded here), loads it on the CPU, generates under the
// answer schema's grammar, and checks that the guarantees hold on its nonsense. The token limit is
// small so that this runs in seconds.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { answerFromRetrieval } from '../../server/src/answer/answer.ts';
import { LlamaProvider } from '../../server/src/answer/llamaProvider.ts';
import { ProviderError, type AnswerPrompt, type AnswerProvider, type ProviderOutput } from '../../server/src/answer/provider.ts';
import { assertGuaranteesHold, costRetrieval } from '../support/answerRetrieval.ts';
import { tempDir } from '../support/tempFolder.ts';
import { writeTinyGguf } from '../support/tinyGguf.ts';

const QUESTION = 'What did the GC-2 refurbishment cost?';

/** Keeps what the real model produced, to show that the grammar shaped it. */
class Recording implements AnswerProvider {
  readonly outputs: ProviderOutput[] = [];
  constructor(private readonly inner: AnswerProvider) {}
  get name() {
    return this.inner.name;
  }
  async generate(prompt: AnswerPrompt, signal: AbortSignal): Promise<ProviderOutput> {
    const output = await this.inner.generate(prompt, signal);
    this.outputs.push(output);
    return output;
  }
  close() {
    return this.inner.close();
  }
}

test('a tiny random GGUF generates under the JSON schema and every guarantee holds on its nonsense', { timeout: 120_000 }, async (t) => {
  const modelPath = path.join(tempDir(t), 'tiny-random.gguf');
  const bytes = writeTinyGguf(modelPath);
  const retrieval = costRetrieval();
  for (const maxTokens of [24, 96]) {
    const provider = new Recording(new LlamaProvider({ modelPath, maxTokens, threads: 1, log: (line) => t.diagnostic(line) }));
    try {
      const started = performance.now();
      const result = await answerFromRetrieval(QUESTION, retrieval, provider, { timeoutMs: 60_000 });
      t.diagnostic(`${(bytes / 1024).toFixed(0)} KiB model, ${maxTokens} tokens: load + generate ${(performance.now() - started).toFixed(0)} ms`);
      const output = provider.outputs[0]!;
      assert.equal(output.kind, 'text');
      t.diagnostic(`raw output: ${JSON.stringify(output.kind === 'text' ? output.text.slice(0, 120) : output)}`);
      assert.match(output.kind === 'text' ? output.text : '', /^\{\s*"answer"/, 'the grammar forces the answer object');
      assert.equal(result.model, 'local:tiny-random.gguf');
      assertGuaranteesHold(result, retrieval);
      t.diagnostic(`rejected_reason: ${result.rejected_reason}`);
    } finally {
      await provider.close();
    }
  }
});

test('a model still generating at the timeout is stopped: a transport error, and the provider closes at once', { timeout: 60_000 }, async (t) => {
  const modelPath = path.join(tempDir(t), 'tiny-random.gguf');
  writeTinyGguf(modelPath);
  // Loading takes about 1.5 s here, so at 4 s the model is generating towards a limit it would not reach for minutes.
  const provider = new LlamaProvider({ modelPath, maxTokens: 1_000_000, threads: 1, log: () => undefined });
  try {
    await assert.rejects(answerFromRetrieval(QUESTION, costRetrieval(), provider, { timeoutMs: 4_000 }), (error: unknown) => {
      assert.ok(error instanceof ProviderError);
      assert.match(error.message, /local:tiny-random\.gguf did not answer within 4000 ms/);
      return true;
    });
  } finally {
    const closing = performance.now();
    await provider.close();
    t.diagnostic(`closed ${(performance.now() - closing).toFixed(0)} ms after the timeout`);
  }
});

test('questions asked at the same time are answered one after the other by one loaded model', { timeout: 60_000 }, async (t) => {
  const modelPath = path.join(tempDir(t), 'tiny-random.gguf');
  writeTinyGguf(modelPath);
  const provider = new LlamaProvider({ modelPath, maxTokens: 16, threads: 1, log: () => undefined });
  try {
    const retrieval = costRetrieval();
    const results = await Promise.all([1, 2, 3].map(() => answerFromRetrieval(QUESTION, retrieval, provider, { timeoutMs: 60_000 })));
    for (const result of results) assertGuaranteesHold(result, retrieval);
    // Each request's sources are delimited with a code of its own (answer/delimiters.ts), so the
    // three prompts differ and so may the random model's replies; what must hold is that each was
    // answered, by the one model, with every guarantee intact.
    assert.deepEqual(results.map((result) => result.model), Array(3).fill('local:tiny-random.gguf'), 'each question answered by the loaded model');
  } finally {
    await provider.close();
  }
});

test('a missing or unreadable model file is a transport error naming the file', async (t) => {
  const folder = tempDir(t);
  const missing = new LlamaProvider({ modelPath: path.join(folder, 'absent.gguf') });
  await assert.rejects(answerFromRetrieval(QUESTION, costRetrieval(), missing), /no model file at .*absent\.gguf/);
  const notGguf = path.join(folder, 'notes.gguf');
  (await import('node:fs')).writeFileSync(notGguf, 'not a model');
  const broken = new LlamaProvider({ modelPath: notGguf, log: () => undefined });
  try {
    await assert.rejects(answerFromRetrieval(QUESTION, costRetrieval(), broken), /cannot load the model .*notes\.gguf/);
  } finally {
    await broken.close();
  }
});
