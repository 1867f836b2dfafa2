// Claims: figures and event dates about a subject, normalised, and the numbers that must not
// become claims (versions, phones, references, years, identifiers, bare numbers).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLAIM_EXTRACTOR_VERSION, extractClaims } from '../../server/src/extract/claims/index.ts';
import type { Claim } from '../../server/src/extract/types.ts';

const REFURBISHMENT = 'gantry crane gc2 refurbishment';

/** The claims as [kind, subject, attribute, value, unit] rows, for compact assertions. */
const rows = (claims: Claim[]) => claims.map((c) => [c.kind, c.subject, c.attribute, c.value, c.unit]);
const one = (text: string, context?: Parameters<typeof extractClaims>[1]) => {
  const claims = extractClaims(text, context);
  assert.equal(claims.length, 1, `one claim in ${JSON.stringify(text)}, got ${JSON.stringify(rows(claims))}`);
  return claims[0]!;
};

test('money in every common spelling normalises to one value and an ISO currency', () => {
  const cases: [string, number, string][] = [
    ['EUR 42,000', 42000, 'EUR'],
    ['€42,000', 42000, 'EUR'],
    ['42,000 euros', 42000, 'EUR'],
    ['€42k', 42000, 'EUR'],
    ['42 000 EUR', 42000, 'EUR'],
    ['EUR 42.000', 42000, 'EUR'],
    ['EUR 42,000.00', 42000, 'EUR'],
    ['USD 1.2m', 1200000, 'USD'],
    ['USD 1.2 million', 1200000, 'USD'],
    ['$3,500', 3500, 'USD'],
    ['£1,250.50', 1250.5, 'GBP'],
    ['GBP 2bn', 2e9, 'GBP'],
  ];
  for (const [written, value, unit] of cases) {
    const claim = one(`The refurbishment of gantry crane GC-2 cost ${written}.`);
    assert.deepEqual(rows([claim])[0], ['money', REFURBISHMENT, 'cost', value, unit], written);
  }
});

test('cue words name the attribute; a figure without one gets its kind default', () => {
  const title = { title: 'Gantry crane GC-2 refurbishment: completion report' };
  assert.equal(one('The approved budget was EUR 45,000.', title).attribute, 'budget');
  assert.equal(one('Example Ltd invoiced EUR 42,000 for the refurbishment.').attribute, 'cost');
  assert.equal(one('We paid $3,500 for the new pumps.').subject, 'pump');
  assert.equal(one('Example Ltd quoted EUR 40,000 for the refurbishment.').attribute, 'quote');
  assert.equal(one('The estimated cost of the refurbishment is EUR 40,000.').attribute, 'estimated cost');
  assert.deepEqual(rows([one('The refurbishment came in EUR 6,500 over budget.')])[0], ['money', 'refurbishment', 'budget variance', 6500, 'EUR']);
  assert.equal(one('Labour is charged at EUR 85 per hour for the hoist overhaul.').attribute, 'cost per hour');
  assert.equal(one('The hoist overhaul came to EUR 11,200.').attribute, 'amount');
});

test('quantities convert to one canonical unit per dimension', () => {
  assert.deepEqual(rows([one('The new hoist weighs 12 t.')])[0], ['quantity', 'hoist', 'weight', 12000, 'kg']);
  assert.deepEqual(rows([one('The hoist weighs 3.5 tonnes.')])[0], ['quantity', 'hoist', 'weight', 3500, 'kg']);
  assert.deepEqual(rows([one('The hoist block weighs 40 kg.')])[0], ['quantity', 'hoist block', 'weight', 40, 'kg']);
  assert.deepEqual(rows([one("The gantry crane's weight is 12 t.")])[0], ['quantity', 'gantry crane', 'weight', 12000, 'kg']);
  assert.deepEqual(rows([one('The runway beam is 250 m long.')])[0], ['quantity', 'runway beam', 'length', 250, 'm']);
  assert.deepEqual(rows([one('The hoist overhaul took 6 hours.')])[0], ['quantity', 'hoist overhaul', 'duration', 6, 'h']);
  assert.deepEqual(rows([one('The load test took 3 days.')])[0], ['quantity', 'load test', 'duration', 72, 'h']);
  assert.deepEqual(rows([one('The installation took six weeks.')])[0], ['quantity', 'installation', 'duration', 1008, 'h']);
  // Contracts restate numbers in brackets; the digits are the figure.
  assert.deepEqual(rows([one('The hoist contract has a notice period of one hundred and twenty (120) days.')])[0]!.slice(2), ['notice period', 2880, 'h']);
  // Months and years have no fixed length, so they stay units of their own.
  assert.deepEqual(rows([one('The warranty on the hoist is 12 months.')])[0], ['quantity', 'hoist', 'warranty period', 12, 'month']);
  // A figure in front of a noun describes it.
  assert.deepEqual(rows([one('It is a 10-tonne double-girder crane.')])[0], ['quantity', 'double-girder crane', 'weight', 10000, 'kg']);
});

