// relationship-score-v1's invariants, as the design states them. If a change to the weights or
// the arithmetic breaks one of these, the change is a new scoring model, not a tweak.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SignalView } from '../../shared/types.ts';
import {
  claimSignal,
  conceptSignal,
  contentHashSignal,
  decisionSignal,
  DEFAULT_THRESHOLDS,
  frequencyDiscount,
  countedSignals,
  inferType,
  metadataSignal,
  MODEL_FOUND_FACTOR,
  modelSignal,
  rebasedSimilarity,
  SCORE_VERSION,
  scoreSignals,
  sharedEntitySignal,
  SIGNAL_WEIGHTS,
  similaritySignal,
  temporalSignal,
  thresholdsFromEnv,
  documentLinkSignal,
  RELATIONSHIP_SCORE_V1,
  RELATIONSHIP_SCORE_V2,
  SCORE_VERSION_V1,
  scoreVersion,
  scoringModel,
  SIGNAL_WEIGHTS_V1,
} from '../../server/src/scoring/index.ts';

const near = (actual: number, expected: number, tolerance = 0.005) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `expected ≈${expected}, got ${actual}`);

test('v1 keeps its twelve weights, untouched, beside the live v2', () => {
  assert.equal(SCORE_VERSION_V1, 'relationship-score-v1');
  assert.deepEqual(SIGNAL_WEIGHTS_V1, {
    content_hash_match: 0.45,
    semantic_similarity: 0.3,
    shared_entity: 0.25,
    claim_support: 0.22,
    claim_contradiction: 0.22,
    model_classification: 0.15,
    shared_concept: 0.12,
    alias_entity: 0.1,
    temporal_proximity: 0.1,
    shared_metadata: 0.08,
    user_confirmation: 1.0,
    user_rejection: -1.0,
  });
  assert.deepEqual(DEFAULT_THRESHOLDS, { minScore: 0.18, storeScore: 0.25, nearDuplicateSimilarity: 0.94 });
});

test('v2 is v1 plus links, shared text, a name guessed from capitals at half and evidence judged within the folder, and is the live version', () => {
  assert.equal(SCORE_VERSION, 'relationship-score-v2');
  assert.deepEqual(SIGNAL_WEIGHTS, { ...SIGNAL_WEIGHTS_V1, document_link: 0.3, shared_text: 0.45 });
  const { version: _v1, weights: _w1, guessedNameFactor: guessedV1, rules: rulesV1, similarityStanding: standingV1, ...v1Factors } = RELATIONSHIP_SCORE_V1;
  const { version: _v2, weights: _w2, guessedNameFactor: guessedV2, rules: rulesV2, similarityStanding: standingV2, ...v2Factors } = RELATIONSHIP_SCORE_V2;
  assert.equal(standingV1, null, 'v1 rebases against its fixed floor alone');
  assert.deepEqual(standingV2, { from: 2, full: 5 });
  assert.deepEqual(v2Factors, v1Factors, 'every other factor is v1’s');
  assert.equal(rulesV1.similarity, 'fixed_floor');
  assert.equal(rulesV2.similarity, 'within_folder', 'v2 judges evidence within the folder');
  assert.equal(guessedV1, 1, 'v1 counts every shared name whole');
  assert.equal(guessedV2, 0.5);
  const vouched = sharedEntitySignal('Harbourline Engineering Ltd', 'organisation', 2);
  const guessed = sharedEntitySignal('Visual Studio Code', 'product', 2);
  assert.equal(guessed.strength, vouched.strength / 2, 'a product name shared counts for half an organisation');
  assert.match(guessed.detail, /guessed from its capitals/);
  assert.equal(scoringModel(DEFAULT_THRESHOLDS, scoreVersion('v1')!).score_version, 'relationship-score-v1');
  assert.equal(scoringModel(DEFAULT_THRESHOLDS, scoreVersion('v1')!).weights.document_link, undefined, 'v1 knows no link signal');
  assert.equal(scoreVersion('v9'), null);
});

test('a link alone is stored, typed links_to; a contradiction between linked files still reads contradicts', () => {
  const link = documentLinkSignal('a.md', 'b.md', 'line 12', '[the build guide](../b/)');
  assert.equal(link.value, 'a.md links to b.md at line 12: [the build guide](../b/)');
  assert.ok(scoreSignals([link]).score >= DEFAULT_THRESHOLDS.storeScore);
  assert.equal(inferType({ signals: [link] }), 'links_to');
  assert.equal(inferType({ signals: [link, claimSignal('contradicts', 'cost', 'cost 42000 vs 51500')] }), 'contradicts');
  const many = Array.from({ length: 5 }, (_, line) => documentLinkSignal('a.md', 'b.md', `line ${line}`, '[b](b.md)'));
  near(scoreSignals(many).score, 0.3 * 1.75, 0.001);
});

