// What a typed query becomes in FTS5: quoted words only, OR-ed, without English function words
// unless they are all there is.

import assert from 'node:assert/strict';
import { test } from 'node:test';
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

test('a German or French query word is searched as written, not as its Snowball stem (stems lowered known-item search, issue 28)', () => {
  assert.equal(toFtsQuery('Beiträgen'), '"beiträgen"');
  assert.equal(toFtsQuery('Construire des communautés accueillantes'), '"construire" OR "communautés" OR "accueillantes"');
});
