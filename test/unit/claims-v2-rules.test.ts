// The claim rules of relationship-score-v2 (issue 27, rules 3 and 4), each on the sentence that
// motivated it: statistics read as figures on SciFact, unrelated fees and deadlines compared on
// CUAD, the pair gate, and claims of direction with their negation. The real extractor runs on
// real sentences; nothing is mocked.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareItemClaims } from '../../server/src/extract/claims/compare.ts';
import { extractClaims } from '../../server/src/extract/claims/index.ts';
import type { Claim } from '../../server/src/extract/types.ts';

const figures = (text: string): Claim[] => extractClaims(text).filter((claim) => claim.kind !== 'direction');
const directions = (text: string): Claim[] => extractClaims(text).filter((claim) => claim.kind === 'direction');

test('a hazard ratio and its 95% confidence interval are statistics, not a 95% increase', () => {
  assert.deepEqual(figures('Mortality was higher in the treatment group (HR 1·67; 95% CI 1.2–2.3).'), []);
  // The SciFact sentence that was read as "hr 1 — increase — 95%".
  const sentence =
    '10/66 dementia incidence was independently associated with increased age (HR 1·67; 95% CI 1·56-1·79), female sex (0·72; 0·61-0·84), and low education (0·89; 0·81-0·97).';
  assert.deepEqual(figures(sentence), []);
  assert.deepEqual(figures('The adjusted RR per year of increase was 1.04 (95% CI, 1.01-1.08).'), []);
});

test('a rate per 1.73 m² of body surface is not a length', () => {
  assert.deepEqual(figures('Patients with an eGFR of 60 mL/min per 1.73 m² were excluded.'), []);
  const sentence =
    'Patients receiving standard-dose CNI had a mean difference of 6.2 mL/min per 1.73 m(2) (95% CI, 0.4-11.9; P=.04).';
  assert.ok(!figures(sentence).some((claim) => claim.unit === 'm' || claim.unit === 'm2'), 'no length or area');
});

test('p-values, sample sizes, dispersions and pressures in mm Hg are not figures', () => {
  assert.deepEqual(figures('The difference in mortality was significant (p < 0.05).'), []);
  assert.deepEqual(figures('Weight loss differed between the groups (P = .003; n = 120).'), []);
  assert.deepEqual(figures('Mean arterial pressure was 93 ± 21 mm Hg in pregnant women.'), []);
});

test('a range written 8%-74% is a range, not a decrease of 74%', () => {
  assert.deepEqual(figures('Bariatric surgery was associated with decreases in the prevalence of depression (7 studies; 8%-74% decrease).'), []);
});

test('a figure the extractor did read still stands beside the statistics it carries', () => {
  const [claim] = figures('The cumulative incidence of nonvertebral fractures was reduced by 39% (95% CI, 6%-61%).');
  assert.equal(claim?.value, 39);
  assert.equal(claim?.attribute, 'decrease');
});

test('"annual fee" and "annual consulting fee" are different attributes: not compared', () => {
  const fee = figures('Vendor agrees to pay the administrator an annual fee of $300 for these administrative functions.');
  const consulting = figures('The Company shall pay Nantz Communications an annual consulting fee of $30,000.');
  assert.equal(fee.length, 1);
  assert.equal(consulting.length, 1);
  assert.deepEqual(compareItemClaims(fee, consulting), []);
  // The same fee named the same way still compares.
  const again = figures('The Company shall pay Nantz Communications an annual consulting fee of $25,000.');
  assert.equal(compareItemClaims(consulting, again)[0]?.relation, 'contradicts');
});

test("30 days' notice and a 10-day deadline to report are not compared", () => {
  const notice = figures('Termination. Either party may terminate on 30 days notice to the other.');
  assert.equal(notice[0]?.attribute, 'notice period');
  assert.deepEqual(compareItemClaims(notice, figures('The Company shall report any breach within 10 days.')), []);
  const deadline = figures('Each party shall give written notice of any breach to the other party ten (10) days after discovering it.');
  assert.equal(deadline[0]?.attribute, 'notice deadline');
  assert.deepEqual(compareItemClaims(notice, deadline), []);
});

