// How the entity path reads a query: the same keys the extract stage gives a passage, so a name
// in the query meets its mentions however either side spells the legal form.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLegalFormChain } from '../../server/src/extract/entities/legalSuffixes.ts';
import { queryEntityKeys } from '../../server/src/ranking/entityPath.ts';

test('an organisation named with a legal form reaches the key the extractor stores, in any spelling', () => {
  for (const query of ['Example Ltd', 'example limited', 'EXAMPLE LTD. invoices']) {
    assert.ok(queryEntityKeys(query).keys.includes('organisation:example ltd'), query);
  }
});

test('a name without its legal form is tried as the start of an organisation key', () => {
  assert.ok(queryEntityKeys('invoices from Example').prefixes.includes('organisation:example '));
});

test("a person's name without the honorific reaches the person key", () => {
  assert.ok(queryEntityKeys('budget memo by Lena Fischer').keys.includes('person:lena fischer'));
});

test('dates and e-mail addresses in the query are read as the extractor reads them', () => {
  const { keys } = queryEntityKeys('what happened on 16 May 2025, ask ops@larkspur.example');
  assert.ok(keys.includes('date:2025-05-16'));
  assert.ok(keys.includes('email:ops@larkspur.example'));
});

test('short and function words are never tried as names on their own', () => {
  const { prefixes } = queryEntityKeys('the cost of it');
  assert.deepEqual(prefixes.filter((prefix) => /^organisation:(the|of|it) $/.test(prefix)), []);
});

test('only legal forms may follow a name typed without one: another word makes it another name', () => {
  for (const tail of ['ltd', 'gmbh', 'ltd co', 'pty ltd', 'gmbh co kg', 'sa de cv', 'inc ltd']) assert.ok(isLegalFormChain(tail), tail);
  for (const tail of ['', 'holdings ltd', 'biotech gmbh', 'of ashford systems inc', 'ltd holdings', 'pty', 'co kg extra']) {
    assert.ok(!isLegalFormChain(tail), tail);
  }
});
