// The export format's pure parts (store/exchange/records.ts): vectors written little-endian
// whatever the machine, a record checked field by field before any store sees it, and which
// format versions a reader accepts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRecord, FORMAT_MAJOR, formatMajor } from '../../server/src/store/exchange/records.ts';
import { decodeVector, encodeVector } from '../../server/src/store/exchange/vectorText.ts';

test('a vector is written as little-endian float32, and read back bit for bit', () => {
  assert.equal(encodeVector(new Float32Array([1])), Buffer.from([0x00, 0x00, 0x80, 0x3f]).toString('base64'));
  const vector = new Float32Array([0.1, -2.5e-8, 3.4028234e38, -0, 1 / 3]);
  assert.deepEqual(decodeVector(encodeVector(vector)), vector);
  assert.throws(() => decodeVector(Buffer.from([1, 2, 3]).toString('base64')), /3 bytes is not a whole number of float32 values/);
});

const phrase = { record: 'phrase', itemId: 'i1', key: 'crane', phrase: 'cranes', count: 3 };

test('a record of the right kind with every field of the right type passes, optional fields may be absent', () => {
  assert.deepEqual(checkRecord(phrase, 'phrase'), phrase);
  const extraction = { record: 'extraction', itemId: 'i1', contentHash: 'a'.repeat(64), versions: 'entities@1' };
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

const chunk = { record: 'chunk', id: 'c1', itemId: 'i1', ordinal: 0, text: 'The crane.', headingPath: ['Cranes'], location: { kind: 'lines', start: 1, end: 3 }, wordCount: 2 };
const item = {
  record: 'item', id: 'i1', path: 'dock/handover.md', title: null, status: 'indexed', reason: null, duplicateOf: null, contentHash: 'a'.repeat(64),
  size: 10, version: 1, parserVersion: 'markdown@1', flags: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', deletedAt: null, forgottenAt: null,
};
const vector = { record: 'vector', itemId: 'i1', chunkId: 'c1', window: 0, start: 0, end: 10, modelId: 'm', vector: encodeVector(new Float32Array([0.5, -0.5])), createdAt: '2026-01-01T00:00:00.000Z' };

test('only own fields count: constructor, toString and __proto__ are fields the format does not define', () => {
  for (const name of ['constructor', 'toString', 'hasOwnProperty']) {
    assert.throws(() => checkRecord({ ...phrase, [name]: 1 }, 'phrase'), new RegExp(`field ${name} is not part of relata-export/1 phrase records`));
  }
  assert.throws(() => checkRecord(JSON.parse(`{"record":"phrase","itemId":"i1","key":"k","phrase":"p","count":1,"__proto__":{"count":2}}`), 'phrase'), /field __proto__ is not part of/);
  // A field the record lacks is not found on Object.prototype either.
  assert.throws(() => checkRecord({ ...item, toString: undefined, status: undefined }, 'item'), /field status is missing/);
});

test('a passage location must have its kind and its range; statuses, kinds and types must be the store\'s own', () => {
  assert.ok(checkRecord(chunk, 'chunk'));
  assert.throws(() => checkRecord({ ...chunk, location: {} }, 'chunk'), /field location\.kind/);
  assert.throws(() => checkRecord({ ...chunk, location: { kind: 'lines', start: 1 } }, 'chunk'), /field location\.end is missing/);
  assert.throws(() => checkRecord({ ...chunk, location: { kind: 'lines', start: 5, end: 2 } }, 'chunk'), /ends before it starts/);
  assert.ok(checkRecord({ ...chunk, location: { kind: 'rows', sheet: 'Costs', start: 2, end: 40 } }, 'chunk'), 'a spreadsheet passage: its sheet and rows');
  assert.throws(() => checkRecord({ ...chunk, location: { kind: 'rows', start: 2, end: 40 } }, 'chunk'), /names a sheet exactly when it counts rows/);
  assert.throws(() => checkRecord({ ...chunk, location: { kind: 'lines', sheet: 'Costs', start: 2, end: 4 } }, 'chunk'), /names a sheet exactly when it counts rows/);
  assert.throws(() => checkRecord({ ...chunk, location: { kind: 'rows', sheet: 'x'.repeat(5000), start: 2, end: 4 } }, 'chunk'), /location\.sheet/);
  assert.throws(() => checkRecord({ ...item, status: 'pwned' }, 'item'), /field status is not one of pending, indexed, failed, skipped, duplicate, deleted/);
  assert.throws(() => checkRecord({ ...item, flags: ['root'] }, 'item'), /field flags\.0 is not one of/);
  const claim = { record: 'claim', itemId: 'i1', chunkId: 'c1', kind: 'bribe', subject: 's', attribute: 'cost', value: 1, unit: 'EUR', text: 't', start: 0, end: 1, entityKeys: [], producer: 'deterministic', extractorVersion: 'claims@1' };
  assert.throws(() => checkRecord(claim, 'claim'), /field kind is not one of money, quantity, percentage, event_date, direction/);
  assert.throws(() => checkRecord({ ...claim, kind: 'money', producer: 'oracle' }, 'claim'), /field producer is not one of deterministic, model/);
  const event = { record: 'relationship_event', relationshipId: 'r1', at: 'now', kind: 'hacked', actor: 'a', type: 'mentions', score: 0.5, scoreVersion: 'v1', signals: [], note: null };
  assert.throws(() => checkRecord(event, 'relationship_event'), /field kind is not one of proposed, updated, confirmed, rejected, returned_to_review, evidence_changed/);
  assert.throws(() => checkRecord({ ...event, kind: 'proposed', type: 'owns' }, 'relationship_event'), /field type is not one of/);
  assert.throws(() => checkRecord({ ...event, kind: 'proposed', signals: [{ type: 'shared_entity', value: 'x' }] }, 'relationship_event'), /field signals\.0\.strength is missing/);
  const alias = { record: 'alias', id: 'a1', a: { key: 'person:a', surface: 'A' }, b: { key: 'person:b', surface: 'B' }, reason: 'r', status: 'maybe', created_at: 'now', decided_by: null, decided_at: null, note: null };
  assert.throws(() => checkRecord(alias, 'alias'), /field status is not one of pending, confirmed, rejected/);
});

test('versions, offsets, sizes and counts are whole numbers in range', () => {
  assert.throws(() => checkRecord({ ...item, version: -1 }, 'item'), /field version is below 0/);
  assert.ok(checkRecord({ ...item, version: 0, status: 'skipped' }, 'item'), 'an item never read has version 0');
  assert.throws(() => checkRecord({ record: 'item_version', itemId: 'i1', version: 0, contentHash: 'a'.repeat(64), size: 1, createdAt: 'now' }, 'item_version'), /field version is below 1/);
  assert.throws(() => checkRecord({ ...item, size: -5 }, 'item'), /field size is below 0/);
  assert.throws(() => checkRecord({ ...chunk, ordinal: -1 }, 'chunk'), /field ordinal is below 0/);
  assert.throws(() => checkRecord({ ...vector, start: 5, end: 2 }, 'vector'), /ends before it starts/);
  assert.throws(() => checkRecord({ ...phrase, count: -3 }, 'phrase'), /field count is below 0/);
  assert.throws(() => checkRecord({ record: 'embedding_model', id: 'm', dims: 0, version: '1', maxTokens: 128, firstUsedAt: 'now' }, 'embedding_model'), /field dims is below 1/);
});

test('a vector holds finite numbers only', () => {
  assert.ok(checkRecord(vector, 'vector'));
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    assert.throws(() => checkRecord({ ...vector, vector: encodeVector(new Float32Array([0.5, bad])) }, 'vector'), /field vector holds a value that is not a finite number/);
  }
});

test('an item path is a relative path inside the folder', () => {
  assert.ok(checkRecord({ ...item, path: '..notes/a.md' }, 'item'), 'a name that begins with two dots is an ordinary name');
  for (const bad of ['../x.md', 'a/../../x.md', '/etc/passwd', 'a\\..\\..\\x.md', 'C:\\x.md', 'C:x.md', '\\\\server\\share\\x.md', 'a\u0000.md', '']) {
    assert.throws(() => checkRecord({ ...item, path: bad }, 'item'), /field path /, JSON.stringify(bad));
  }
});

test('a refused record\'s message names fields, never the values it refused', () => {
  const secret = 'root:x:0:0:root:/root:/bin/bash';
  for (const record of [{ ...item, status: secret }, { ...item, path: `../${secret}` }, { ...chunk, location: secret }, { ...phrase, [secret]: 1 }]) {
    assert.throws(() => checkRecord(record, record.record as 'item'), (error: Error) => !error.message.includes('root:x'));
  }
});

test('a parsed document may carry its links; links not shaped or capped as a parser writes them are refused', () => {
  const parsed = (links: unknown) => ({
    record: 'parsed_text',
    itemId: 'i1',
    contentHash: 'a'.repeat(64),
    parserVersion: 'markdown@4',
    document: { title: null, blocks: [], structure: { headings: [], tables: [] }, flags: [], ...(links === undefined ? {} : { links }) },
  });
  const link = { target: '../b/', text: 'the build guide', kind: 'inline', location: { kind: 'lines', start: 12, end: 12 } };
  assert.doesNotThrow(() => checkRecord(parsed(undefined), 'parsed_text'), 'a document from before links');
  assert.doesNotThrow(() => checkRecord(parsed([link]), 'parsed_text'));
  assert.doesNotThrow(() => checkRecord(parsed([{ ...link, kind: 'hyperlink', location: { kind: 'rows', sheet: 'Costs', start: 7, end: 7 } }]), 'parsed_text'), 'a link in a spreadsheet row');
  assert.throws(() => checkRecord(parsed([{ ...link, location: { kind: 'rows', start: 7, end: 7 } }]), 'parsed_text'), /document\.links\[0\] is not a link/);
  assert.throws(() => checkRecord(parsed('b.md'), 'parsed_text'), /document\.links is not array/);
  assert.throws(() => checkRecord(parsed([{ ...link, kind: 'teleport' }]), 'parsed_text'), /document\.links\[0\] is not a link/);
  assert.throws(() => checkRecord(parsed([{ ...link, target: 'x'.repeat(5000) }]), 'parsed_text'), /document\.links\[0\]/);
  assert.throws(() => checkRecord(parsed(Array.from({ length: 5000 }, () => link)), 'parsed_text'), /more than 1000/);
});

test("an extraction's passage languages are language codes by passage, and a record of more than any item holds is refused", () => {
  const extraction = { record: 'extraction', itemId: 'i1', contentHash: 'a'.repeat(64), versions: 'entities@5', language: 'en', passageLanguages: { c7: 'de', c8: 'ja' } };
  assert.deepEqual(checkRecord(extraction, 'extraction'), extraction);
  assert.throws(() => checkRecord({ ...extraction, passageLanguages: { c7: '<script>' } }, 'extraction'), (error: Error) => /passageLanguages/.test(error.message) && !error.message.includes('<script>'));
  assert.throws(() => checkRecord({ ...extraction, passageLanguages: ['de'] }, 'extraction'), /passageLanguages/);
  const flood = Object.fromEntries(Array.from({ length: 100_001 }, (_, n) => [`c${n}`, 'de']));
  assert.throws(() => checkRecord({ ...extraction, passageLanguages: flood }, 'extraction'), /passageLanguages/);
});
