// relationship-score-v2, rules 2, 7 and 8, each with the case that motivated it (issue 27):
// concepts that discriminate (60 CUAD contracts shared "project", "Agreement", "change", "lead"),
// chronology only where it means something (7 of 15 CUAD proposals were `occurred_before` resting on
// regulators such agreements name), template text is not evidence (two different incident reports
// linked at 0.466 through the e-mail address their form signs off with). v1 keeps its behaviour.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RelationshipView, SignalView } from '../../shared/types.ts';
import { discriminatingPhrases, inMostFiles, documentFrequencyCap } from '../../server/src/discover/discriminatingPhrases.ts';
import { pairEvidence, type Frequencies } from '../../server/src/discover/evidence.ts';
import type { ItemProfile } from '../../server/src/discover/profile.ts';
import { filesGivingOnlyTemplate, placeOf, templatePlaces } from '../../server/src/discover/templateText.ts';
import { chronologyLast } from '../../server/src/engine/relationships.ts';
import { countPhrases } from '../../server/src/extract/concepts.ts';
import {
  inferType,
  isChronologyOnly,
  RELATIONSHIP_SCORE_V1,
  RELATIONSHIP_SCORE_V2,
  signalsFor,
} from '../../server/src/scoring/index.ts';
import type { EntityMentionContext, ItemRecord, StoredEntity } from '../../server/src/store/contract.ts';

const v1 = signalsFor(RELATIONSHIP_SCORE_V1);
const v2 = signalsFor(RELATIONSHIP_SCORE_V2);

describe('rule 2: concepts that discriminate', () => {
  // Counts and document frequencies as in the 60 CUAD contracts: words most contracts use, and
  // phrases only a few of them share.
  const pool = [
    { key: 'agreement', phrase: 'Agreement', count: 48 },
    { key: 'project', phrase: 'project', count: 22 },
    { key: 'change', phrase: 'change', count: 14 },
    { key: 'lead', phrase: 'Lead', count: 9 },
    { key: 'management fee', phrase: 'management fee', count: 5 },
    { key: 'bank', phrase: 'Bank', count: 7 },
    { key: 'thing', phrase: 'thing', count: 30 },
    { key: 'it', phrase: 'it', count: 25 },
  ];
  const itemsHaving = new Map([
    ['agreement', 58],
    ['project', 34],
    ['change', 41],
    ['lead', 31],
    ['management fee', 3],
    ['bank', 9],
    ['thing', 2],
    ['it', 2],
  ]);

  test('the contracts\' "project", "Agreement", "change" and "lead" (each in most of the 60 files) are never compared', () => {
    const keys = discriminatingPhrases(pool, itemsHaving, 60, 12).map((phrase) => phrase.key);
    for (const common of ['agreement', 'project', 'change', 'lead']) assert.ok(!keys.includes(common), `${common} is left out`);
    assert.deepEqual(keys, ['management fee', 'bank'], 'the rare phrase outweighs the more frequent but commoner one');
  });

  test('stop words, pronouns and general nouns alone never count, whatever their weight', () => {
    const keys = discriminatingPhrases(pool, itemsHaving, 60, 12).map((phrase) => phrase.key);
    assert.ok(!keys.includes('it') && !keys.includes('thing'));
  });

  test('compared phrases carry their document frequency, and the concept signal says "in 3 of 60 files"', () => {
    const fee = discriminatingPhrases(pool, itemsHaving, 60, 12).find((phrase) => phrase.key === 'management fee');
    assert.equal(fee?.items, 3);
    assert.match(v2.conceptSignal('management fee', 3, 60).detail, /in 3 of 60 files/);
    assert.doesNotMatch(v1.conceptSignal('management fee', 3).detail, /of 60 files/, 'v1 says what it always said');
  });

  test('"most files" needs at least three: two of four files sharing a phrase still counts', () => {
    assert.equal(inMostFiles(2, 3), false);
    assert.equal(inMostFiles(3, 4), true);
    assert.equal(inMostFiles(30, 60), false);
    assert.equal(inMostFiles(31, 60), true);
  });

  test('document frequencies are counted only as far as deciding "most files" needs', () => {
    assert.equal(documentFrequencyCap(60, 1000), 31);
    assert.equal(documentFrequencyCap(100_000, 1000), 1000);
    assert.equal(documentFrequencyCap(2, 1000), 3);
  });

  test('phrase keys are whole words: "misleading" never yields "lead"', () => {
    const keys = countPhrases('The statement was misleading. Misleading figures were removed from the filing.').map((phrase) => phrase.key);
    assert.ok(!keys.includes('lead'), keys.join(', '));
    assert.ok(keys.every((key) => key.split(' ').every((word) => /misleading|figure|statement|filing/.test(word))), keys.join(', '));
  });
});

