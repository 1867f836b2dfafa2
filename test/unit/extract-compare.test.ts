// The comparability rules for claims, on the demo folder's deliberate cost contradiction and on
// hand-made claims for each rule: subject matching, units and currencies, formatting-only
// differences, dates, and the item-level summary.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { chunkBlocks } from '../../server/src/chunk/chunker.ts';
import { compareClaims, compareItemClaims, sameSubject } from '../../server/src/extract/claims/compare.ts';
import { extractClaims } from '../../server/src/extract/claims/index.ts';
import type { Claim } from '../../server/src/extract/types.ts';
import { parseFile } from '../../server/src/parse/registry.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const DEMO = path.join(REPO_ROOT, 'docs', 'demo');

/** Claims of a demo file, read the way the extract stage reads them: per chunk, with title and headings. */
async function demoClaims(file: string): Promise<Claim[]> {
  const doc = await parseFile(new Uint8Array(readFileSync(path.join(DEMO, file))), file);
  return chunkBlocks(doc.blocks).flatMap((chunk) =>
    extractClaims(chunk.text, { title: doc.title ?? undefined, headingPath: chunk.headingPath }),
  );
}

const money = (claims: Claim[], value: number) =>
  claims.find((c) => c.kind === 'money' && c.attribute === 'cost' && c.value === value && c.unit === 'EUR');

/** A claim from one sentence, as extracted. */
function claimOf(text: string, context?: Parameters<typeof extractClaims>[1]): Claim {
  const claims = extractClaims(text, context);
  assert.equal(claims.length, 1, `one claim in ${JSON.stringify(text)}`);
  return claims[0]!;
}

/** A hand-made claim, for rules the extractor would not isolate so neatly. */
const claim = (fields: Partial<Claim>): Claim => ({
  kind: 'money',
  subject: 'gantry crane gc2 refurbishment',
  attribute: 'cost',
  value: 42000,
  unit: 'EUR',
  text: '',
  start: 0,
  end: 0,
  entityKeys: [],
  producer: 'deterministic',
  extractorVersion: 'claims@1',
  ...fields,
});

test('demo: the maintenance report and the finance memo contradict each other on the refurbishment cost', async () => {
  const maintenance = await demoClaims('maintenance/gantry-crane-gc2-refurbishment-report.md');
  const finance = await demoClaims('finance/q2-2025-capital-budget-review.md');
  const claimed = money(maintenance, 42000);
  const disputed = money(finance, 51500);
  assert.ok(claimed, 'the maintenance report claims EUR 42,000');
  assert.ok(disputed, 'the finance memo claims EUR 51,500');
  assert.equal(claimed.subject, 'gantry crane gc2 refurbishment');
  assert.equal(disputed.subject, 'gantry crane gc2 refurbishment');
  assert.deepEqual(compareClaims(claimed, disputed), {
    relation: 'contradicts',
    detail: 'The sources give different figures for cost: 42,000 and 51,500. Relata does not decide which is correct.',
  });

  // Item level: they agree on the budget and the completion date, and disagree on the cost.
  const findings = compareItemClaims(maintenance, finance);
  const summary = findings.map((f) => [f.relation, f.a.attribute, f.a.value, f.b.value]);
  assert.deepEqual(
    summary.filter(([, attribute]) => ['cost', 'budget', 'completion date'].includes(attribute as string)),
    [
      ['supports', 'budget', 45000, 45000],
      ['supports', 'completion date', '2025-05-16', '2025-05-16'],
      ['contradicts', 'cost', 42000, 51500],
    ],
  );
});

test('demo: the supplier review quotes both figures, so it agrees with each source rather than contradicting either', async () => {
  const maintenance = await demoClaims('maintenance/gantry-crane-gc2-refurbishment-report.md');
  const finance = await demoClaims('finance/q2-2025-capital-budget-review.md');
  const review = await demoClaims('supplier-review-example-ltd.docx');
  const costs = (findings: ReturnType<typeof compareItemClaims>) => findings.filter((f) => f.a.attribute === 'cost').map((f) => f.relation);
  assert.deepEqual(costs(compareItemClaims(review, maintenance)), ['supports']);
  assert.deepEqual(costs(compareItemClaims(review, finance)), ['supports']);
});

test('"€42k" for the same work agrees with "EUR 42,000": a difference in formatting only is agreement', () => {
  const report = claimOf('The refurbishment cost EUR 42,000 in total.', { title: 'Gantry crane GC-2 refurbishment: completion report' });
  for (const text of [
    'The refurbishment of gantry crane GC-2 cost €42k.',
    'The gantry crane GC-2 refurbishment cost 42 000 EUR.',
    'The GC-2 refurbishment cost EUR 42,000.00.',
  ]) {
    assert.deepEqual(compareClaims(report, claimOf(text)), {
      relation: 'supports',
      detail: 'Both sources give the same figure for cost: 42,000 EUR.',
    }, text);
  }
});

test('different currencies are not comparable: there is no exchange rate', () => {
  assert.equal(compareClaims(claim({ unit: 'EUR' }), claim({ unit: 'USD' })), null);
  assert.equal(compareClaims(claimOf('The refurbishment of gantry crane GC-2 cost EUR 42,000.'), claimOf('The refurbishment of gantry crane GC-2 cost $45,000.')), null);
});

