import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normaliseOrganisation } from '../../server/src/extract/entities/legalSuffixes.ts';
import { findOrganisations } from '../../server/src/extract/entities/organisations.ts';

/** [surface, key] of every organisation found, in order. */
function orgs(text: string): [string, string][] {
  return findOrganisations(text).map((o) => [o.surface, o.key]);
}

function surfaces(text: string): string[] {
  return findOrganisations(text).map((o) => o.surface);
}

describe('one key for every spelling of a registered name', () => {
  test('case, full stop and spelled-out legal form share a key', () => {
    const text = 'Signed by Example Ltd and by EXAMPLE LIMITED. Later Example Ltd. wrote to Example Limited about it.';
    assert.deepEqual(orgs(text), [
      ['Example Ltd', 'organisation:example ltd'],
      ['EXAMPLE LIMITED', 'organisation:example ltd'],
      ['Example Ltd.', 'organisation:example ltd'],
      ['Example Limited', 'organisation:example ltd'],
    ]);
  });

  test('legal-form families', () => {
    const cases: [string, string][] = [
      ['Acme Incorporated', 'organisation:acme inc'],
      ['Acme Corporation', 'organisation:acme corp'],
      ['Acme L.L.C.', 'organisation:acme llc'],
      ['Acme Public Limited Company', 'organisation:acme plc'],
      ['Acme Pty Ltd', 'organisation:acme pty ltd'],
      ['Acme Holdings GmbH', 'organisation:acme holdings gmbh'],
      ['Acme S.p.A.', 'organisation:acme spa'],
      ['Acme B.V.', 'organisation:acme bv'],
      ['Acme Limited Partnership', 'organisation:acme lp'],
    ];
    for (const [name, key] of cases) {
      assert.equal(normaliseOrganisation(name), key, name);
      assert.deepEqual(orgs(`We met ${name} today.`), [[name, key]], name);
    }
  });

  test('a comma before the legal form, and a chain of forms, read as one name', () => {
    assert.deepEqual(orgs('between Acme, Inc., a Delaware corporation, and Dong-A ST Co., Ltd. ("Dong-A")'), [
      ['Acme, Inc.', 'organisation:acme inc'],
      ['Dong-A ST Co., Ltd.', 'organisation:dong a st co ltd'],
    ]);
  });

  test('"The" opens a name but is not part of its key', () => {
    assert.deepEqual(orgs('a licence from The Quantum Group Inc. to us'), [['The Quantum Group Inc.', 'organisation:quantum group inc']]);
    assert.equal(normaliseOrganisation('Quantum Group Inc'), 'organisation:quantum group inc');
  });

  test('names with &, of, digits, hyphens, parenthesised places and camel case', () => {
    assert.deepEqual(surfaces('by Procter & Gamble Co. and Bank of America Corporation and 3M Company'), [
      'Procter & Gamble Co.',
      'Bank of America Corporation',
      '3M Company',
    ]);
    assert.deepEqual(surfaces('with Bunker One (USA) Inc. and iMine Corporation and I-ESCROW, INC., with offices'), [
      'Bunker One (USA) Inc.',
      'iMine Corporation',
      'I-ESCROW, INC.',
    ]);
  });
});

describe('ALL-CAPS contract headers', () => {
  test('parties in capitals under a title', () => {
    const text = 'MARKETING AFFILIATE AGREEMENT\n\nBIRCH FIRST GLOBAL INVESTMENTS INC.\n\nand\n\nMOUNT KNOWLEDGE HOLDINGS INC.';
    assert.deepEqual(orgs(text), [
      ['BIRCH FIRST GLOBAL INVESTMENTS INC.', 'organisation:birch first global investments inc'],
      ['MOUNT KNOWLEDGE HOLDINGS INC.', 'organisation:mount knowledge holdings inc'],
    ]);
  });

  test('a title on the line above is not swallowed', () => {
    assert.deepEqual(surfaces('SUPPLY AGREEMENT\nBIRCH FIRST GLOBAL INVESTMENTS INC. agrees'), ['BIRCH FIRST GLOBAL INVESTMENTS INC.']);
  });

  test('a label before an upper-case name is not part of it', () => {
    assert.deepEqual(surfaces('Authorized Signatory SCULPTOR MASTER FUND LTD'), ['SCULPTOR MASTER FUND LTD']);
  });

  test('an all-caps disclaimer is not an organisation', () => {
    assert.deepEqual(surfaces('INCLUDING BUT NOT LIMITED TO THE COMPANY OR ITS AFFILIATES.'), []);
  });
});