const sharedName = (strength: number, extra: Partial<SignalView> = {}): SignalView => ({
  type: 'shared_entity',
  value: 'Securities and Exchange Commission',
  strength,
  weight: 0.25,
  detail: '',
  ...extra,
});

describe('rule 7: chronology only where it means something', () => {
  // The SEC is in 17 of the 60 CUAD contracts: 1 / (1 + ln 16) = 0.265.
  const regulator = v2.sharedEntitySignal('Securities and Exchange Commission', 'organisation', 17);

  test('two contracts sharing only a regulator most such contracts name are not occurred_before under v2', () => {
    const evidence = { signals: [regulator], dateA: '2009-03-01', dateB: '2019-06-30' };
    assert.equal(inferType({ ...evidence, chronologyNeedsSpecificName: true }), 'mentions');
    assert.equal(inferType(evidence), 'occurred_before', 'v1 dates the pair by any shared name');
  });

  test('a name at most three files give, with event dates, still dates the pair', () => {
    const specific = v2.sharedEntitySignal('Northgate Bank', 'organisation', 3);
    assert.ok(specific.strength >= 0.5);
    assert.equal(inferType({ signals: [specific], dateA: '2025-03-14', dateB: '2025-07-22', chronologyNeedsSpecificName: true }), 'occurred_before');
    const fourFiles = v2.sharedEntitySignal('Federal Reserve', 'organisation', 4);
    assert.equal(inferType({ signals: [fourFiles], dateA: '2025-03-14', dateB: '2025-07-22', chronologyNeedsSpecificName: true }), 'mentions');
  });

  test('a name only the model stage found does not date a pair', () => {
    assert.equal(
      inferType({ signals: [sharedName(1, { found_by_model: true }), regulator], dateA: '2025-01-01', dateB: '2025-02-01', chronologyNeedsSpecificName: true }),
      'mentions',
    );
  });

  test('without event dates there is no chronology (the caller passes event dates under v2)', () => {
    assert.equal(inferType({ signals: [sharedName(1)], dateA: null, dateB: '2025-02-01', chronologyNeedsSpecificName: true }), 'mentions');
  });

  const view = (id: string, type: RelationshipView['type'], types: SignalView['type'][], version: string = RELATIONSHIP_SCORE_V2.version) =>
    ({ id, type, score_version: version, status: 'pending', signals: types.map((t) => ({ ...sharedName(1), type: t })) }) as unknown as RelationshipView;

  test('chronology-only relationships (dates and shared names alone) list after the others, each part in the store\'s order', () => {
    const listed = chronologyLast([
      view('dates-only', 'occurred_before', ['temporal_proximity', 'shared_entity']),
      view('supports', 'supports', ['claim_support', 'shared_entity']),
      view('dated-and-similar', 'occurred_after', ['temporal_proximity', 'shared_entity', 'semantic_similarity']),
      view('similar', 'similar_to', ['semantic_similarity']),
    ]);
    assert.deepEqual(listed.map((v) => v.id), ['supports', 'dated-and-similar', 'similar', 'dates-only']);
    assert.equal(isChronologyOnly('occurred_before', [{ ...sharedName(1), type: 'user_confirmation' }, sharedName(1)]), true);
  });

  test('relationships scored under v1 keep the store\'s order', () => {
    const listed = chronologyLast([view('dates-only', 'occurred_before', ['temporal_proximity'], RELATIONSHIP_SCORE_V1.version), view('similar', 'similar_to', ['semantic_similarity'], RELATIONSHIP_SCORE_V1.version)]);
    assert.deepEqual(listed.map((v) => v.id), ['dates-only', 'similar']);
  });
});

