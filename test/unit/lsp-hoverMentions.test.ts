// The hover finds a name Relata knows under the cursor only as a whole word, with where it sits in
// the line, so a plain word (or a name inside a longer word) gets no hover.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mentionsUnderCursor } from '../../server/src/lsp/hoverMentions.ts';

const entities = [
  { key: 'organisation:example ltd', surface: 'Example Ltd', type: 'organisation' },
  { key: 'person:ana', surface: 'Ana', type: 'person' },
  { key: 'organisation:example ltd', surface: 'EXAMPLE LTD', type: 'organisation' },
];

test('the name under the cursor is found with its offsets in the line', () => {
  const line = 'Payment to Example Ltd is due.';
  const at = line.indexOf('Example') + 3;
  const found = mentionsUnderCursor(entities, line, at);
  assert.deepEqual(found.map((m) => [m.entity.surface, line.slice(m.start, m.end)]), [['Example Ltd', 'Example Ltd']]);
});

test('a plain word of the same line gets nothing', () => {
  const line = 'Payment to Example Ltd is due.';
  assert.deepEqual(mentionsUnderCursor(entities, line, line.indexOf('Payment') + 2), []);
  assert.deepEqual(mentionsUnderCursor(entities, line, line.indexOf('due') + 1), []);
});

test('a name inside a longer word is not that name', () => {
  const line = 'Banana and Ana.';
  assert.deepEqual(mentionsUnderCursor(entities, line, 2), [], 'not over "Banana"');
  const found = mentionsUnderCursor(entities, line, line.lastIndexOf('Ana') + 1);
  assert.deepEqual(found.map((m) => [m.entity.key, m.start]), [['person:ana', line.lastIndexOf('Ana')]]);
});
