// Types and signals in the words a person reads: every identifier the engine knows has words that
// are not the identifier with its underscores; a relationship reads from either end; a name this
// build does not know still reads as words.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RELATIONSHIP_TYPES, SIGNAL_TYPES } from '../../shared/types.ts';
import { figureText, relationshipSentence, signalName, typeName, typeVerb } from '../../shared/wording.ts';

test('no type or signal is shown as an identifier: no underscore in any of their words', () => {
  for (const type of RELATIONSHIP_TYPES) {
    for (const words of [typeName(type), typeVerb(type), typeVerb(type, 'backward')]) assert.doesNotMatch(words, /_/, type);
  }
  for (const signal of SIGNAL_TYPES) assert.doesNotMatch(signalName(signal), /_/, signal);
});

test('the panel sentence says "happened before", not occurred_before', () => {
  assert.equal(relationshipSentence('occurred_before', 'Inspection report', 'Q2 review'), 'Inspection report happened before Q2 review');
  assert.equal(typeName('occurred_before'), 'happened before');
});

test('a directed type read from its other end turns round: supports → is supported by, happened before → happened after', () => {
  assert.equal(typeVerb('supports', 'backward'), 'is supported by');
  assert.equal(typeVerb('occurred_before', 'backward'), 'happened after');
  assert.equal(typeVerb('occurred_after', 'backward'), 'happened before');
  assert.equal(typeVerb('contradicts', 'backward'), 'contradicts', 'a mutual type reads the same from both ends');
});

test('signals read as evidence a person recognises: shared_concept → shared concept, semantic_similarity → similar meaning', () => {
  assert.equal(signalName('shared_concept'), 'shared concept');
  assert.equal(signalName('semantic_similarity'), 'similar meaning');
  assert.equal(signalName('claim_contradiction'), 'different figures');
});

test('a type or signal unknown to this build (a newer server) still reads as words', () => {
  assert.equal(typeName('cites_as_source'), 'cites as source');
  assert.equal(typeVerb('cites_as_source', 'backward'), 'cites as source');
  assert.equal(signalName('shared_author'), 'shared author');
});

test('figures read as documents write them: 51500 → "51,500", with the unit after; a date stays as written', () => {
  assert.equal(figureText(51500, 'EUR'), '51,500 EUR');
  assert.equal(figureText(42000), '42,000');
  assert.equal(figureText(0.1 + 0.2), '0.3', 'float noise is not shown');
  assert.equal(figureText(950), '950');
  assert.equal(figureText('2025-03-14'), '2025-03-14');
});
