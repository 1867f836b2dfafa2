import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findPeople } from '../../server/src/extract/entities/people.ts';

function people(text: string): [string, string][] {
  return findPeople(text).map((p) => [p.surface, p.key]);
}

test('honorific and one to three name words; the key drops the honorific', () => {
  assert.deepEqual(people('Dr. Amara Osei met Ms Amara Osei, then Prof. Lin and Mr. John F. Kennedy.'), [
    ['Dr. Amara Osei', 'person:amara osei'],
    ['Ms Amara Osei', 'person:amara osei'],
    ['Prof. Lin', 'person:lin'],
    ['Mr. John F. Kennedy', 'person:john f kennedy'],
  ]);
});

test('every honorific of the list', () => {
  for (const h of ['Mr.', 'Mrs.', 'Ms.', 'Miss', 'Dr.', 'Prof.', 'Sir', 'Dame', 'Lord', 'Lady', 'Mx.']) {
    assert.deepEqual(people(`Signed by ${h} Jordan Hale today.`), [[`${h} Jordan Hale`, 'person:jordan hale']], h);
  }
  assert.deepEqual(people('Rev. Amara Osei'), [['Rev. Amara Osei', 'person:amara osei']]);
});

test('upper-case names in signature blocks', () => {
  assert.deepEqual(people('Name: MR. SEI-PENG TU\nTitle: President'), [['MR. SEI-PENG TU', 'person:sei-peng tu']]);
});

test('stacked titles, particles and a possessive', () => {
  assert.deepEqual(people("Rev. Dr. Amara Osei read Dr. Ludwig van Beethoven's letter."), [
    ['Rev. Dr. Amara Osei', 'person:amara osei'],
    ['Dr. Ludwig van Beethoven', 'person:ludwig van beethoven'],
  ]);
});

test('the name ends at a signature-block label or title', () => {
  assert.deepEqual(people('Print Name: Dr. Wendy Graham Print Name: Albert'), [['Dr. Wendy Graham', 'person:wendy graham']]);
  assert.deepEqual(people('Attn: Mr. Wei Li Fax: 86-0755'), [['Mr. Wei Li', 'person:wei li']]);
});

test('brand characters are not people (a documented stop-list)', () => {
  assert.deepEqual(people('We stock Mr. Clean, Mr. Softee ice cream, Dr. Pepper and Dr Pepper.'), []);
});

test('a trademark sign after the name marks a brand', () => {
  assert.deepEqual(people('Try Mr. Fresh™ today'), []);
});

test('"Dr." after a street name and a house number is Drive', () => {
  assert.deepEqual(people('Send it to 12 Harbour Dr. Springfield, IL 62701.'), []);
  assert.deepEqual(people('Visit 4500 Ocean View Dr Springfield'), []);
  // A doctor after a capitalised word without a house number is still a doctor.
  assert.deepEqual(people('Contact Dr. Osei tomorrow.'), [['Dr. Osei', 'person:osei']]);
});

test('hard negatives: abbreviations that look like honorifics', () => {
  assert.deepEqual(people('Open it in MS Word or MS Excel.'), []);
  assert.deepEqual(people('See Wash. Rev. Code 19.100.180 and Rev. B of the drawing.'), []);
  assert.deepEqual(people('Stanley House, Lord Street, Douglas'), []);
  assert.deepEqual(people('Dear Sir or Madam,'), []);
  assert.deepEqual(people('we must not miss Deadlines'), []);
});
