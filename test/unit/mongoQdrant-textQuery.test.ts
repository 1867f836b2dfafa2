// What a typed query becomes as a MongoDB `$text` search string (mongoQdrant/textQuery.ts): the
// SQLite store's rules (words as a bag, English function words left out unless they are all there
// is, no query syntax read from user text), plus double-quoted phrases kept as phrases. What a
// server then finds with it is for the contract suite, against a real MongoDB.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toFtsQuery } from '../../server/src/store/sqlite/ftsQuery.ts';
import { toTextSearch } from '../../server/src/store/mongoQdrant/textQuery.ts';

/** The words of a `$text` string outside its phrases. */
const termsOf = (search: string): string[] => search.replace(/"[^"]*"/g, ' ').split(/\s+/).filter(Boolean);
/** The words of an FTS5 query as the SQLite store writes it. */
const ftsTerms = (query: string): string[] => [...query.matchAll(/"([^"]*)"/g)].map((match) => match[1]!);

test('function words are left out and the words that matter kept, as the SQLite store does', () => {
  assert.equal(toTextSearch('What did the GC-2 refurbishment cost?'), 'gc 2 refurbishment cost');
});

test('without phrases, the terms are exactly the SQLite store\'s, in the same order', () => {
  for (const query of ['What did the GC-2 refurbishment cost?', 'not approved', 'The Who', 'Crane crane CRANE', 'Grüße aus Köln 2024', 'title:crane NEAR(a b)']) {
    assert.deepEqual(termsOf(toTextSearch(query) ?? ''), ftsTerms(toFtsQuery(query) ?? ''), query);
  }
});

test('negations stay: they change what a query asks', () => {
  assert.equal(toTextSearch('not approved'), 'not approved');
});

test('a query of function words only keeps them', () => {
  assert.equal(toTextSearch('The Who'), 'the who');
});

test('a query with nothing to search for gives null', () => {
  assert.equal(toTextSearch('?!'), null);
  assert.equal(toTextSearch(''), null);
  assert.equal(toTextSearch('""'), null);
});

test('a quoted phrase stays one phrase, function words inside it included', () => {
  assert.equal(toTextSearch('"bill of lading" for the crane'), '"bill of lading" crane');
});

test('a phrase keeps its punctuation (it is matched against the text as written), lower-cased and with spaces collapsed', () => {
  assert.equal(toTextSearch('"GC-2   Refurbishment"'), '"gc-2 refurbishment"');
});

test('a quoted single word is a word, and follows the function-word rule', () => {
  assert.equal(toTextSearch('"crane" report'), 'crane report');
  assert.equal(toTextSearch('"the" crane'), 'crane');
});

test('a query of phrases and function words keeps the phrases and drops the function words', () => {
  assert.equal(toTextSearch('what about "annual report" and "audit plan"'), '"annual report" "audit plan"');
});

test('no $text syntax is read from user text: a leading minus cannot negate, a stray quote cannot open a phrase', () => {
  assert.equal(toTextSearch('-crane -"gantry crane"'), '"gantry crane" crane');
  assert.equal(toTextSearch('crane -refurbishment'), 'crane refurbishment');
  assert.equal(toTextSearch('an "unclosed phrase'), 'unclosed phrase');
  assert.equal(toTextSearch('a "back\\slash\\" test'), '"back slash" test');
});

test('the same phrase or word twice is searched once', () => {
  assert.equal(toTextSearch('"gantry crane" "Gantry Crane" crane crane'), '"gantry crane" crane');
});
