// relationship-score-v2, rules 1, 3 and 5, each with the case that motivated it: similarity judged
// within the folder (the German guides, where every pair is alike), claims compared only on a
// tied pair (two banks' management fees), and near-copies read from their text (a contract filed
// twice, a draft of a memo, opposite claims that differ by one word). Real extractors on real
// sentences; the profiles are built by hand, as discovery reads them from the store.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pairEvidence, type Frequencies } from '../../server/src/discover/evidence.ts';
import { baselineOf, MIN_SPREAD, standing } from '../../server/src/discover/folderSimilarity.ts';
import type { ItemProfile } from '../../server/src/discover/profile.ts';
import { copyKind, shingle, textOverlap } from '../../server/src/discover/sharedText.ts';
import { extractClaims } from '../../server/src/extract/claims/index.ts';
import { inferType, RELATIONSHIP_SCORE_V1, RELATIONSHIP_SCORE_V2, signalsFor, type ScoreConstants } from '../../server/src/scoring/index.ts';
import type { ItemRecord, StoredClaim, StoredEntity } from '../../server/src/store/contract.ts';

const v1 = signalsFor(RELATIONSHIP_SCORE_V1);
const v2 = signalsFor(RELATIONSHIP_SCORE_V2);

test('where every pair of a folder is alike, similarity adds nothing under v2 (v1 counted it nearly in full)', () => {
  // German guides under the English model: the median pair sits at 0.895, all within a few hundredths.
  const folder = [0.87, 0.88, 0.885, 0.89, 0.895, 0.895, 0.9, 0.9, 0.905, 0.91, 0.915, 0.92];
  const a = baselineOf(folder);
  const b = baselineOf(folder.map((cosine) => cosine - 0.005));
  assert.ok(Math.abs(a.typical - 0.8975) < 1e-9, 'the median pair');
  assert.ok(a.spread >= MIN_SPREAD, 'the spread is never read as narrower than the floor');
  const pair = 0.93;
  const judged = v2.similaritySignal(pair, { typical: Math.min(a.typical, b.typical), standing: standing(pair, a, b) });
  assert.equal(judged.strength, 0, `0.93 among pairs at 0.895 is ordinary: ${judged.value}`);
  assert.match(judged.value, /typical 0\.89/);
  assert.ok(v1.similaritySignal(pair).strength > 0.8, 'v1 rebased it against its fixed floor');
});

test('where related pages stand at 0.70-0.80 among unrelated ones at 0.40-0.60, the nearest count under v2', () => {
  const unrelated = [0.41, 0.44, 0.46, 0.48, 0.5, 0.5, 0.52, 0.53, 0.55, 0.57, 0.6, 0.58];
  const a = baselineOf([...unrelated, 0.76]);
  const b = baselineOf([...unrelated, 0.74]);
  const near = v2.similaritySignal(0.78, { typical: Math.min(a.typical, b.typical), standing: standing(0.78, a, b) });
  assert.ok(near.strength > 0, `a pair far above both items' typical similarity counts: ${near.value}`);
  assert.ok(near.strength <= v1.rebasedSimilarity(0.78), 'never more than the rebased cosine');
  const ordinary = v2.similaritySignal(0.58, { typical: Math.min(a.typical, b.typical), standing: standing(0.58, a, b) });
  assert.equal(ordinary.strength, 0, 'a pair at the folder’s usual similarity counts nothing');
});

const CONTRACT = Array.from(
  { length: 40 },
  (_, i) =>
    `Section ${i + 1}. The Manager shall provide the services described in Schedule ${i + 1} with due care and diligence, ` +
    `and the Company shall pay the fees set out in that schedule within thirty days of each invoice.`,
).join('\n');

test('a contract filed twice (a few words changed) is a near-copy; a draft of a memo is a draft', () => {
  const refiled = CONTRACT.replace('Section 7.', 'Section 7 (as amended).').replace('Schedule 31', 'Schedule 31A');
  const copy = textOverlap(shingle(CONTRACT), shingle(refiled));
  assert.ok(copy.overlap >= 0.8, `overlap ${copy.overlap}`);
  assert.equal(copyKind(copy), 'near_copy');

  const memo = `${CONTRACT}\nAppendix: the board approved the schedules on 3 March.`;
  const draft = CONTRACT.split('\n').slice(0, 12).join('\n');
  const overlap = textOverlap(shingle(draft), shingle(memo));
  assert.ok(overlap.overlap < 0.8, 'a third of the memo is not a near-copy of it');
  assert.equal(copyKind(overlap), 'draft');
  assert.equal(overlap.shorter, 'a');
});

test('texts that differ by a negation or an opposite direction are never near-copies, however much they share', () => {
  const claim = 'A20 knockdown accelerates tumor progression in mouse models of colorectal cancer.';
  const opposite = 'A20 knockdown slows tumor progression in mouse models of colorectal cancer.';
  assert.equal(copyKind(textOverlap(shingle(claim), shingle(opposite))), null);
  const negated = CONTRACT.replace('shall pay the fees set out in that schedule within thirty days of each invoice.', 'shall not pay the fees set out in that schedule within thirty days of each invoice.');
  const overlap = textOverlap(shingle(CONTRACT), shingle(negated));
  assert.ok(overlap.overlap >= 0.8, 'nearly all of it is shared');
  assert.deepEqual(overlap.claimWords, ['not']);
  assert.equal(copyKind(overlap), null);
});

