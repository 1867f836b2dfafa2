// The document side of the MongoDB + Qdrant store, as documents and back (mongoQdrant/documents.ts):
// every record survives the round trip, and where the SQLite store is the reference (an entity
// without a value, a claim's value, a parsed document's joined text, the item-level lexical text)
// both give the same record. These are pure mappings; what a server stores is for the contract suite.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChunkRecord, ItemRecord, ItemVersionRecord, StoredClaim, StoredEntity } from '../../server/src/store/contract.ts';
import {
  chunkDocument,
  claimDocument,
  entityDocument,
  itemDocument,
  itemIndexText,
  loadParsedDocument,
  parsedTextStreams,
  phraseDocument,
  splitText,
  toChunkRecord,
  toItemRecord,
  toPhraseCount,
  toStoredClaim,
  toStoredEntity,
  toVersionRecords,
} from '../../server/src/store/mongoQdrant/documents.ts';
import { toClaim, toEntity } from '../../server/src/store/sqlite/rows.ts';
import { ITEM_INDEX_MAX_CHARS, loadedDocument, storedDocument } from '../../server/src/store/sqlite/itemText.ts';
import type { ParsedDocument } from '../../server/src/parse/types.ts';
import { withJoinedText } from '../../server/src/parse/document.ts';

const item: ItemRecord = {
  id: 'item-1',
  path: 'reports/crane.md',
  title: 'Crane refurbishment',
  status: 'indexed',
  reason: null,
  duplicateOf: null,
  contentHash: 'a'.repeat(64),
  size: 1234,
  version: 2,
  parserVersion: 'markdown@3',
  flags: ['hidden_text'],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  deletedAt: null,
  forgottenAt: null,
};

const versions: ItemVersionRecord[] = [
  { version: 2, contentHash: 'a'.repeat(64), size: 1234, createdAt: '2026-01-02T00:00:00.000Z' },
  { version: 1, contentHash: 'b'.repeat(64), size: 1000, createdAt: '2026-01-01T00:00:00.000Z' },
];

test('an item and its versions survive the round trip; versions come back oldest first', () => {
  const document = itemDocument(item, versions);
  assert.deepEqual(toItemRecord(document), item);
  assert.deepEqual(toVersionRecords(document), [versions[1], versions[0]]);
});

test('an item document is live exactly when the item has no deletedAt (the unique live-path index relies on it)', () => {
  assert.equal(itemDocument(item).live, true);
  assert.equal(itemDocument({ ...item, status: 'deleted', deletedAt: '2026-02-01T00:00:00.000Z' }).live, false);
});

test('a new item document carries no ingest follow-up and starts at revision 0', () => {
  const document = itemDocument(item);
  assert.equal(document.followUp, null);
  assert.equal(document.rev, 0);
});

test('the record read back is a copy: changing its flags does not change the document', () => {
  const document = itemDocument(item);
  toItemRecord(document).flags.push('truncated');
  assert.deepEqual(document.flags, ['hidden_text']);
});

test('a chunk survives the round trip and its document names the bytes it was cut from', () => {
  const chunk: ChunkRecord = {
    id: 'chunk-1',
    itemId: 'item-1',
    ordinal: 3,
    text: 'The gantry crane refurbishment cost 42,000 EUR.',
    headingPath: ['Costs', 'Cranes'],
    location: { kind: 'lines', start: 10, end: 12 },
    wordCount: 7,
  };
  const document = chunkDocument(chunk, item.contentHash!);
  assert.equal(document.contentHash, item.contentHash);
  assert.deepEqual(toChunkRecord(document), chunk);
});

const entity: Omit<StoredEntity, 'itemId'> = {
  chunkId: 'chunk-1',
  type: 'organisation',
  surface: 'EXAMPLE LIMITED',
  key: 'organisation:example ltd',
  start: 4,
  end: 19,
  producer: 'deterministic',
  extractorVersion: 'entities@1',
};

test('an entity without a value comes back without a `value` key, as the SQLite store gives it', () => {
  const record = toStoredEntity(entityDocument('item-1', entity));
  assert.deepEqual(record, { itemId: 'item-1', ...entity });
  assert.equal(Object.hasOwn(record, 'value'), false);
  const sqlite = toEntity({
    item_id: 'item-1',
    chunk_id: entity.chunkId,
    type: entity.type,
    surface: entity.surface,
    key: entity.key,
    value: null,
    char_start: entity.start,
    char_end: entity.end,
    producer: entity.producer,
    extractor_version: entity.extractorVersion,
  });
  assert.deepEqual(record, sqlite);
});

test('a date entity keeps its value', () => {
  const date = { ...entity, type: 'date' as const, surface: '3 March 2025', key: 'date:2025-03-03', value: '2025-03-03' };
  assert.deepEqual(toStoredEntity(entityDocument('item-1', date)), { itemId: 'item-1', ...date });
});