test('percentages, with "per cent" spelled out, need a cue to say what they measure', () => {
  assert.deepEqual(rows([one('The refurbishment came in 15% over budget.')])[0], ['percentage', 'refurbishment', 'budget variance', 15, '%']);
  assert.deepEqual(rows([one('Example Ltd offered a discount of 15 per cent on the hoist overhaul.')])[0]!.slice(2), ['discount', 15, '%']);
  assert.deepEqual(rows([one('Maintenance should add a contingency of 10% to crane works.')])[0]!.slice(2), ['contingency', 10, '%']);
  assert.deepEqual(extractClaims('The crane passed with 125%.'), []);
});

test('dates count as claims only when an event is attached to them', () => {
  const context = { title: 'Gantry crane GC-2 refurbishment: completion report', headingPath: ['Completion'] };
  assert.deepEqual(rows([one('The work was completed on 16 May 2025.', context)])[0], ['event_date', REFURBISHMENT, 'completion date', '2025-05-16', null]);
  assert.deepEqual(rows([one('The refurbishment was finished on 16 May 2025.', context)])[0]!.slice(1), [REFURBISHMENT, 'completion date', '2025-05-16', null]);
  assert.equal(one('The service contract was signed on 3 March 2024.').attribute, 'signature date');
  assert.deepEqual(rows([one('The new pumps were delivered on 2025-06-02.')])[0]!.slice(1, 4), ['pump', 'delivery date', '2025-06-02']);
  assert.equal(one('Work started on 7 April 2025.', context).attribute, 'start date');
  assert.equal(one('The upgrade will be completed on 30 June 2026.').attribute, 'planned completion date');
  assert.equal(one('The hoist overhaul was completed in May 2025.').value, '2025-05');
  // A date with no event, a deadline, a negation or an ambiguous numeric form is not a claim.
  for (const text of [
    'Date: 28 July 2025',
    'Prepared on 23 May 2025 by the maintenance manager.',
    'Procurement to reconcile the figure by 12 September 2025.',
    'The hoist overhaul was not completed on 16 May 2025.',
    'The hoist overhaul was completed on 05/06/2025.',
    'The hoist overhaul was completed in 2025.',
  ]) {
    assert.deepEqual(rows(extractClaims(text, context)), [], text);
  }
});

test('hard negatives: versions, phones, references, pages, years, identifiers and bare numbers are not figures', () => {
  const context = { title: 'Gantry crane GC-2 refurbishment: completion report' };
  for (const text of [
    'Relata 2.4.1 was released with version 3.2 of the parser.',
    'The controller runs firmware v4.12 and build 2025.05.16.',
    'Installed build 2025.05.16 on the server.',
    'The release was installed on v2025-05-16.',
    'Call +44 20 7946 0958 or 020 7946 0958, or 555-123-4567.',
    'Telephone: (0161) 496 0000.',
    'See section 4.2 and clause 12.3(b) on page 14.',
    'Page 3 of 12',
    '4.2.1 Payment terms',
    'In 2025 the crane was refurbished.',
    'The crane, installed in 2009, serves Bay 4.',
    'Purchase order PO-2025-0412 and invoice INV-EL-3391 refer to asset GC-2 and upright 4C-12.',
    'The crane has 4 wheels and 2 hoists.',
    'The stock claim is about EUR 27,400.',
    'The quote will be between EUR 40,000 and EUR 45,000.',
    'The hoist weighs 40-45 kg.',
    'Delivery takes twenty (20) to thirty (30) days.',
    'The refurbishment may cost up to EUR 50,000.',
    'At 06:42 on 14 March 2025 a reach truck struck the upright.',
  ]) {
    assert.deepEqual(rows(extractClaims(text, context)), [], text);
  }
});