test('similarity is rebased against a floor of 0.55, so ordinary similarity counts for nothing', () => {
  assert.equal(rebasedSimilarity(0.55), 0);
  assert.equal(rebasedSimilarity(0.3), 0);
  near(rebasedSimilarity(0.775), 0.5);
  near(rebasedSimilarity(1), 1);
});

test('a 0.99-cosine pair with no other evidence scores about 0.29 and is typed similar_to', () => {
  const signals = [similaritySignal(0.99)];
  near(scoreSignals(signals).score, 0.29, 0.01);
  assert.ok(scoreSignals(signals).score > DEFAULT_THRESHOLDS.storeScore, 'just above the storage threshold, far below strong');
  assert.equal(inferType({ signals }), 'similar_to');
});

test('a maximally confident model classification alone stays below the storage threshold', () => {
  const { score } = scoreSignals([modelSignal('supports', 1, 'test-model')]);
  assert.equal(score, 0.15);
  assert.ok(score < DEFAULT_THRESHOLDS.storeScore);
});

test('a name the model found counts at half strength, and its detail says who found it', () => {
  const byRule = sharedEntitySignal('Larkspur Logistics', 'organisation', 2);
  const byModel = sharedEntitySignal('Larkspur Logistics', 'organisation', 2, false, true);
  assert.equal(MODEL_FOUND_FACTOR, 0.5);
  assert.equal(byModel.strength, byRule.strength * MODEL_FOUND_FACTOR);
  assert.equal(byModel.found_by_model, true);
  assert.equal(byRule.found_by_model, undefined);
  assert.match(byModel.detail, /named by the model, not by a rule/);
  assert.match(claimSignal('contradicts', 'cost', 'The sources give different figures.', true).detail, /One of the figures was named by the model, not by a rule, so it counts for half/);
});

test('model-found evidence alone never reaches the storage threshold, however much of it there is', () => {
  // Every kind of evidence a model can give, each at full strength and three deep (diminishing
  // returns end there): its sum, 0.75, is far above 0.25, so weights alone could not keep the
  // promise. The rule does: model evidence counts only where rule-found evidence reaches 0.18.
  const modelOnly = [
    ...['A', 'B', 'C'].map((name) => sharedEntitySignal(`${name} Logistics`, 'organisation', 2, false, true)),
    ...['cost', 'weight', 'budget'].flatMap((attribute) => [claimSignal('supports', attribute, '', true), claimSignal('contradicts', attribute, '', true)]),
    modelSignal('supports', 1, 'test-model'),
  ];
  assert.ok(scoreSignals(modelOnly).score >= DEFAULT_THRESHOLDS.storeScore, 'uncounted, it would be stored');
  assert.equal(scoreSignals(countedSignals(modelOnly, DEFAULT_THRESHOLDS.minScore)).score, 0);

  // With any rule-found evidence below the minimum score (a similarity, shared phrases, a date),
  // the pair scores what the rules give it, below the storage threshold, at any threshold setting.
  const ruleFound = [similaritySignal(0.75), conceptSignal('crane', 2), conceptSignal('bay', 3), temporalSignal('2025-05-01', '2025-05-20')!];
  for (let size = 0; size <= ruleFound.length; size += 1) {
    const rules = ruleFound.slice(0, size);
    const ruleScore = scoreSignals(rules).score;
    for (const minScore of [DEFAULT_THRESHOLDS.minScore, 0.1, 0.25]) {
      if (ruleScore >= minScore) continue;
      const counted = scoreSignals(countedSignals([...rules, ...modelOnly], minScore)).score;
      assert.equal(counted, ruleScore, `rules ${ruleScore} + model evidence, minimum ${minScore}`);
      assert.ok(counted < Math.max(minScore, DEFAULT_THRESHOLDS.storeScore));
    }
  }
});