test('with requireTie, two items with nothing specific in common compare no claims; tied, as before', () => {
  const a = figures('A management fee of $25,000 is payable in four installments.');
  const b = figures('A management fee of $30,000 is payable in four installments.');
  assert.equal(compareItemClaims(a, b)[0]?.relation, 'contradicts', 'v1: no gate');
  assert.deepEqual(compareItemClaims(a, b, { requireTie: true }), []);
  assert.deepEqual(compareItemClaims(a, b, { requireTie: true, tiedBy: [] }), []);
  const tied = compareItemClaims(a, b, { requireTie: true, tiedBy: ['organisation:example bank'] });
  assert.deepEqual(tied, compareItemClaims(a, b));
});

test('opposite directions for the same subject and object contradict, naming both sentences', () => {
  const reduces = directions('Aspirin reduces the risk of stroke.');
  assert.deepEqual(
    reduces.map(({ kind, subject, attribute, value, unit }) => ({ kind, subject, attribute, value, unit })),
    [{ kind: 'direction', subject: 'aspirin', attribute: 'stroke risk', value: 'decrease', unit: null }],
  );
  const [finding] = compareItemClaims(reduces, directions('Aspirin increases the risk of stroke.'));
  assert.equal(finding?.relation, 'contradicts');
  assert.match(finding!.detail, /"Aspirin reduces the risk of stroke"/);
  assert.match(finding!.detail, /"Aspirin increases the risk of stroke"/);
  assert.match(finding!.detail, /does not decide/);
});

test('the same direction in other words supports: "lowers stroke risk" and "reduces the risk of stroke"', () => {
  const [finding] = compareItemClaims(directions('Aspirin lowers stroke risk.'), directions('Aspirin reduces the risk of stroke.'));
  assert.equal(finding?.relation, 'supports');
});

test('a denied direction contradicts the direction; "does not increase" leaves a decrease alone', () => {
  const denied = directions('Aspirin does not reduce the risk of stroke.');
  assert.equal(denied[0]?.value, 'not decrease');
  assert.equal(compareItemClaims(denied, directions('Aspirin reduces the risk of stroke.'))[0]?.relation, 'contradicts');
  const notRaised = directions('Aspirin does not increase the risk of stroke.');
  assert.deepEqual(compareItemClaims(notRaised, directions('Aspirin reduces the risk of stroke.')), []);
  const none = directions('Exercise has no effect on cancer mortality.');
  assert.equal(none[0]?.value, 'none');
  assert.equal(compareItemClaims(none, directions('Exercise reduces cancer mortality.'))[0]?.relation, 'contradicts');
});

test('associations with higher or lower, and improving or worsening, are directions on their own scale', () => {
  const [poorer] = directions('ALDH1 expression is associated with poorer prognosis.');
  assert.equal(poorer?.value, 'decrease');
  assert.equal(poorer?.unit, 'outcome');
  const [higher] = directions('Dexamethasone is associated with higher risk of postoperative bleeding.');
  assert.equal(higher?.value, 'increase');
  assert.equal(higher?.attribute, 'postoperative bleeding risk');
  // "improves symptoms" reduces them: an outcome is never compared with an amount.
  assert.deepEqual(compareItemClaims(directions('Exercise improves depressive symptoms.'), directions('Exercise reduces depressive symptoms.')), []);
  const [finding] = compareItemClaims(directions('Exercise improves cognitive function.'), directions('Exercise worsens cognitive function.'));
  assert.equal(finding?.relation, 'contradicts');
});

test('no direction claim from a pronoun subject, a passive, a question, a hypothesis or an intransitive verb', () => {
  assert.deepEqual(directions('It increases growth.'), []);
  assert.deepEqual(directions('This increases tumour growth.'), []);
  assert.deepEqual(directions('Tumour growth was reduced by aspirin.'), []);
  assert.deepEqual(directions('Does aspirin reduce the risk of stroke?'), []);
  assert.deepEqual(directions('We tested whether aspirin reduces the risk of stroke.'), []);
  assert.deepEqual(directions('We hypothesised that aspirin reduces the risk of stroke.'), []);
  // An intransitive verb followed by its cause has no object: "due" is not what increased.
  assert.deepEqual(directions('Incidence rates of hip fracture have increased due to population ageing.'), []);
  assert.deepEqual(directions('G-CSF increases the expansion and infiltration of MDSCs into tumors.'), [], 'a coordinated object');
});