test('a claim survives the round trip with a number or a string value, as the SQLite store gives it', () => {
  const money: Omit<StoredClaim, 'itemId'> = {
    chunkId: 'chunk-1',
    kind: 'money',
    subject: 'gantry crane refurbishment',
    attribute: 'cost',
    value: 42000,
    unit: 'EUR',
    text: 'The gantry crane refurbishment cost 42,000 EUR.',
    start: 0,
    end: 47,
    entityKeys: ['organisation:example ltd'],
    producer: 'deterministic',
    extractorVersion: 'claims@1',
  };
  const dated = { ...money, kind: 'event_date' as const, attribute: 'completion date', value: '2025-03-03', unit: null };
  for (const claim of [money, dated]) {
    const record = toStoredClaim(claimDocument('item-1', claim));
    assert.deepEqual(record, { itemId: 'item-1', ...claim });
    const sqlite = toClaim({
      item_id: 'item-1',
      chunk_id: claim.chunkId,
      kind: claim.kind,
      subject: claim.subject,
      attribute: claim.attribute,
      value: JSON.stringify(claim.value),
      unit: claim.unit,
      text: claim.text,
      char_start: claim.start,
      char_end: claim.end,
      entity_keys: JSON.stringify(claim.entityKeys),
      producer: claim.producer,
      extractor_version: claim.extractorVersion,
    });
    assert.deepEqual(record, sqlite);
  }
});

test('a phrase count survives the round trip', () => {
  const phrase = { key: 'gantry crane', phrase: 'Gantry cranes', count: 4 };
  assert.deepEqual(toPhraseCount(phraseDocument('item-1', phrase)), phrase);
});

// Parsed documents -------------------------------------------------------------------------------

function parsedDocument(blockTexts: readonly string[]): ParsedDocument {
  return withJoinedText({
    title: 'Crane',
    blocks: blockTexts.map((text, n) => ({ kind: 'paragraph' as const, text, headingPath: ['Crane'], location: { kind: 'lines' as const, start: n, end: n } })),
    structure: { headings: [{ level: 1, text: 'Crane', location: { kind: 'lines', start: 0, end: 0 } }, { level: 2, text: 'Costs', location: { kind: 'lines', start: 5, end: 5 } }], tables: [] },
    flags: ['hidden_text'],
    hidden: [],
    truncated: null,
  } as Omit<ParsedDocument, 'text'>);
}

test('a parsed document comes back from its stored blocks and rest as the SQLite store gives it, text joined from the blocks', () => {
  const document = parsedDocument(['First block.', 'Second block, with ünïcödé and 😀.', '']);
  const streams = parsedTextStreams(document);
  const mongo = loadParsedDocument(streams.blocks, streams.rest);
  const sqlite = loadedDocument(storedDocument(document));
  assert.deepEqual({ ...mongo, text: mongo.text }, { ...sqlite, text: sqlite.text });
  assert.equal(mongo.text, 'First block.\n\nSecond block, with ünïcödé and 😀.\n\n');
});

test('the stored rest leaves out the joined text, so a document is not kept twice', () => {
  const streams = parsedTextStreams(parsedDocument(['only block']));
  assert.equal(Object.hasOwn(JSON.parse(streams.rest) as object, 'text'), false);
  assert.equal(Object.hasOwn(JSON.parse(streams.rest) as object, 'blocks'), false);
});

test('a document imported with a text of its own keeps that text when asked to', () => {
  const own = { ...parsedDocument(['block']), text: 'an older store kept this text' };
  const streams = parsedTextStreams(own, true);
  assert.equal(loadParsedDocument(streams.blocks, streams.rest).text, 'an older store kept this text');
  assert.equal(streams.indexText, 'an older store kept this text');
});

test('the headings stream holds the heading texts in document order', () => {
  assert.deepEqual(JSON.parse(parsedTextStreams(parsedDocument(['x'])).headings), ['Crane', 'Costs']);
});

test('the item-level lexical text is the joined text cut at ITEM_INDEX_MAX_CHARS, without joining the rest', () => {
  const block = 'x'.repeat(1024 * 1024);
  const document = parsedDocument(Array.from({ length: 6 }, () => block));
  const text = itemIndexText(document);
  assert.equal(text.length, ITEM_INDEX_MAX_CHARS);
  assert.equal(text, document.text.slice(0, ITEM_INDEX_MAX_CHARS));
  const small = parsedDocument(['a', 'b']);
  assert.equal(itemIndexText(small), 'a\n\nb');
});

test('a long text cut into parts joins back exactly, never split inside a surrogate pair', () => {
  const text = 'ab😀cd😀😀e'.repeat(1000);
  for (const size of [2, 3, 4, 7, 1000]) {
    const parts = splitText(text, size);
    assert.equal(parts.join(''), text, `size ${size}`);
    for (const part of parts) {
      assert.ok(part.length <= size, `a part of at most ${size} code units`);
      assert.doesNotMatch(part, /^[\udc00-\udfff]|[\ud800-\udbff]$/, 'no part starts or ends with half a pair');
    }
  }
  assert.deepEqual(splitText(''), []);
  assert.throws(() => splitText('abc', 1), /at least 2 code units/);
});
