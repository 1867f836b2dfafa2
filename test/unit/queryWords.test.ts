// The query's words as search weighs them, where a text holds them, and the sentences that name
// them: what the explanations say and the editor marks is what was searched for.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryWords, wordMatches, wordsAsWritten, wordsAsWrittenIn, wordsFound, writtenForms } from '../../shared/queryWords.ts';
import { whyMatched } from '../../server/src/ranking/explain.ts';
import { matchedFigures } from '../../server/src/ranking/matchedTerms.ts';
import type { StoredClaim } from '../../server/src/store/contract.ts';

test('function words are left out of a query, unless it has nothing else', () => {
  assert.deepEqual(queryWords('What did the GC-2 refurbishment cost?'), ['gc', '2', 'refurbishment', 'cost']);
  assert.deepEqual(queryWords('what is it'), ['what', 'is', 'it']);
});

test('a word with an ending counts, a shorter word with the same start does not', () => {
  const text = 'Payments were replaced; pay the invoiced amount; the process for procurement; the finance review.';
  const marked = (query: string) => wordMatches(text, queryWords(query)).map((match) => text.slice(match.start, match.end));
  assert.deepEqual(marked('payment'), ['Payments']);
  assert.deepEqual(marked('replacement invoice'), ['replaced', 'invoiced']);
  assert.deepEqual(marked('process'), ['process']);
  assert.deepEqual(marked('pay'), ['pay']);
  assert.deepEqual(marked('final'), []);
  assert.deepEqual(marked('refurbished review'), ['review']);
  assert.deepEqual(wordsFound(['no such thing', text], queryWords('crane payment')), ['payment']);
});

test('every occurrence is marked, each for the first query word it shares a stem with, whatever its case', () => {
  const text = 'Payment, PAYMENTS and payment again; the Paying party pays; Zahlung and ZAHLUNG.';
  const matches = wordMatches(text, ['payments', 'payment', 'zahlung']);
  assert.deepEqual(
    matches.map((match) => [text.slice(match.start, match.end), match.word]),
    [['Payment', 'payments'], ['PAYMENTS', 'payments'], ['payment', 'payments'], ['Zahlung', 'zahlung'], ['ZAHLUNG', 'zahlung']],
  );
  assert.deepEqual(wordMatches(text, []), []);
});

test('the words as written, read text by text, are the same as read from the texts together', () => {
  const texts = ['Crane report', 'The cranes were refurbished; the refurbishment cost more.', 'No word of the query here.', 'CRANE costs'];
  const words = queryWords('crane refurbishment costs');
  assert.deepEqual(wordsAsWritten(texts, words), ['crane', 'refurbished', 'cost']);
  assert.deepEqual(wordsAsWrittenIn(texts.map((text) => writtenForms(text, words)), words), wordsAsWritten(texts, words));
  assert.deepEqual(wordsAsWrittenIn([writtenForms(texts[3]!, words), writtenForms(texts[1]!, words)], words), ['crane', 'refurbished', 'costs']);
});

const claim = (overrides: Partial<StoredClaim>): StoredClaim => ({
  itemId: 'i', chunkId: 'c1', kind: 'money', subject: 'crane refurbishment', attribute: 'cost', value: 51500, unit: 'EUR',
  text: 'The final cost of the crane refurbishment was EUR 51,500.', start: 0, end: 10, entityKeys: [], producer: 'deterministic', extractorVersion: 'claims@1',
  ...overrides,
});

test('a passage names the figures its sentences give about the query, the figure typed first', () => {
  const claims = [
    claim({ attribute: 'budget', value: 45000, text: 'The budget was EUR 45,000.' }),
    claim({}),
    claim({ chunkId: 'elsewhere', value: 1 }),
  ];
  assert.deepEqual(matchedFigures(claims, new Set(['c1']), queryWords('crane cost')), ['cost 51,500 EUR']);
  assert.deepEqual(matchedFigures(claims, new Set(['c1']), queryWords('45000')), ['budget 45,000 EUR']);
  assert.deepEqual(matchedFigures(claims, new Set(['c1']), queryWords('canteen menu')), []);
});

test('the reasons name the words found and the figure, and the whole item only when it adds a word', () => {
  const hits = new Map([
    ['lexical_items', { itemId: 'a', rank: 1, score: 7 }],
    ['lexical_chunks', { itemId: 'a', rank: 1, score: 5, chunkId: 'c1' }],
  ] as const);
  assert.deepEqual(whyMatched(hits, 'crane cost', { passageWords: ['crane', 'cost'], itemWords: ['crane', 'cost'], figures: ['cost 51500 EUR'] }), [
    'A passage of this item contains "crane" and "cost" from your query.',
    'It states cost 51500 EUR.',
  ]);
  assert.deepEqual(whyMatched(hits, 'crane cost', { passageWords: ['cost'], itemWords: ['crane', 'cost'], figures: [] }), [
    `The item's title or text contains "crane" and "cost" from your query.`,
    'A passage of this item contains "cost" from your query.',
  ]);
});