test('a figure needs a subject: from the sentence, else (for money, dates, durations) the passage', () => {
  assert.deepEqual(extractClaims('It cost EUR 5,000.'), []);
  const claim = one('It cost EUR 5,000.', { title: 'Hoist overhaul: job sheet' });
  assert.equal(claim.subject, 'hoist overhaul');
  // A weight or length never takes the title's subject: the title names a project, not the object measured.
  assert.deepEqual(extractClaims('Replaced the east runway beam over its full 38-metre length.', { title: 'Hoist overhaul: job sheet' }), []);
  // Section headings are skipped; a specific heading is preferred to the title.
  assert.equal(one('It cost EUR 5,000.', { title: 'Site works 2025', headingPath: ['Site works 2025', 'Hoist overhaul', 'Cost'] }).subject, 'hoist overhaul');
  // A bare "the refurbishment" takes the fuller name the title gives the same noun.
  assert.equal(one('The refurbishment cost EUR 42,000.', { title: 'Gantry crane GC-2 refurbishment: completion report' }).subject, REFURBISHMENT);
  // "The refurbishment of gantry crane GC-2" reads as "gantry crane gc2 refurbishment".
  assert.equal(one('The refurbishment of gantry crane GC-2 by Example Ltd cost EUR 51,500.').subject, REFURBISHMENT);
});

test('table rows: a figure cell is a claim when its unit and the row label are known', () => {
  const table = [
    'Project | Supplier | Budget (EUR) | Actual (EUR) | Variance (EUR)',
    'Gantry crane GC-2 refurbishment | Example Ltd | 45,000 | 51,500 | +6,500',
    'LED lighting upgrade, Bays 4 and 5 | BrightSpan Electrical | 38,000 | 36,250 | -1,750',
    'Total |  | 83,000 | 87,750 | +4,750',
  ].join('\n\n');
  assert.deepEqual(rows(extractClaims(table, { title: 'Q2 capital budget review: Northgate Distribution Centre' })), [
    ['money', REFURBISHMENT, 'budget', 45000, 'EUR'],
    ['money', REFURBISHMENT, 'cost', 51500, 'EUR'],
    ['money', REFURBISHMENT, 'budget variance', 6500, 'EUR'],
    ['money', 'led lighting upgrade', 'budget', 38000, 'EUR'],
    ['money', 'led lighting upgrade', 'cost', 36250, 'EUR'],
    ['money', 'led lighting upgrade', 'budget variance', -1750, 'EUR'],
    ['money', 'northgate distribution centre', 'budget', 83000, 'EUR'],
    ['money', 'northgate distribution centre', 'cost', 87750, 'EUR'],
    ['money', 'northgate distribution centre', 'budget variance', 4750, 'EUR'],
  ]);
  // Rows of bare numbers, or a table whose header is not in the passage, say nothing checkable.
  assert.deepEqual(extractClaims('| 17,800 | 11,200 |\n\n| 7,400 | 2,900 |'), []);
  assert.deepEqual(extractClaims('Hoist overhaul | 11,200\n\nOverload test | 2,900'), []);
  // A cell with its own unit needs no header.
  assert.deepEqual(rows(extractClaims('Criterion | Weight | Score (1-5)\n\nQuality of work | 30% | 4')), [
    ['percentage', 'work quality', 'weighting', 30, '%'],
  ]);
});

test('claims carry their sentence, its offsets, entity keys, producer and version', () => {
  const text = 'Background\n\nThe refurbishment of gantry crane GC-2 by Example Ltd cost EUR 51,500. It was approved.';
  const [claim] = extractClaims(text);
  assert.ok(claim);
  assert.equal(claim.text, 'The refurbishment of gantry crane GC-2 by Example Ltd cost EUR 51,500.');
  assert.equal(text.slice(claim.start, claim.end), claim.text);
  assert.deepEqual(claim.entityKeys, ['identifier:gc2', 'organisation:example ltd']);
  assert.equal(claim.producer, 'deterministic');
  assert.equal(claim.extractorVersion, CLAIM_EXTRACTOR_VERSION);
  assert.equal(CLAIM_EXTRACTOR_VERSION, 'claims@3');
  // Entities passed in are used as given.
  const given = extractClaims(text, {
    entities: [{ type: 'organisation', surface: 'Example Ltd', key: 'organisation:example', start: 54, end: 65, producer: 'deterministic', extractorVersion: 'x' }],
  });
  assert.deepEqual(given[0]!.entityKeys, ['organisation:example']);
});

test('the same statement twice in a passage is one claim; extraction is deterministic', () => {
  const text = 'The hoist overhaul cost EUR 11,200.\n\nAs noted, the hoist overhaul cost EUR 11,200.';
  assert.equal(extractClaims(text).length, 1);
  assert.deepEqual(extractClaims(text), extractClaims(text));
  assert.deepEqual(extractClaims('No figures here at all.'), []);
});