test('model-found evidence shapes a relationship the rules already support, and never sets its type', () => {
  const rules = [sharedEntitySignal('Example Ltd', 'organisation', 2)];
  const modelContradiction = claimSignal('contradicts', 'cost', 'The sources give different figures.', true);
  const counted = countedSignals([...rules, modelContradiction], DEFAULT_THRESHOLDS.minScore);
  assert.equal(counted.length, 2, 'above the minimum score the model-found figure counts');
  assert.equal(scoreSignals(counted).score, 0.25 + 0.22 * MODEL_FOUND_FACTOR);
  assert.equal(inferType({ signals: counted }), 'mentions', 'a figure the model read does not make the documents contradict');
});

test('shared_entity × 6 gives 0.44: 0.25 + 0.125 + 0.0625, then nothing', () => {
  const signals = ['A', 'B', 'C', 'D', 'E', 'F'].map((name) => sharedEntitySignal(`${name} Ltd`, 'organisation', 2));
  assert.equal(scoreSignals(signals).score, 0.4375);
  assert.deepEqual(
    scoreSignals(signals).contributions.map((c) => c.factor),
    [1, 0.5, 0.25, 0, 0, 0],
  );
});

test('diminishing returns count the strongest signal of a type first, whatever the order found', () => {
  const weak = conceptSignal('bay', 9);
  const strong = conceptSignal('gantry crane', 2);
  const forward = scoreSignals([weak, strong]);
  const backward = scoreSignals([strong, weak]);
  assert.equal(forward.score, backward.score);
  assert.equal(forward.contributions.find((c) => c.signal === strong)!.factor, 1);
  assert.equal(forward.contributions.find((c) => c.signal === weak)!.factor, 0.5);
});

test('an entity in most documents is discounted by 1 / (1 + ln frequency)', () => {
  assert.equal(frequencyDiscount(2), 1, 'a name only this pair shares keeps full strength');
  near(frequencyDiscount(3), 1 / (1 + Math.log(2)));
  const common = sharedEntitySignal('Example Ltd', 'organisation', 90);
  assert.ok(common.strength < 0.2, `an entity in 90 items is heavily discounted (${common.strength})`);
  assert.match(common.detail, /appears in 90 items/);
});

test('shared_metadata: weight 0.08, discounted by how many items give the value, repeats diminishing', () => {
  const project = metadataSignal('project', 'GC-2', 2);
  assert.deepEqual([project.type, project.value, project.strength, project.weight], ['shared_metadata', 'project: GC-2', 1, 0.08]);
  assert.match(project.detail, /project: GC-2/, 'the detail names the key and the value');
  assert.equal(scoreSignals([project]).score, 0.08, 'a value only this pair gives: 1 × 0.08');

  // Given by 5 items: strength 1 / (1 + ln 4) = 0.4191, contribution 0.0335.
  const tag = metadataSignal('tags', 'safety', 5);
  assert.equal(tag.strength, 0.4191);
  assert.match(tag.detail, /5 items give it, so it counts for less/);
  assert.match(metadataSignal('tags', 'safety', 1000, true).detail, /At least 1000 items/);

  // Three shared values: 0.08 × 1 + 0.08 × 1 × 0.5 + 0.08 × 0.4191 × 0.25 = 0.08 + 0.04 + 0.0084 = 0.1284.
  const three = scoreSignals([tag, project, metadataSignal('client', 'Larkspur', 2)]);
  assert.equal(three.score, 0.1284);
  assert.deepEqual(three.contributions.map((c) => c.factor), [0.25, 1, 0.5], 'the weakest counts a quarter, whatever the order found');

  // Metadata alone never reaches the storage threshold: six shared values at full strength give 0.14.
  const six = Array.from({ length: 6 }, (_, n) => metadataSignal('tags', `tag ${n}`, 2));
  assert.equal(scoreSignals(six).score, 0.14);
  assert.ok(scoreSignals(six).score < DEFAULT_THRESHOLDS.minScore);
});

test('concepts start at half strength', () => {
  assert.equal(conceptSignal('gantry crane', 2).strength, 0.5);
});

test('the score is capped at 1.00', () => {
  const signals = [contentHashSignal(), similaritySignal(1), sharedEntitySignal('X Ltd', 'organisation', 2), claimSignal('supports', 'cost', 'Both agree.')];
  assert.equal(scoreSignals(signals).score, 1);
});

