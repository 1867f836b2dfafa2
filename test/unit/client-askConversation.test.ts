// The Ask panel's conversation is kept by the extension, so reopening the panel shows it again;
// a question goes to every open folder or the one chosen, and a folder that is not open is refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AskConversation, foldersToAsk, MAX_TURNS } from '../../client/src/webviews/askConversation.ts';

const A = { uri: 'file:///work/site-a', name: 'site-a' };
const B = { uri: 'file:///work/site-b', name: 'site-b' };

test('without a choice every open folder is asked; with one, only that folder', () => {
  assert.deepEqual(foldersToAsk(undefined, [A, B]), { folders: [A, B] });
  assert.deepEqual(foldersToAsk(B.uri, [A, B]), { folders: [B] });
});

test('a folder the window does not have open is refused, and so is asking with no folder open', () => {
  assert.match((foldersToAsk('file:///etc', [A, B]) as { problem: string }).problem, /file:\/\/\/etc is not an open folder/);
  assert.match((foldersToAsk(undefined, []) as { problem: string }).problem, /open a folder/);
});

test('the conversation keeps each finished turn and what is still being asked', () => {
  const conversation = new AskConversation();
  conversation.begin('first?', [A]);
  assert.deepEqual(conversation.pending, { question: 'first?', folders: [A] });
  conversation.finish({ question: 'first?', answers: [{ folder: A, error: 'the index could not be opened' }] });
  assert.equal(conversation.pending, null);
  assert.deepEqual(conversation.turns.map((turn) => turn.question), ['first?']);
});

test('a long session keeps the newest turns', () => {
  const conversation = new AskConversation();
  for (let index = 0; index < MAX_TURNS + 5; index += 1) conversation.finish({ question: `q${index}`, answers: [] });
  assert.equal(conversation.turns.length, MAX_TURNS);
  assert.equal(conversation.turns[0]!.question, 'q5');
});
