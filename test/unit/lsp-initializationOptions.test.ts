// Settings from `initializationOptions` are checked one by one: a setting of the wrong type is
// named and keeps its default (so it cannot switch the size limit off or exclude every file),
// the valid ones still apply, and unknown or inherited names are reported, never used.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settingsFromInitializationOptions } from '../../server/src/lsp/initializationOptions.ts';
import { DEFAULT_SERVER_SETTINGS as DEFAULTS } from '../../server/src/lsp/server.ts';

test('valid settings apply, and none given means the defaults without a word', () => {
  assert.deepEqual(settingsFromInitializationOptions(undefined, DEFAULTS), { settings: DEFAULTS, problems: [] });
  assert.deepEqual(settingsFromInitializationOptions({}, DEFAULTS), { settings: DEFAULTS, problems: [] });
  const given = { dataLocation: '/data', exclude: ['drafts/'], maxFileMb: 5, embeddingModel: 'none', minScore: 0.2, storeScore: null };
  assert.deepEqual(settingsFromInitializationOptions({ settings: given }, DEFAULTS), { settings: { ...DEFAULTS, ...given }, problems: [] });
});

test('a setting of the wrong type keeps its default and is named; the others still apply', () => {
  const { settings, problems } = settingsFromInitializationOptions(
    { settings: { maxFileMb: 'abc', exclude: '*.md', embeddingModel: 'none', minScore: 7, dataLocation: null } },
    DEFAULTS,
  );
  assert.equal(settings.maxFileMb, DEFAULTS.maxFileMb, 'the size limit stays on');
  assert.deepEqual(settings.exclude, [], 'a string is not a list of patterns');
  assert.equal(settings.minScore, null);
  assert.equal(settings.dataLocation, '');
  assert.equal(settings.embeddingModel, 'none', 'a valid setting beside invalid ones applies');
  assert.deepEqual(problems, [
    'initializationOptions.settings.maxFileMb must be a number from 0.001 to 10000, not "abc"',
    'initializationOptions.settings.exclude must be a list, each a non-empty string, not "*.md"',
    'initializationOptions.settings.minScore must be a number from 0 to 1, not number',
    'initializationOptions.settings.dataLocation must be a string, not null',
  ]);
});

test('limits that are not numbers, not finite or out of range never reach the pipeline', () => {
  for (const maxFileMb of [Number.NaN, Infinity, 0, -1, 1e9, '50', true, [50], { mb: 50 }]) {
    const { settings, problems } = settingsFromInitializationOptions({ settings: { maxFileMb } }, DEFAULTS);
    assert.equal(settings.maxFileMb, DEFAULTS.maxFileMb, String(maxFileMb));
    assert.equal(problems.length, 1);
  }
  const { settings } = settingsFromInitializationOptions({ settings: { exclude: ['a/', 3, ''] } }, DEFAULTS);
  assert.deepEqual(settings.exclude, [], 'a list with a bad entry is refused whole');
});

test('unknown and inherited names are reported and ignored', () => {
  const raw = JSON.parse('{"settings": {"maxFileMB": 1, "__proto__": {"maxFileMb": 0.001}}, "constructor": 1}');
  const { settings, problems } = settingsFromInitializationOptions(raw, DEFAULTS);
  assert.deepEqual(settings, DEFAULTS);
  assert.equal(problems.length, 3);
  assert.match(problems[0]!, /^initializationOptions\.constructor is not a known field/);
  assert.match(problems[1]!, /^initializationOptions\.settings\.maxFileMB is not a known field/);
  assert.match(problems[2]!, /^initializationOptions\.settings\.__proto__ is not a known field/);
});

test('options that are not an object at all are reported, and the defaults used', () => {
  for (const raw of ['settings', 42, [], { settings: 'x' }, { settings: [] }]) {
    const { settings, problems } = settingsFromInitializationOptions(raw, DEFAULTS);
    assert.deepEqual(settings, DEFAULTS);
    assert.equal(problems.length, 1, JSON.stringify(raw));
  }
});
