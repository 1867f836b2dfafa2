// Concepts: candidate key phrases counted per item, and their tf-idf weighting against the
// workspace at read time. Includes a speed check on a long contract.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CONCEPT_EXTRACTOR_VERSION, countPhrases, weightConcepts } from '../../server/src/extract/concepts.ts';
import { parseFile } from '../../server/src/parse/registry.ts';
import { extractionOf } from '../../server/src/pipeline/stages/extract.ts';
import { CUAD_DIR } from '../support/cuad.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const keys = (text: string) => countPhrases(text).map((p) => p.key);

test('phrases are noun phrases of up to four words, keyed lower case with a singular head', () => {
  const phrases = countPhrases('The gantry cranes were inspected. Two gantry cranes and one Gantry Crane! The cranes passed.');
  assert.deepEqual(phrases.slice(0, 2), [
    { key: 'crane', phrase: 'cranes', count: 4 },
    { key: 'gantry crane', phrase: 'gantry cranes', count: 3 },
  ]);
  assert.equal(CONCEPT_EXTRACTOR_VERSION, 'concepts@5');
  // A long run keeps its last four words, where English puts the head.
  assert.ok(keys('We reviewed the annual site fire safety inspection report.').includes('site fire safety inspection report'.split(' ').slice(-4).join(' ')));
  // A name of several capitalised words ends where lower-case words begin.
  assert.deepEqual(keys('Northgate Distribution Centre site inspection.').slice().sort(), [
    'centre', 'inspection', 'northgate distribution centre', 'site inspection',
  ]);
});

test('numbers, dates, money, units, names, organisations, emails and stop phrases are not concepts', () => {
  const found = keys(
    'On 16 May 2025 Mr. Tomasz Wieczorek of Example Ltd paid EUR 42,000 (15%) for 6 tonnes, see section 4.2. ' +
      'Contact tomasz.wieczorek@larkspur-logistics.example or https://example.com/a. Graham confirmed it. ' +
      'The thing is, this way of working is the same.',
  );
  for (const unwanted of ['may', '16', '2025', 'eur', 'tonne', 'tomasz wieczorek', 'wieczorek', 'example ltd', 'ltd', 'graham', 'thing', 'way', 'same', 'section']) {
    assert.ok(!found.includes(unwanted), `${unwanted} in ${JSON.stringify(found)}`);
  }
  assert.ok(!found.some((k) => k.includes('@') || k.includes('http')), JSON.stringify(found));
  assert.deepEqual(countPhrases(''), []);
  assert.deepEqual(countPhrases('42 16.05.2025 EUR 3,000 — 15%'), []);
});

test('demo: the maintenance report is about its crane, beam, brake and refurbishment', async () => {
  const file = path.join(REPO_ROOT, 'docs', 'demo', 'maintenance', 'gantry-crane-gc2-refurbishment-report.md');
  const doc = await parseFile(new Uint8Array(readFileSync(file)), file);
  const found = keys(doc.text);
  for (const wanted of ['refurbishment', 'gantry crane gc2 refurbishment', 'pendant control', 'runway beam', 'hoist brake', 'overload test']) {
    assert.ok(found.includes(wanted), `${wanted} in ${JSON.stringify(found.slice(0, 30))}`);
  }
  for (const unwanted of ['example ltd', 'tomasz wieczorek', 'eur', 'may']) assert.ok(!found.includes(unwanted), unwanted);
});

const TEMPLATE_REPORT = [
  'Incident report IR-2025-041: Chiller trip',
  'Summary',
  'The number two chiller in the east plant room tripped on low refrigerant pressure.',
  'Cause',
  'A flare fitting had worked loose, and the cause went unnoticed because the leak detector was disconnected.',
  'Actions taken',
  'The flare fitting was replaced and the leak detector reconnected.',
  'Follow-up',
  'The chiller checklist now includes the leak detector.',
].join('\n\n');
const SECTION_HEADINGS = ['Summary', 'Cause', 'Actions taken', 'Follow-up'];

test('a phrase that occurs only in section headings is not a concept; one the body also uses keeps every occurrence', () => {
  const counted = countPhrases(TEMPLATE_REPORT, SECTION_HEADINGS);
  const found = counted.map((p) => p.key);
  for (const heading of ['summary', 'actions taken', 'taken']) assert.ok(!found.includes(heading), `${heading} in ${JSON.stringify(found)}`);
  // "Cause" is a heading and a word of the body: it is subject matter here, counted twice.
  assert.deepEqual(counted.find((p) => p.key === 'cause'), { key: 'cause', phrase: 'Cause', count: 2 });
  for (const subject of ['chiller', 'leak detector', 'flare', 'east plant room']) assert.ok(found.includes(subject), subject);
  // Without the headings, the same text counts them all.
  const all = keys(TEMPLATE_REPORT);
  for (const heading of ['summary', 'actions taken']) assert.ok(all.includes(heading), heading);
});

