import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENTITY_EXTRACTOR_VERSION, extractEntities } from '../../server/src/extract/entities/index.ts';

test('results are sorted by start, labelled deterministic and versioned', () => {
  const text = 'On 16 May 2025 Dr. Amara Osei (amara@example.com) signed for Example Ltd.';
  const entities = extractEntities(text);
  assert.deepEqual(
    entities.map((e) => [e.type, e.surface, e.key]),
    [
      ['date', '16 May 2025', 'date:2025-05-16'],
      ['person', 'Dr. Amara Osei', 'person:amara osei'],
      ['email', 'amara@example.com', 'email:amara@example.com'],
      ['organisation', 'Example Ltd.', 'organisation:example ltd'],
    ],
  );
  assert.equal(ENTITY_EXTRACTOR_VERSION, 'entities@5');
  for (const e of entities) {
    assert.equal(e.producer, 'deterministic');
    assert.equal(e.extractorVersion, ENTITY_EXTRACTOR_VERSION);
    assert.equal(text.slice(e.start, e.end), e.surface);
  }
});

test('an email address is not also an organisation or a person', () => {
  const entities = extractEntities('Mail JANE@ACME-HOLDINGS.CO.UK or Acme.Co.Ltd@example.com now.');
  assert.deepEqual(entities.map((e) => e.type), ['email', 'email']);
});

test('an organisation named after a person is an organisation', () => {
  const entities = extractEntities("Supplied by Dr. Reddy's Laboratories Ltd. in India.");
  assert.deepEqual(entities.map((e) => [e.type, e.surface]), [['organisation', "Reddy's Laboratories Ltd."]]);
});

test('results never overlap', () => {
  const text = 'MR. JOHN SMITH of SMITH HOLDINGS LIMITED, Dr. Osei of Osei Partners LLP, 8 May 2014, a@b.co';
  const entities = extractEntities(text);
  for (let i = 1; i < entities.length; i++) assert.ok(entities[i - 1]!.end <= entities[i]!.start, JSON.stringify(entities));
  assert.deepEqual(entities.map((e) => e.surface), ['MR. JOHN SMITH', 'SMITH HOLDINGS LIMITED', 'Dr. Osei', 'Osei Partners LLP', '8 May 2014', 'a@b.co']);
});

test('empty text', () => {
  assert.deepEqual(extractEntities(''), []);
});