test('kind and attribute must match: a budget is not a cost, a weight is not a length', () => {
  assert.equal(compareClaims(claim({ attribute: 'cost' }), claim({ attribute: 'budget', value: 45000 })), null);
  assert.equal(compareClaims(claim({ attribute: 'cost' }), claim({ attribute: 'estimated cost', value: 40000 })), null);
  assert.equal(compareClaims(claim({ kind: 'quantity', attribute: 'weight', unit: 'kg' }), claim({ kind: 'quantity', attribute: 'weight', unit: 'm' })), null);
});

test('subjects: same key, containment, or a shared head noun backed by an entity or a shared topic', () => {
  const full = claim({ subject: 'gantry crane gc2 refurbishment' });
  assert.ok(sameSubject(full, claim({ subject: 'gc2 refurbishment' })), 'containment');
  assert.ok(!sameSubject(full, claim({ subject: 'gc1 refurbishment' })), 'different identifiers never match');
  assert.ok(!sameSubject(full, claim({ subject: 'gantry crane gc1 refurbishment', entityKeys: ['organisation:example ltd'] })));

  const bare = claim({ subject: 'refurbishment' });
  assert.ok(!sameSubject(full, bare), 'a bare head alone is not enough');
  const withEntity = (subject: string) => claim({ subject, entityKeys: ['organisation:example ltd', 'date:2025-05-16'] });
  assert.ok(sameSubject(withEntity('gantry crane gc2 refurbishment'), withEntity('refurbishment')), 'head + shared entity');
  assert.ok(
    !sameSubject(claim({ subject: 'refurbishment', entityKeys: ['date:2025-05-16'] }), claim({ subject: 'gantry crane gc2 refurbishment', entityKeys: ['date:2025-05-16'] })),
    'a shared date is not a shared entity for this purpose',
  );
  assert.ok(!sameSubject(withEntity('roof refurbishment'), withEntity('crane refurbishment')), 'different modifiers name different things');
  assert.ok(
    sameSubject(full, bare, { topicsA: ['Gantry crane GC-2 refurbishment, completion report'], topicsB: ['capital budget', 'refurbishment'] }),
    'head + a topic both items share',
  );
  assert.ok(!sameSubject(full, bare, { topicsA: ['crane'], topicsB: ['refurbishment'] }));
  assert.ok(!sameSubject(claim({ subject: 'pump' }), claim({ subject: 'crane' })));
  // One word is too little to say two documents mean the same thing, unless something backs it.
  assert.ok(!sameSubject(claim({ subject: 'termination' }), claim({ subject: 'termination' })));
  assert.ok(sameSubject(withEntity('termination'), withEntity('termination')));
});

test('quantities compare in canonical units; percentages and dates compare as written', () => {
  const weighs = (text: string) => claimOf(text);
  assert.equal(compareClaims(weighs('The hoist block weighs 12 t.'), weighs('The hoist block weighs 12,000 kg.'))?.relation, 'supports');
  assert.equal(compareClaims(weighs('The hoist block weighs 3.5 tonnes.'), weighs('The hoist block weighs 3500 kg.'))?.relation, 'supports');
  assert.deepEqual(compareClaims(weighs('The hoist block weighs 12 t.'), weighs('The hoist block weighs 12.5 t.')), {
    relation: 'contradicts',
    detail: 'The sources give different figures for weight: 12,000 kg and 12,500 kg. Relata does not decide which is correct.',
  });

  const over = (text: string) => claimOf(text);
  assert.deepEqual(compareClaims(over('The roof refurbishment came in 15% over budget.'), over('The roof refurbishment came in 15 per cent over budget.')), {
    relation: 'supports',
    detail: 'Both sources give the same figure for budget variance: 15%.',
  });
  assert.equal(compareClaims(over('The roof refurbishment came in 15% over budget.'), over('The roof refurbishment came in 14.4% over budget.'))?.relation, 'contradicts');

  const done = (value: string) => claim({ kind: 'event_date', attribute: 'completion date', value, unit: null });
  assert.deepEqual(compareClaims(done('2025-05-16'), done('2025-05-16')), {
    relation: 'supports',
    detail: 'Both sources give the same date for completion date: 2025-05-16.',
  });
  assert.deepEqual(compareClaims(done('2025-05-16'), done('2025-05-19')), {
    relation: 'contradicts',
    detail: 'The sources give different dates for completion date: 2025-05-16 and 2025-05-19. Relata does not decide which is correct.',
  });
  assert.equal(compareClaims(done('2025-05'), done('2025-05-16')), null, 'a month and a day in it are not compared');
  assert.equal(compareClaims(done('2025-06'), done('2025-05-16'))?.relation, 'contradicts');
  const finished = claimOf('The refurbishment was finished on 16 May 2025.', { title: 'Gantry crane GC-2 refurbishment: completion report' });
  const completed = claimOf('The refurbishment of gantry crane GC-2 was completed on 16 May 2025.');
  assert.equal(compareClaims(finished, completed)?.relation, 'supports');
});

test('money agrees to the cent', () => {
  assert.equal(compareClaims(claim({ value: 1250.5 }), claim({ value: 1250.5000001 }))?.relation, 'supports');
  assert.equal(compareClaims(claim({ value: 1250.5 }), claim({ value: 1250.51 }))?.relation, 'contradicts');
});