let sequence = 0;
function profile(path: string, text: string, entities: Partial<StoredEntity>[] = []): ItemProfile {
  const id = `item-${++sequence}`;
  const item: ItemRecord = {
    id,
    path,
    title: path,
    status: 'indexed',
    reason: null,
    duplicateOf: null,
    contentHash: `hash-${id}`,
    size: text.length,
    version: 1,
    parserVersion: 'test',
    flags: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    deletedAt: null,
    forgottenAt: null,
  };
  const claims: StoredClaim[] = extractClaims(text, { title: path }).map((claim) => ({ ...claim, itemId: id, chunkId: `${id}-0` }));
  const named = entities.map((entity) => ({ type: 'organisation', producer: 'deterministic', itemId: id, ...entity }) as StoredEntity);
  return { item, entities: named, claims, phrases: [], date: null, eventDate: null, vectors: [], metadata: [] };
}

const frequencies = (counts: Record<string, number>): Frequencies => ({
  entityItems: new Map(Object.entries(counts)),
  phraseItems: new Map(),
  metadataItems: new Map(),
  cap: 1000,
});

const evidence = (version: ScoreConstants, a: ItemProfile, b: ItemProfile, counts: Record<string, number>, overlap = null as ReturnType<typeof textOverlap> | null) =>
  pairEvidence(a, b, frequencies(counts), { rules: version.rules, signals: signalsFor(version) }, { cosine: null, overlap });

test('two banks’ management fees ten years apart are not compared under v2: the pair shares only a regulator every contract names', () => {
  const regulator = { key: 'org:federal deposit insurance corporation', surface: 'Federal Deposit Insurance Corporation' };
  const first = profile('afsala-1996.txt', 'The Bank shall pay the Agent a management fee of $25,000.', [regulator]);
  const second = profile('alliance-2006.txt', 'The Bank shall pay the Agent a management fee of $30,000.', [regulator]);
  const counts = { [regulator.key]: 40 };
  assert.ok(first.claims.length > 0 && second.claims.length > 0, 'both state a fee');
  const underV1 = evidence(RELATIONSHIP_SCORE_V1, first, second, counts);
  assert.ok(underV1.signals.some((signal) => signal.type === 'claim_contradiction'), 'v1 compared them');
  const underV2 = evidence(RELATIONSHIP_SCORE_V2, first, second, counts);
  assert.equal(underV2.signals.filter((signal) => signal.type.startsWith('claim_')).length, 0);

  // The same two fees between contracts of one party named nowhere else are compared.
  const party = { key: 'org:harbourline bank', surface: 'Harbourline Bank' };
  const tiedFirst = profile('harbourline-1996.txt', 'The Bank shall pay the Agent a management fee of $25,000.', [party]);
  const tiedSecond = profile('harbourline-2006.txt', 'The Bank shall pay the Agent a management fee of $30,000.', [party]);
  const tied = evidence(RELATIONSHIP_SCORE_V2, tiedFirst, tiedSecond, { [party.key]: 2 });
  assert.ok(tied.signals.some((signal) => signal.type === 'claim_contradiction'));
});

test('a near-copy that repeats its figures is typed derived_from, never supports; one with a changed figure is a comparison', () => {
  const memo = `${CONTRACT}\nThe refurbishment of gantry crane GC-2 cost EUR 42,000 in total.`;
  const copy = `${CONTRACT.replace('Section 3.', 'Section 3 (copy).')}\nThe refurbishment of gantry crane GC-2 cost EUR 42,000 in total.`;
  const changed = `${CONTRACT}\nThe refurbishment of gantry crane GC-2 cost EUR 51,500 in total.`;
  const crane = { key: 'identifier:gc-2', surface: 'GC-2', type: 'identifier' as const };
  const [a, b, c] = [profile('memo.md', memo, [crane]), profile('memo-copy.md', copy, [crane]), profile('memo-changed.md', changed, [crane])];
  const counts = { [crane.key]: 2 };

  const same = evidence(RELATIONSHIP_SCORE_V2, a, b, counts, textOverlap(shingle(memo), shingle(copy)));
  assert.equal(same.copy, 'near_copy');
  assert.ok(same.signals.some((signal) => signal.type === 'shared_text'));
  assert.equal(same.signals.filter((signal) => signal.type === 'claim_support').length, 0, 'a copy does not corroborate its original');
  assert.equal(inferType({ signals: same.signals }), 'derived_from');
  assert.equal(inferType({ signals: evidence(RELATIONSHIP_SCORE_V1, a, b, counts).signals }), 'supports', 'v1 read the copy as support');

  const differing = evidence(RELATIONSHIP_SCORE_V2, a, c, counts, textOverlap(shingle(memo), shingle(changed)));
  assert.equal(differing.copy, null, 'a changed figure makes the pair a comparison');
  assert.equal(inferType({ signals: differing.signals }), 'contradicts');
});

test('one agent’s fees in two agency agreements ten years apart are not a contradiction under v2, though the agent ties them', () => {
  const agent = { key: 'org:keefe bruyette woods', surface: 'Keefe, Bruyette & Woods, Inc.' };
  const earlier = profile('alamogordo-1999.txt', 'The Company shall pay the Agent a management fee of $25,000.', [agent]);
  const later = profile('athens-2009.txt', 'The Company shall pay the Agent a management fee of $30,000.', [agent]);
  const counts = { [agent.key]: 2 };
  const dated = (profile: ItemProfile, date: string): ItemProfile => ({ ...profile, date });
  const apart = evidence(RELATIONSHIP_SCORE_V2, dated(earlier, '1999-12-16'), dated(later, '2009-11-02'), counts);
  assert.equal(apart.signals.filter((signal) => signal.type.startsWith('claim_')).length, 0, 'a different fee ten years on is a change');
  const close = evidence(RELATIONSHIP_SCORE_V2, dated(earlier, '2009-06-01'), dated(later, '2009-11-02'), counts);
  assert.ok(close.signals.some((signal) => signal.type === 'claim_contradiction'), 'months apart, the same agent’s fee differs: worth a look');
});