test('a confirmation saturates the score and a rejection drives it to zero; the evidence stays', () => {
  const evidence: SignalView[] = [similaritySignal(0.8), sharedEntitySignal('Example Ltd', 'organisation', 2)];
  const confirmed = [...evidence, decisionSignal('confirmed', 'ana', null)];
  const rejected = [...evidence, decisionSignal('rejected', 'ana', 'different events')];
  assert.equal(scoreSignals(confirmed).score, 1);
  assert.equal(scoreSignals(rejected).score, 0);
  assert.equal(scoreSignals(rejected).contributions.length, 3, 'every earlier signal is still there');
  assert.match(rejected[2]!.detail, /Nothing was deleted/);
  assert.match(rejected[2]!.detail, /different events/);
});

test('type inference follows the documented order', () => {
  const hash = contentHashSignal();
  const contradiction = claimSignal('contradicts', 'cost', 'The sources give different figures.');
  const support = claimSignal('supports', 'cost', 'Both agree.');
  const entity = sharedEntitySignal('Example Ltd', 'organisation', 2);
  const similar = similaritySignal(0.9);
  assert.equal(inferType({ signals: [similar, entity, support, contradiction, hash] }), 'derived_from', '1. content hash');
  assert.equal(inferType({ signals: [similar, entity, support, contradiction], modelType: 'updates' }), 'contradicts', '2. contradiction');
  assert.equal(inferType({ signals: [similar, entity, support], modelType: 'updates' }), 'supports', '3. support');
  assert.equal(inferType({ signals: [similar, entity], modelType: 'updates', dateA: '2025-01-01', dateB: '2025-02-01' }), 'updates', '4. the model');
  for (const forbidden of ['same_entity_as', 'supersedes', 'derived_from'] as const) {
    assert.equal(inferType({ signals: [similar, entity], modelType: forbidden }), 'mentions', `a model alone never establishes ${forbidden}`);
  }
  assert.equal(inferType({ signals: [entity], dateA: '2025-03-14', dateB: '2025-07-22' }), 'occurred_before', '5. dates');
  assert.equal(inferType({ signals: [entity], dateA: '2025-07-22', dateB: '2025-03-14' }), 'occurred_after', '5. dates');
  assert.equal(inferType({ signals: [entity], dateA: '2025-07-22', dateB: '2025-07-22' }), 'mentions', '6. entity, same date');
  assert.equal(inferType({ signals: [entity] }), 'mentions', '6. shared entity');
  assert.equal(inferType({ signals: [similar] }), 'similar_to', '7. otherwise');
});

test('ordering alone never yields possibly_explains, updates or supersedes', () => {
  const temporal = temporalSignal('2025-03-01', '2025-03-03')!;
  for (const signals of [[temporal], [temporal, similaritySignal(0.99)], [temporal, sharedEntitySignal('X Ltd', 'organisation', 2)]]) {
    assert.ok(!['possibly_explains', 'updates', 'supersedes'].includes(inferType({ signals, dateA: '2025-03-01', dateB: '2025-03-03' })));
  }
});

test('temporal proximity fades over 30 days and says closeness is not causation', () => {
  near(temporalSignal('2025-05-20', '2025-05-23')!.strength, 0.9);
  assert.equal(temporalSignal('2025-03-14', '2025-07-22'), null);
  assert.match(temporalSignal('2025-05-20', '2025-05-20')!.detail, /same day.*not evidence/);
});

test('the contradiction detail passes through, naming both figures and not deciding', () => {
  const detail = 'The sources give different figures for cost: 42000 and 51500. Relata does not decide which is correct.';
  const signal = claimSignal('contradicts', 'cost', detail);
  assert.deepEqual(signal, { type: 'claim_contradiction', value: 'cost', strength: 1, weight: 0.22, detail });
});

test('thresholds come from the environment with their documented names, and nonsense is refused', () => {
  assert.deepEqual(thresholdsFromEnv({}), DEFAULT_THRESHOLDS);
  assert.deepEqual(thresholdsFromEnv({ RELATA_REL_MIN_SCORE: '0.1', RELATA_REL_STORE_SCORE: '0.3', RELATA_NEAR_DUPLICATE_SIMILARITY: '0.9' }), {
    minScore: 0.1,
    storeScore: 0.3,
    nearDuplicateSimilarity: 0.9,
  });
  assert.throws(() => thresholdsFromEnv({ RELATA_REL_MIN_SCORE: 'high' }), /RELATA_REL_MIN_SCORE=high is not a number/);
  assert.throws(() => thresholdsFromEnv({ RELATA_REL_STORE_SCORE: '1.5' }), /between 0 and 1/);
  assert.throws(() => thresholdsFromEnv({ RELATA_REL_MIN_SCORE: '0.4' }), /must not be below RELATA_REL_MIN_SCORE/);
});
