// The command line a person can use without the manual, in its pure parts: a slip of the keyboard
// is answered with the name that was meant, a usage mistake is one line in words, and a search's
// text keeps to the results and reasons that help choose (--json keeps everything).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SearchResponse, SearchResultView } from '../../shared/types.ts';
import { closestNames, didYouMean, editDistance } from '../../server/src/cli/closestName.ts';
import { asksForHelp, readCommandLine } from '../../server/src/cli/commandLine.ts';
import { sentencesOf } from '../../server/src/cli/commands/relationships.ts';
import { SEARCH_OPTIONS } from '../../server/src/cli/searchArgs.ts';
import { renderSearch, searchOutput, STALE_AFTER_DAYS, WEAK_RELEVANCE, worthSaying } from '../../server/src/cli/searchText.ts';
import { UsageError } from '../../server/src/cli/usage.ts';
import { explainHit } from '../../server/src/ranking/explain.ts';

const COMMANDS = ['index', 'items', 'item', 'relationships', 'related', 'confirm', 'reject', 'search', 'ask', 'status', 'scoring'];

test('two neighbouring letters swapped are one slip, as a dropped or wrong letter is', () => {
  assert.equal(editDistance('serach', 'search'), 1);
  assert.equal(editDistance('limt', 'limit'), 1);
  assert.equal(editDistance('statsu', 'status'), 1);
  assert.equal(editDistance('search', 'search'), 0);
  assert.equal(editDistance('', 'ask'), 3);
});

test('a misspelt command is answered with the command meant; a word like none is answered with none', () => {
  assert.deepEqual(closestNames('serach', COMMANDS), ['search']);
  assert.deepEqual(closestNames('Relationship', COMMANDS), ['relationships']);
  assert.deepEqual(closestNames('frobnicate', COMMANDS), []);
  assert.deepEqual(closestNames('xyz', COMMANDS), [], 'three letters with nothing in common are not a slip of "ask"');
  assert.equal(didYouMean('itme', COMMANDS), '; did you mean item?');
  assert.equal(didYouMean('iteme', COMMANDS), '; did you mean items or item?', 'two as near: both named, in the order given');
  assert.equal(didYouMean('frobnicate', COMMANDS), '');
});

function usageMessage(args: string[]): string {
  try {
    readCommandLine(args, SEARCH_OPTIONS);
  } catch (error) {
    assert.ok(error instanceof UsageError, `a usage error, not ${String(error)}`);
    return error.message;
  }
  assert.fail(`${args.join(' ')} was accepted`);
}

test('an unknown option is named without stray quotes, with the option it was probably meant to be', () => {
  assert.equal(usageMessage(['crane', '--limt', '3']), 'unknown option --limt; did you mean --limit?');
  assert.equal(usageMessage(['crane', '--jsno']), 'unknown option --jsno; did you mean --json?');
  assert.equal(usageMessage(['crane', '--colour']), 'unknown option --colour');
  assert.equal(usageMessage(['crane', '-x']), 'unknown option -x', 'a one-letter option is too short to guess from');
  for (const args of [['crane', '--limt', '3'], ['crane', '--limit'], ['crane', '--json=yes']]) {
    assert.doesNotMatch(usageMessage(args), /['\n]/, 'one line, no unbalanced quote');
  }
});

test('an option missing its value, or a switch given one, says how to write it', () => {
  assert.equal(usageMessage(['crane', '--limit']), '--limit needs a value');
  assert.match(usageMessage(['crane', '--limit', '--json']), /^--limit needs a value, and --json is an option: a value that starts with "-" is written --limit=--json$/);
  assert.equal(usageMessage(['crane', '--json=yes']), '--json takes no value: write --json, not --json=yes');
});

test('--help anywhere before -- asks for help, whatever else is wrong; after -- it is a word of the query', () => {
  assert.ok(asksForHelp(['--limt', '3', '--help']));
  assert.ok(asksForHelp(['-h']));
  assert.ok(!asksForHelp(['--', '--help']));
  assert.ok(!asksForHelp(['crane']));
});

test('a title or an initial does not end a sentence of a signal\'s explanation', () => {
  assert.deepEqual(sentencesOf('Both items refer to this person. It appears in 4 items, so it counts for less.'), [
    'Both items refer to this person.',
    'It appears in 4 items, so it counts for less.',
  ]);
  assert.deepEqual(sentencesOf('The sources disagree on what Mr. Okafor approved for J. Smith Ltd. Relata does not decide.'), [
    'The sources disagree on what Mr. Okafor approved for J. Smith Ltd. Relata does not decide.',
  ]);
});

function result(path: string, relevance: number, whyMatched: string[]): SearchResultView {
  return {
    item_id: `id-${path}`,
    title: path,
    path,
    query_relevance: relevance,
    semantic_similarity: null,
    why_matched: whyMatched,
    contributions: {},
    expanded_via: null,
    passage: null,
  };
}

const indexedAgo = (days: number) => explainHit('recency', { itemId: 'x', rank: 0, score: 1, ageDays: days }, 'crane');

test('the index date is said only when the version is a week old or more, in the very words ranking gives it', () => {
  assert.ok(!worthSaying(indexedAgo(0)), indexedAgo(0));
  assert.ok(!worthSaying(indexedAgo(1)), indexedAgo(1));
  assert.ok(!worthSaying(indexedAgo(STALE_AFTER_DAYS - 1)), indexedAgo(STALE_AFTER_DAYS - 1));
  assert.ok(worthSaying(indexedAgo(STALE_AFTER_DAYS)), indexedAgo(STALE_AFTER_DAYS));
  assert.ok(worthSaying(indexedAgo(400)));
  assert.ok(worthSaying('A passage of this item contains "crane" from your query.'));
});

test('results below the relevance floor are counted in one line, listed with --all, and kept whole in --json', () => {
  const response: SearchResponse = {
    rank_version: 'query-rank-v2',
    query: 'crane',
    unavailable_paths: [],
    results: [
      result('strong.md', 1, ['A passage of this item contains "crane" from your query.', indexedAgo(0)]),
      result('good.md', 0.6, ['A passage of this item contains "crane" from your query.', indexedAgo(30)]),
      result('weak-one.md', WEAK_RELEVANCE - 0.01, ['The item\'s title or text contains words from your query.']),
      result('weak-two.md', 0.05, ['The item\'s title or text contains words from your query.']),
    ],
  };
  const text = renderSearch(response);
  assert.match(text, /^2 more weak matches \(relevance < 0\.20; --all to list\)$/m);
  assert.ok(!text.includes('weak-one.md') && !text.includes('weak-two.md'), text);
  assert.ok(text.includes('strong.md') && text.includes('good.md'));
  assert.ok(!text.includes(indexedAgo(0)), 'indexed today says nothing');
  assert.ok(text.includes(indexedAgo(30)), 'a month-old version is worth saying');

  const all = renderSearch(response, { all: true });
  assert.ok(all.includes('weak-one.md') && all.includes('weak-two.md'));
  assert.doesNotMatch(all, /weak match/);

  assert.deepEqual(JSON.parse(searchOutput(response, true)), response, '--json holds every result and reason');
  const oneWeak = renderSearch({ ...response, results: response.results.slice(0, 3) });
  assert.match(oneWeak, /^1 more weak match \(relevance < 0\.20; --all to list\)$/m);
});