describe('rule 8: template text is not evidence', () => {
  const signOff = (itemId: string): EntityMentionContext => ({
    itemId,
    before: 'Corrective actions are tracked in the safety log.\n\nKind regards,\nSafety Desk <',
    after: '>\nNorthgate Logistics',
  });

  test('three incident reports signing off with one e-mail address put it in the template\'s place', () => {
    const places = templatePlaces([signOff('forklift'), signOff('sprinkler'), signOff('dock')]);
    assert.equal(places.size, 1);
    assert.equal([...places.values()][0], 3);
    assert.deepEqual([...filesGivingOnlyTemplate([signOff('forklift'), signOff('sprinkler')], places)].sort(), ['forklift', 'sprinkler']);
  });

  test('two files alike are not yet a template', () => {
    assert.equal(templatePlaces([signOff('forklift'), signOff('sprinkler')]).size, 0);
  });

  test('a file that also names the address in its own words keeps it as evidence', () => {
    const places = templatePlaces([signOff('forklift'), signOff('sprinkler'), signOff('dock')]);
    const own = { itemId: 'sprinkler', before: 'The leak was reported to ', after: ' at 06:40 by the night shift.' };
    assert.deepEqual([...filesGivingOnlyTemplate([signOff('forklift'), signOff('sprinkler'), own], places)], ['forklift']);
  });

  test('a name alone at the start of its passage (a title) has no place to recognise', () => {
    assert.equal(placeOf({ before: '', after: '\n\nThe crane was inspected on 3 May.' }), null);
  });

  const item = (id: string) => ({ id, path: `${id}.md`, contentHash: id, status: 'indexed' }) as ItemRecord;
  const email = (itemId: string): StoredEntity => ({
    itemId,
    chunkId: `${itemId}-1`,
    type: 'email',
    surface: 'safety-desk@northgate.example',
    key: 'email:safety-desk@northgate.example',
    start: 0,
    end: 29,
    producer: 'deterministic',
    extractorVersion: 'entities@1',
  });
  const profile = (id: string): ItemProfile => ({ item: item(id), entities: [email(id)], claims: [], phrases: [], date: null, eventDate: null, vectors: [], metadata: [] });
  const frequencies = (template: boolean): Frequencies => ({
    entityItems: new Map([['email:safety-desk@northgate.example', 3]]),
    phraseItems: new Map(),
    metadataItems: new Map(),
    cap: 1000,
    templateNames: template ? new Map([['email:safety-desk@northgate.example', { items: new Set(['forklift', 'sprinkler']) }]]) : undefined,
  });

  test('two reports about different incidents are not related through their template\'s e-mail address under v2', () => {
    const evidence = pairEvidence(profile('forklift'), profile('sprinkler'), frequencies(true), { rules: RELATIONSHIP_SCORE_V2.rules, signals: v2 });
    assert.ok(!evidence.signals.some((signal) => signal.type === 'shared_entity'));
  });

  test('under v1 (no template names read) the address is shared evidence, as it always was', () => {
    const evidence = pairEvidence(profile('forklift'), profile('sprinkler'), frequencies(false), { rules: RELATIONSHIP_SCORE_V1.rules, signals: v1 });
    assert.ok(evidence.signals.some((signal) => signal.type === 'shared_entity' && signal.value === 'safety-desk@northgate.example'));
  });
});