describe('line breaks', () => {
  test('"Ltd" on the next line still belongs to the name', () => {
    assert.deepEqual(orgs('We wrote to Example\nLtd last week.'), [['Example\nLtd', 'organisation:example ltd']]);
  });

  test('a name wrapped inside a sentence is read whole', () => {
    assert.deepEqual(surfaces('The agreement with Northern\nWidget Holdings Ltd was renewed.'), ['Northern\nWidget Holdings Ltd']);
  });

  test('a heading line above the name is not part of it', () => {
    assert.deepEqual(surfaces('PARTIES\nAcme Holdings Ltd is the supplier.'), ['Acme Holdings Ltd']);
    assert.deepEqual(surfaces('Schedule 1\nAcme Holdings Ltd'), ['Acme Holdings Ltd']);
  });

  test('a preceding sentence is not part of the name', () => {
    assert.deepEqual(surfaces('This was agreed. Acme Holdings Ltd shall pay.'), ['Acme Holdings Ltd']);
  });

  test('a blank line ends the name', () => {
    assert.deepEqual(surfaces('Example\n\nLtd'), []);
  });
});

describe('hard negatives', () => {
  test('a legal-form word in ordinary text', () => {
    assert.deepEqual(surfaces('As the AG said in court, the co. abbreviation is common.'), []);
    assert.deepEqual(surfaces('the Company shall pay; each Company may; any Group Company'), []);
  });

  test('lower-case words before a legal form', () => {
    assert.deepEqual(surfaces('the acme ltd brand and a delaware corporation'), []);
  });

  test('"Inc." opening a sentence has no name before it', () => {
    assert.deepEqual(surfaces('It was founded long ago. Inc. magazine wrote about it.'), []);
  });

  test('a description after "a" or "an" is not a name', () => {
    assert.deepEqual(surfaces('XYZ, a Delaware Corporation, and an Ontario Corporation'), []);
  });

  test('roles defined by the contract', () => {
    assert.deepEqual(surfaces('merged into the Surviving Corporation, which became the Operating Company'), []);
    assert.deepEqual(surfaces('registered under the Investment Company Act of 1940'), []);
  });

  test('addresses and section numbers', () => {
    assert.deepEqual(surfaces('Calgary, AB T2P 1J9 and Las Vegas, NV 89108'), []);
    assert.deepEqual(surfaces('9.2 Limited Warranty'), []);
  });

  test('two parties joined by "and" stay two', () => {
    assert.deepEqual(surfaces('WHEREAS, Liquidmetal and DongGuan Eontec Co., Ltd. agree'), ['DongGuan Eontec Co., Ltd.']);
    assert.deepEqual(surfaces('New York, NY 10016 and VNUE, Inc.'), ['VNUE, Inc.']);
  });

  test('"and" inside a longer name is kept', () => {
    assert.deepEqual(surfaces('issued by Athene Annuity and Life Company to'), ['Athene Annuity and Life Company']);
  });

  test('a person before "of" is not part of the company', () => {
    assert.deepEqual(surfaces('Mr. John Smith of Acme Ltd called.'), ['Acme Ltd']);
  });
});

describe('capitals at the start of a sentence', () => {
  test('an opening adverb or imperative is not part of the name', () => {
    assert.deepEqual(surfaces('It rained. Later Example Ltd. wrote back.'), ['Example Ltd.']);
    assert.deepEqual(surfaces('3. Ask Example Ltd to quote for crane GC-1.'), ['Example Ltd']);
    assert.deepEqual(surfaces('| 3 | Ask Example Ltd for a written account |'), ['Example Ltd']);
  });

  test('a one-word name is kept even when the word is also a verb', () => {
    assert.deepEqual(surfaces('Target Corporation reported.'), ['Target Corporation']);
  });
});
