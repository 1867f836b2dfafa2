// `relata.answers.provider: auto` as a chain of choices (answer/firstAvailable.ts). The providers
// are scripted test doubles standing for the editor's model and a local model: what is tested is
// who is asked, in which order, and what the person is told.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerFromRetrieval } from '../../server/src/answer/answer.ts';
import { FirstAvailable } from '../../server/src/answer/firstAvailable.ts';
import { ModelUnavailable, ProviderError, UnconfiguredProvider, type AnswerProvider, type UnavailableReason } from '../../server/src/answer/provider.ts';
import { costRetrieval } from '../support/answerRetrieval.ts';
import { ScriptedProvider } from '../support/scriptedProvider.ts';

const QUESTION = 'What did the GC-2 refurbishment cost?';
const GOOD = JSON.stringify({ answer: 'EUR 42,000 [S1].', sufficient: true, citations: ['S1'] });

function unavailable(reason: UnavailableReason, message: string): ScriptedProvider {
  return new ScriptedProvider(async () => {
    throw new ModelUnavailable(reason, message);
  });
}

test('an unavailable editor model hands over to the local model, and the answer says why', async () => {
  const local = new ScriptedProvider(GOOD);
  const result = await answerFromRetrieval(QUESTION, costRetrieval(), new FirstAvailable([unavailable('no_model', 'No language model is available in the editor'), local]));
  assert.equal(result.model, 'scripted-test-double');
  assert.deepEqual(result.citations, ['S1']);
  assert.equal(result.model_note, 'No language model is available in the editor. Answered with scripted-test-double instead.');
  assert.equal(local.prompts.length, 1);
});

test('a cancellation ends the ask: no other model is asked', async () => {
  const local = new ScriptedProvider(GOOD);
  const result = await answerFromRetrieval(QUESTION, costRetrieval(), new FirstAvailable([unavailable('cancelled', 'The request was cancelled.'), local]));
  assert.equal(local.prompts.length, 0);
  assert.equal(result.answer, null);
  assert.equal(result.model, null);
  assert.equal(result.model_note, 'The request was cancelled. Showing the matching passages only.');
  assert.ok(result.sources.length > 0, 'the retrieval is still the result');
});

test('when no choice can answer, every reason is said once, with the retrieval', async () => {
  const chain = new FirstAvailable([unavailable('no_consent', 'You did not allow Relata to use the editor\'s model.'), new UnconfiguredProvider('none', 'No local model file or endpoint is configured.')]);
  const result = await answerFromRetrieval(QUESTION, costRetrieval(), chain);
  assert.equal(result.model_note, 'You did not allow Relata to use the editor\'s model. No local model file or endpoint is configured. Showing the matching passages only.');
  assert.deepEqual(result.conflicts, costRetrieval().conflicts);
});

test('a real failure of the first choice is an error, not a hand-over that would hide it', async () => {
  const failing: AnswerProvider = { name: 'editor', generate: async () => Promise.reject(new ProviderError('the editor\'s language model failed: boom')), close: async () => {} };
  const local = new ScriptedProvider(GOOD);
  await assert.rejects(answerFromRetrieval(QUESTION, costRetrieval(), new FirstAvailable([failing, local])), /boom/);
  assert.equal(local.prompts.length, 0);
});

test('an ask cancelled while the model works tells the model to stop', async () => {
  const cancelled = new AbortController();
  let seen: AbortSignal | undefined;
  const slow = new ScriptedProvider(
    (_, signal) =>
      new Promise((_, reject) => {
        seen = signal;
        signal.addEventListener('abort', () => reject(new Error('stopped')));
        cancelled.abort();
      }),
  );
  await assert.rejects(answerFromRetrieval(QUESTION, costRetrieval(), slow, { signal: cancelled.signal }), /stopped/);
  assert.equal(seen?.aborted, true);
});
