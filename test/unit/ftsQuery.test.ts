// What a typed query becomes in FTS5: quoted words only, OR-ed, without English function words
// unless they are all there is.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryStemming } from '../../shared/stems.ts';
import { toFtsQuery } from '../../server/src/store/sqlite/ftsQuery.ts';

test('function words are left out, the words that matter are kept and quoted', () => {
  assert.equal(toFtsQuery('What did the GC-2 refurbishment cost?'), '"gc" OR "2" OR "refurbishment" OR "cost"');
});

test('negations stay: they change what a query asks', () => {
  assert.equal(toFtsQuery('not approved'), '"not" OR "approved"');
});

test('a query of function words only keeps them', () => {
  assert.equal(toFtsQuery('The Who'), '"the" OR "who"');
});

test('FTS5 syntax in user text is never interpreted', () => {
  assert.equal(toFtsQuery('title:crane NEAR(a b) "x" OR'), '"title" OR "crane" OR "near" OR "b" OR "x"');
  assert.equal(toFtsQuery('?!'), null);
});

test('in a German folder a query word is searched as its stem; in a folder also holding English, as typed too; in an English folder, as typed only', () => {
  const german = new Map([['de', 12]]);
  const mixed = new Map([['de', 6], ['en', 6]]);
  assert.deepEqual(queryStemming('Beiträgen', german), { languages: ['de'], asTyped: false });
  assert.equal(toFtsQuery('Beiträgen', queryStemming('Beiträgen', german)), '"beitrag"');
  assert.equal(toFtsQuery('Beiträgen', queryStemming('Beiträgen', mixed)), '"beiträgen" OR "beitrag"');
  assert.equal(toFtsQuery('payments', queryStemming('payments', new Map([['en', 5000], ['und', 3]]))), '"payments"');
  // A language holding under 5% of the folder does not stem its queries.
  assert.deepEqual(queryStemming('Beiträgen', new Map([['en', 100], ['de', 2]])), { languages: [], asTyped: true });
});

test('a query whose own language can be told is stemmed in it, whatever the folder', () => {
  const query = 'Wie kann ich zu einem Projekt beitragen, wenn ich nicht programmieren kann';
  assert.deepEqual(queryStemming(query, new Map([['en', 10]])).languages, ['de']);
});
