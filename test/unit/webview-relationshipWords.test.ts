// The relationship panel's words (webview-ui/src/relationshipWords.ts): the heading, the verb
// between the two items and each signal's name are plain words from shared/wording.ts, never the
// identifiers the panel receives.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RELATIONSHIP_TYPES, SIGNAL_TYPES } from '../../shared/types.ts';
import { pairVerb, relationshipHeading, signalCells } from '../../webview-ui/src/relationshipWords.ts';

test('the panel heads a similar_to relationship "Similar" and reads its pair "A is similar to B"', () => {
  assert.equal(relationshipHeading('similar_to'), 'Similar');
  assert.equal(pairVerb('similar_to'), 'is similar to');
  assert.equal(relationshipHeading('occurred_before'), 'Happened before');
  assert.equal(pairVerb('occurred_before'), 'happened before');
});

test('no heading, verb or signal name in the panel holds an identifier', () => {
  for (const type of RELATIONSHIP_TYPES) {
    assert.doesNotMatch(relationshipHeading(type), /_/, type);
    assert.doesNotMatch(pairVerb(type), /_/, type);
  }
  for (const type of SIGNAL_TYPES) assert.doesNotMatch(signalCells({ type, value: 'x' }).name, /_/, type);
});

test('a signal row names the signal in words and keeps what was observed; similarity says it is not a probability', () => {
  assert.deepEqual(signalCells({ type: 'shared_text', value: '3 passages' }), { name: 'shared text', value: '3 passages' });
  assert.deepEqual(signalCells({ type: 'semantic_similarity', value: '0.89 cosine' }), { name: 'similar meaning', value: '0.89 cosine (similarity, not a probability)' });
});
