import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDates } from '../../server/src/extract/entities/dates.ts';

test('a leading preposition chrono folds into its match is not part of the surface or start', () => {
  for (const text of ['Signed on 16 May 2025.', 'Signed On 16 May 2025.', 'Signed on 16th May 2025.']) {
    const dates = findDates(text);
    assert.equal(dates.length, 1, text);
    const [date] = dates;
    assert.equal(date!.surface, text.slice(10, -1), text);
    assert.equal(date!.surface.toLowerCase().startsWith('on'), false, text);
    assert.equal(text.slice(date!.start, date!.end), date!.surface, text);
    assert.equal(date!.start, 10, text);
    assert.equal(date!.value, '2025-05-16', text);
    assert.equal(date!.key, 'date:2025-05-16', text);
  }
});

test('dates after other prepositions cover the date words alone', () => {
  const text = 'Due by May 8, 2014, in force from 2014-05-08 until 5/8/15 and since March 2019, as of 16 May 2025.';
  assert.deepEqual(
    findDates(text).map((d) => [d.surface, d.value, text.slice(d.start, d.end)]),
    [
      ['May 8, 2014', '2014-05-08', 'May 8, 2014'],
      ['2014-05-08', '2014-05-08', '2014-05-08'],
      ['5/8/15', '2015-05-08', '5/8/15'],
      ['March 2019', '2019-03', 'March 2019'],
      ['16 May 2025', '2025-05-16', '16 May 2025'],
    ],
  );
});

function values(text: string): [string, string][] {
  return findDates(text).map((d) => [d.surface, d.value!]);
}

test('written forms: US, day-first, ISO, legal "day of", ordinals in words, split ordinals', () => {
  assert.deepEqual(
    values(
      'dated May 8, 2014; 8 May 2014; 2014-05-08; 5/8/14; 29/3/18; the 8th day of May, 2014; ' +
        'the first day of July, 2017; this twenty-first day of March 2020; the 20t h day of November, 2018; November 19t h, 2012.',
    ),
    [
      ['May 8, 2014', '2014-05-08'],
      ['8 May 2014', '2014-05-08'],
      ['2014-05-08', '2014-05-08'],
      ['5/8/14', '2014-05-08'],
      ['29/3/18', '2018-03-29'],
      ['8th day of May, 2014', '2014-05-08'],
      ['first day of July, 2017', '2017-07-01'],
      ['twenty-first day of March 2020', '2020-03-21'],
      ['20t h day of November, 2018', '2018-11-20'],
      ['November 19t h, 2012', '2012-11-19'],
    ],
  );
});

test('a month and year give YYYY-MM, also with the day left blank in a template', () => {
  assert.deepEqual(values('effective March 2019 and signed September ___, 2019'), [
    ['March 2019', '2019-03'],
    ['September ___, 2019', '2019-09'],
  ]);
});

test('relative dates and dates without a year are skipped: a document has no known today', () => {
  assert.deepEqual(values('tomorrow, next Friday, within 30 days, 3 days later, on Monday, by May 8, in two weeks'), []);
});

test('a year alone is not a date', () => {
  assert.deepEqual(values('in 2025 we sold 2014 units'), []);
});

test('version, section and clause numbers are not dates', () => {
  assert.deepEqual(values('v1.2.3, version 2.10.3, v1.2.2019, Section 3.1.2, Section 12.5.2019, clause 4.1.2020, 10.2.12 all staff'), []);
});

test('ratios and bare numbers are not dates', () => {
  assert.deepEqual(values('a ratio of 12/20 and 3/4 of the cost; 42 and 2019.5'), []);
});

test('two dates side by side stay two dates', () => {
  assert.deepEqual(values('Date 4/24/2018 04/25/2018 Date'), [
    ['4/24/2018', '2018-04-24'],
    ['04/25/2018', '2018-04-25'],
  ]);
  assert.deepEqual(values('from May 1, 2020 to June 3, 2020'), [
    ['May 1, 2020', '2020-05-01'],
    ['June 3, 2020', '2020-06-03'],
  ]);
});

test('"BE" after a date is not read as the Buddhist Era', () => {
  assert.deepEqual(values('granted June 18, 2024 BE 2549871 Belgium'), [['June 18, 2024', '2024-06-18']]);
});
