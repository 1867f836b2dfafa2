import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { textParser } from '../../server/src/parse/text.ts';
import { ParseError } from '../../server/src/parse/types.ts';
import { KNOWLEDGE_BASES_DIR, skipUnless } from './parse-eval.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

test('paragraphs are runs of non-blank lines, located by 1-based inclusive line ranges', async () => {
  const doc = await textParser.parse(utf8('First line\nsecond line\n\n\nThird paragraph   \n  \nLast\n'), 'notes.txt');
  assert.deepEqual(
    doc.blocks.map((b) => [b.kind, b.text, b.location]),
    [
      ['paragraph', 'First line\nsecond line', { kind: 'lines', start: 1, end: 2 }],
      ['paragraph', 'Third paragraph', { kind: 'lines', start: 5, end: 5 }],
      ['paragraph', 'Last', { kind: 'lines', start: 7, end: 7 }],
    ],
  );
  assert.equal(doc.text, 'First line\nsecond line\n\nThird paragraph\n\nLast');
  assert.equal(doc.title, null);
  assert.deepEqual(doc.flags, []);
  assert.deepEqual(doc.structure, { headings: [], tables: [] });
});

test('CRLF and lone CR line endings count lines as an editor does; a UTF-8 BOM is stripped', async () => {
  const doc = await textParser.parse(utf8('\ufeffone\r\ntwo\r\n\r\nthree\rfour'), 'win.txt');
  assert.equal(doc.blocks[0]!.text, 'one\ntwo');
  assert.deepEqual(doc.blocks[1]!.location, { kind: 'lines', start: 4, end: 5 });
  assert.equal(doc.text.charCodeAt(0), 'o'.charCodeAt(0));
});

test('binary content is refused with a ParseError naming the problem', async () => {
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
  await assert.rejects(textParser.parse(bytes, 'image.txt'), (error: unknown) => {
    assert.ok(error instanceof ParseError);
    assert.match(error.message, /not a text file: contains binary data/);
    return true;
  });
});

test('legacy Windows-1252 text is read rather than refused', async () => {
  const doc = await textParser.parse(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35]), 'legacy.txt');
  assert.equal(doc.text, 'café €5');
});

test('UTF-16 with a byte order mark is decoded', async () => {
  const body = Buffer.from('hello world', 'utf16le');
  const doc = await textParser.parse(new Uint8Array([0xff, 0xfe, ...body]), 'utf16.txt');
  assert.equal(doc.text, 'hello world');
});

test('an empty or blank file is indexed with no blocks and flagged little_text', async () => {
  for (const content of ['', '\n \n\t\n']) {
    const doc = await textParser.parse(utf8(content), 'empty.txt');
    assert.deepEqual(doc.blocks, []);
    assert.deepEqual(doc.flags, ['little_text']);
  }
});

const licence = path.join(KNOWLEDGE_BASES_DIR, 'opensource-guide-en/LICENSE-CC-BY-4.0.txt');

test('a real text file: every block is exactly the lines it says it is', { skip: skipUnless(licence) }, async () => {
  const bytes = fs.readFileSync(licence);
  const doc = await textParser.parse(new Uint8Array(bytes), 'LICENSE-CC-BY-4.0.txt');
  const lines = bytes.toString('utf8').split(/\r\n|\n|\r/);
  assert.ok(doc.blocks.length > 20);
  for (const block of doc.blocks) {
    assert.equal(block.location.kind, 'lines');
    const source = lines.slice(block.location.start - 1, block.location.end).map((l) => l.trimEnd()).join('\n');
    assert.equal(block.text, source);
  }
});
