import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonParser, MAX_KEY_PATHS } from '../../server/src/parse/json.ts';
import { ParseError } from '../../server/src/parse/types.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

async function parseError(source: string): Promise<string> {
  try {
    await jsonParser.parse(utf8(source), 'bad.json');
  } catch (error) {
    assert.ok(error instanceof ParseError, `expected a ParseError, got ${String(error)}`);
    assert.ok(!error.message.includes('\n    at '), 'no stack in the message');
    return error.message;
  }
  assert.fail('expected the parse to fail');
}

const CONFIG = `{
  "name": "loan-book",
  "owner": { "team": "credit", "contacts": [{ "email": "a@example.com" }, { "email": "b@example.com" }] },
  "limits": {
    "max": 12345678901234567890,
    "enabled": true,
    "notes": null
  },
  "tags": [],
  "odd key": "multi\\nline value"
}
`;

test('one line per leaf value, grouped by top-level key with line ranges', async () => {
  const doc = await jsonParser.parse(utf8(CONFIG), 'config.json');
  assert.deepEqual(
    doc.blocks.map((b) => [b.text, b.headingPath, b.location]),
    [
      ['name: loan-book', ['name'], { kind: 'lines', start: 2, end: 2 }],
      [
        'owner.team: credit\nowner.contacts[0].email: a@example.com\nowner.contacts[1].email: b@example.com',
        ['owner'],
        { kind: 'lines', start: 3, end: 3 },
      ],
      [
        'limits.max: 12345678901234567890\nlimits.enabled: true\nlimits.notes: null',
        ['limits'],
        { kind: 'lines', start: 4, end: 8 },
      ],
      ['tags: []', ['tags'], { kind: 'lines', start: 9, end: 9 }],
      ['["odd key"]: multi line value', ['odd key'], { kind: 'lines', start: 10, end: 10 }],
    ],
  );
  assert.equal(doc.title, 'loan-book');
  assert.deepEqual(doc.structure.keyPaths, [
    'name',
    'owner.team',
    'owner.contacts[0].email',
    'owner.contacts[1].email',
    'limits.max',
    'limits.enabled',
    'limits.notes',
    'tags',
    '["odd key"]',
  ]);
  assert.equal(doc.text, doc.blocks.map((b) => b.text).join('\n\n'));
});

test('a top-level array is grouped by element; "title" wins over "name" only at the top level', async () => {
  const doc = await jsonParser.parse(utf8('[\n  {"title": "x", "n": 1},\n  {\n    "n": 2\n  }\n]'), 'list.json');
  assert.deepEqual(
    doc.blocks.map((b) => [b.text, b.location.start, b.location.end]),
    [
      ['[0].title: x\n[0].n: 1', 2, 2],
      ['[1].n: 2', 3, 5],
    ],
  );
  assert.equal(doc.title, null);
  const titled = await jsonParser.parse(utf8('{"name": "n", "title": "The title"}'), 't.json');
  assert.equal(titled.title, 'The title');
});

test('a top-level scalar is one block', async () => {
  const doc = await jsonParser.parse(utf8('"just a string"'), 's.json');
  assert.equal(doc.text, 'just a string');
});

test('syntax errors name the problem, the line and the column', async () => {
  assert.equal(
    await parseError('{\n  "a": 1,\n  "b": 2\n  "c": 3\n}'),
    'invalid JSON at line 4, column 3: expected a comma',
  );
  assert.match(await parseError('{\n  "a": 1,\n}'), /^invalid JSON at line 3, column 1: trailing comma/);
  assert.match(await parseError('{\n  // note\n  "a": 1\n}'), /^invalid JSON at line 2, column 3: comments are not allowed/);
  assert.match(await parseError("{'a': 1}"), /^invalid JSON at line 1, column 2: /);
  assert.match(await parseError('{"a": [1, 2'), /^invalid JSON at line 1, column 12: unexpected end of file/);
  assert.equal(await parseError('  \n'), 'invalid JSON: the file is empty');
});

test('key paths are capped so a huge array does not bloat the item', async () => {
  const big = JSON.stringify({ rows: Array.from({ length: 3000 }, (_, i) => ({ id: i })) });
  const doc = await jsonParser.parse(utf8(big), 'big.json');
  assert.equal(doc.structure.keyPaths!.length, MAX_KEY_PATHS);
  assert.ok(doc.text.includes('rows[2999].id: 2999'), 'text is not capped');
});

test('a JSON file is titled by its own "title" or "name", at the top or one object down, never by a nested name', async () => {
  const titleOf = async (text: string) => (await jsonParser.parse(utf8(text), 'data.json')).title;
  assert.equal(await titleOf('{"Name": "Fleet register 2025", "rows": 3}'), 'Fleet register 2025', 'in any letter case');
  assert.equal(await titleOf('{"openapi": "3.0.0", "info": {"title": "Payments API", "version": "2"}}'), 'Payments API');
  assert.equal(await titleOf('{"customer": {"name": "Example Ltd"}, "total": 12}'), null, 'a nested name names what the file is about');
  assert.equal(await titleOf('{"title": "  ", "name": "Backup plan"}'), 'Backup plan', 'an empty title gives way');
  assert.equal(await titleOf(`{"name": "${'x'.repeat(201)}"}`), null, 'a paragraph is not a title');
  assert.equal(await titleOf('[{"title": "first record"}]'), null, 'an array is a list of records');
});
