// The export format's pure parts (store/exchange/records.ts): vectors written little-endian
// whatever the machine, a record checked field by field before any store sees it, and which
// format versions a reader accepts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRecord, decodeVector, encodeVector, FORMAT_MAJOR, formatMajor } from '../../server/src/store/exchange/records.ts';

test('a vector is written as little-endian float32, and read back bit for bit', () => {
  assert.equal(encodeVector(new Float32Array([1])), Buffer.from([0x00, 0x00, 0x80, 0x3f]).toString('base64'));
  const vector = new Float32Array([0.1, -2.5e-8, 3.4028234e38, -0, 1 / 3]);
  assert.deepEqual(decodeVector(encodeVector(vector)), vector);
  assert.throws(() => decodeVector(Buffer.from([1, 2, 3]).toString('base64')), /3 bytes is not a whole number of float32 values/);
});

const phrase = { record: 'phrase', itemId: 'i1', key: 'crane', phrase: 'cranes', count: 3 };

test('a record of the right kind with every field of the right type passes, optional fields may be absent', () => {
  assert.deepEqual(checkRecord(phrase, 'phrase'), phrase);
  const extraction = { record: 'extraction', itemId: 'i1', contentHash: 'h', versions: 'entities@1' };
  assert.deepEqual(checkRecord(extraction, 'extraction'), extraction);
  assert.ok(checkRecord({ ...extraction, capped: 'kept 500 of 900 entities' }, 'extraction'));
});

test('a record is refused for its kind, a missing or mistyped field, or a field the format does not define', () => {
  assert.throws(() => checkRecord(phrase, 'claim'), /record is "phrase", expected "claim"/);
  assert.throws(() => checkRecord({ ...phrase, count: undefined }, 'phrase'), /field count is missing/);
  assert.throws(() => checkRecord({ ...phrase, count: 2.5 }, 'phrase'), /field count is not integer/);
  assert.throws(() => checkRecord({ ...phrase, weight: 1 }, 'phrase'), /field weight is not part of relata-export\/1 phrase records/);
  assert.throws(() => checkRecord([phrase], 'phrase'), /not a JSON object/);
  assert.throws(() => checkRecord({ record: 'blob', hash: 'abc', size: 1 }, 'blob'), /not a sha-256/);
});

test('a reader accepts its own major version and older, and names a newer one', () => {
  assert.equal(FORMAT_MAJOR, 1);
  assert.equal(formatMajor('relata-export/1'), 1);
  assert.equal(formatMajor('relata-export/2'), 2);
  assert.equal(formatMajor('relata-export/1.3'), 1);
  assert.equal(formatMajor('something-else/1'), null);
  assert.equal(formatMajor(undefined), null);
});

test('a parsed document may carry its links; links not shaped or capped as a parser writes them are refused', () => {
  const parsed = (links: unknown) => ({
    record: 'parsed_text',
    itemId: 'i1',
    contentHash: 'h',
    parserVersion: 'markdown@4',
    document: { title: null, blocks: [], structure: { headings: [], tables: [] }, flags: [], ...(links === undefined ? {} : { links }) },
  });
  const link = { target: '../b/', text: 'the build guide', kind: 'inline', location: { kind: 'lines', start: 12, end: 12 } };
  assert.doesNotThrow(() => checkRecord(parsed(undefined), 'parsed_text'), 'a document from before links');
  assert.doesNotThrow(() => checkRecord(parsed([link]), 'parsed_text'));
  assert.throws(() => checkRecord(parsed('b.md'), 'parsed_text'), /document\.links is not array/);
  assert.throws(() => checkRecord(parsed([{ ...link, kind: 'teleport' }]), 'parsed_text'), /document\.links\[0\] is not a link/);
  assert.throws(() => checkRecord(parsed([{ ...link, target: 'x'.repeat(5000) }]), 'parsed_text'), /document\.links\[0\]/);
  assert.throws(() => checkRecord(parsed(Array.from({ length: 5000 }, () => link)), 'parsed_text'), /more than 1000/);
});
