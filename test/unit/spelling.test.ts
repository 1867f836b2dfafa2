// The rules of spelling tolerance, without a store: how far a word may be corrected, how a stem of
// the index is turned back into a word, which of several close words is chosen, and how the
// correction is said to a person.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closestWords, editDistance, maxEdits } from '../../server/src/ranking/spelling.ts';
import { alsoSearchedText, markedWords, searchedQuery } from '../../shared/spellingText.ts';

const vocabulary = (...terms: [string, number][]) => terms.map(([term, documents]) => ({ term, documents }));

test('two neighbouring letters swapped cost one edit, as a typist makes them: licnese → license', () => {
  assert.equal(editDistance('licnese', 'license'), 1);
  assert.equal(editDistance('projct', 'project'), 1);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('abc', 'abcdefgh', 2), 3, 'beyond the limit, only "more than the limit" is said');
});

test('short words allow one edit, longer ones two', () => {
  assert.equal(maxEdits('cost'), 1);
  assert.equal(maxEdits('crane'), 1);
  assert.equal(maxEdits('licnese'), 2);
});

test('the index\u2019s stems are turned back into words: "licens" offers "license"', () => {
  assert.equal(closestWords('licnese', vocabulary(['licens', 3], ['lighthous', 1]))[0], 'license');
  assert.equal(closestWords('weeky', vocabulary(['weekli', 2]))[0], 'weekly', 'a final i was a y');
});

test('of the close words, the fewest edits win, then the word more documents hold', () => {
  assert.deepEqual(closestWords('cart', vocabulary(['card', 1], ['care', 9]))[0], 'care');
  assert.equal(closestWords('projct', vocabulary(['project', 2], ['protect', 40]))[0], 'project', 'one edit beats two, however common');
});

test('nothing close enough is nothing offered', () => {
  assert.deepEqual(closestWords('xylophone', vocabulary(['xerox', 4])), []);
});

test('the correction is said with the words searched and the words typed, and both are marked', () => {
  const corrections = [{ typed: 'licnese', searched: 'license' }, { typed: 'projct', searched: 'project' }];
  assert.equal(alsoSearchedText(corrections), 'also searched: license, project (for licnese, projct, which no document here contains)');
  assert.equal(alsoSearchedText([]), null);
  assert.equal(alsoSearchedText(corrections, (word) => `«${word}»`), 'also searched: «license», «project» (for licnese, projct, which no document here contains)', 'marked, only the words searched');
  assert.equal(searchedQuery('licnese for my projct', corrections), 'licnese for my projct license project');
  assert.deepEqual(markedWords('licnese for my projct', corrections), ['licnese', 'projct', 'license', 'project']);
});