test('extraction treats every heading but the title as a section heading', () => {
  const chunks = [{ id: 'c1', text: TEMPLATE_REPORT, headingPath: ['Incident report IR-2025-041: Chiller trip'] }];
  const headings = ['Incident report IR-2025-041: Chiller trip', ...SECTION_HEADINGS];
  const found = extractionOf('Incident report IR-2025-041: Chiller trip', chunks, headings).phrases.map((p) => p.key);
  // The title names what the item is about: its phrases count although it is a heading.
  assert.ok(found.includes('chiller trip'), JSON.stringify(found));
  assert.ok(!found.includes('summary') && !found.includes('actions taken'), JSON.stringify(found));
  assert.deepEqual(extractionOf('Incident report IR-2025-041: Chiller trip', chunks, headings).phrases, countPhrases(TEMPLATE_REPORT, SECTION_HEADINGS));
});

test('weights are tf-idf: sublinear count × smoothed idf × a small bonus per extra word, top scaled to 1', () => {
  const phrases = [
    { key: 'gantry crane', phrase: 'gantry crane', count: 3 },
    { key: 'crane', phrase: 'crane', count: 3 },
    { key: 'report', phrase: 'report', count: 9 },
    { key: 'hoist brake', phrase: 'hoist brake', count: 1 },
  ];
  const df: Record<string, number> = { 'gantry crane': 1, crane: 5, report: 10, 'hoist brake': 1 };
  const weighted = weightConcepts(phrases, (key) => df[key] ?? 0, 10);
  const raw = (count: number, docs: number, words: number) => (1 + Math.log(count)) * (1 + Math.log(11 / (1 + docs))) * (1 + 0.25 * (words - 1));
  const top = raw(3, 1, 2);
  assert.deepEqual(weighted, [
    { key: 'gantry crane', phrase: 'gantry crane', weight: 1 },
    { key: 'hoist brake', phrase: 'hoist brake', weight: Math.round((raw(1, 1, 2) / top) * 1000) / 1000 },
    { key: 'crane', phrase: 'crane', weight: Math.round((raw(3, 5, 1) / top) * 1000) / 1000 },
    // In every item: idf is 1, so nine mentions still rank, below the rarer phrases.
    { key: 'report', phrase: 'report', weight: Math.round((raw(9, 10, 1) / top) * 1000) / 1000 },
  ]);
  // A phrase in every item still counts, but less than a rare one with the same count.
  const even = weightConcepts([{ key: 'a b', phrase: 'a b', count: 2 }, { key: 'c d', phrase: 'c d', count: 2 }], (k) => (k === 'a b' ? 10 : 1), 10);
  assert.deepEqual(even.map((c) => c.key), ['c d', 'a b']);
  // The limit, ties broken on the key, and an empty input.
  assert.equal(weightConcepts(phrases, () => 1, 10, 2).length, 2);
  assert.deepEqual(
    weightConcepts([{ key: 'b', phrase: 'b', count: 1 }, { key: 'a', phrase: 'a', count: 1 }], () => 1, 1).map((c) => c.key),
    ['a', 'b'],
  );
  assert.deepEqual(weightConcepts([], () => 0, 0), []);
});

const CONTRACTS = path.join(CUAD_DIR, 'full_contract_txt');

// Its speed is printed, not asserted: a test must not fail on a slow machine.
test('countPhrases reads the longest CUAD contract whole', { skip: existsSync(CONTRACTS) ? false : `${CONTRACTS} is not available` }, (t) => {
  const largest = readdirSync(CONTRACTS)
    .map((name) => path.join(CONTRACTS, name))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const text = readFileSync(largest, 'utf8');
  const started = performance.now();
  const phrases = countPhrases(text);
  const perTenKb = (performance.now() - started) / (text.length / 10240);
  t.diagnostic(`${path.basename(largest)}: ${(text.length / 1024).toFixed(0)} KB, ${phrases.length} phrases, ${perTenKb.toFixed(2)} ms per 10 KB`);
  assert.ok(phrases.length > 100, `${phrases.length} phrases`);
  const tail = text.slice(-2000).toLowerCase();
  assert.ok(phrases.some((phrase) => tail.includes(phrase.phrase.toLowerCase())), 'phrases come from the end of the contract too');
});
