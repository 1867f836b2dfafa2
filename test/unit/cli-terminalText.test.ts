// What the command line prints from a document cannot drive the terminal: escape sequences,
// C1 controls, carriage returns and bidi controls are shown as visible `\uXXXX` escapes, the
// words around them stay, and --json output keeps its exact meaning.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { terminalLine, terminalText } from '../../server/src/cli/terminalText.ts';

const HOSTILE = [
  'clear\x1b[2J',
  'title\x1b]0;pwned\x07',
  'link\x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\',
  'csi\x9b31m',
  'nul\x00del\x7f',
  'overwrite\rfake',
  'bidi\u202Etxt.exe\u202C',
  'isolate\u2066x\u2069 mark\u200E\u200F\u061C',
  'zero\u200Bwidth\uFEFF tag\u{E0041}',
  'sep\u2028arator\u2029',
];

/** Characters a terminal acts on or that change what a reader sees, besides newline and tab. */
const ACTIVE = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u061C\u200B\u200E\u200F\u2028-\u202E\u2066-\u2069\uFEFF]|\u{E0041}/u;

test('no control, escape or bidi character survives, and the visible words do', () => {
  for (const text of HOSTILE) {
    const shown = terminalText(text);
    assert.doesNotMatch(shown, ACTIVE, JSON.stringify(text));
    for (const word of text.split(/[^a-z.]+/).filter((part) => part.length > 2)) assert.ok(shown.includes(word), `${word} in ${shown}`);
  }
  assert.equal(terminalText('clear\x1b[2J'), 'clear\\u001B[2J');
  assert.equal(terminalText('bidi\u202Etxt.exe'), 'bidi\\u202Etxt.exe');
  assert.equal(terminalText('tag\u{E0041}'), 'tag\\uDB40\\uDC41');
});

test('a whole output keeps its lines and tabs; a field on one line does not', () => {
  assert.equal(terminalText('1. Title\n   path\tline 3\r\n'), '1. Title\n   path\tline 3\n');
  assert.equal(terminalLine('report.md\n2. passwd\tx'), 'report.md\\u000A2. passwd\\u0009x');
  assert.equal(terminalLine('a\r\nb'), 'a\\u000D\\u000Ab');
});

test('text in any script, emoji and their joiners is printed as it is', () => {
  const text = 'Ünïcödé, ελληνικά, 日本語, می‌خواهم, עברית, 👩‍👩‍👧 €42,000 — “quoted”';
  assert.equal(terminalText(text), text);
  assert.equal(terminalLine(text), text);
});

test('JSON output stays valid and means exactly the same, with every hostile character escaped', () => {
  const value = { title: HOSTILE.join(' '), items: HOSTILE, nested: { path: 'a\nb.md' } };
  const printed = terminalText(JSON.stringify(value, null, 2));
  assert.doesNotMatch(printed, ACTIVE);
  assert.deepEqual(JSON.parse(printed), value);
});
