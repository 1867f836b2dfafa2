// Query relevance arithmetic (SEARCH_AND_SCORING.md §3): reciprocal-rank fusion under
// query-rank-v1, normalised scores under query-rank-v2, and the guarantees both share.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SearchPath } from '../../shared/types.ts';
import { contribution, fuse, fusionParameters, rebaseCosine } from '../../server/src/ranking/fusion.ts';
import type { PathHit, PathResult } from '../../server/src/ranking/paths.ts';
import { rankByItem } from '../../server/src/ranking/paths.ts';
import { recencyStrength } from '../../server/src/ranking/recency.ts';
import {
  AUX_SCALE_V2,
  MID_RANK,
  RRF_K,
  VECTOR_FLOOR_V2,
  WEIGHTS_V1,
  WEIGHTS_V2,
} from '../../server/src/ranking/weights.ts';

const v1 = fusionParameters('query-rank-v1');
const v2 = fusionParameters('query-rank-v2');
const close = (actual: number, expected: number, message?: string) => assert.ok(Math.abs(actual - expected) < 1e-12, `${message ?? ''} ${actual} ≠ ${expected}`);

function ranked(path: SearchPath, items: string[], scores?: number[]): PathResult {
  return { path, hits: items.map((itemId, index) => ({ itemId, rank: index + 1, score: scores?.[index] ?? 10 - index })) };
}
function unranked(path: SearchPath, items: string[], score = 1): PathResult {
  return { path, hits: items.map((itemId) => ({ itemId, rank: 0, score })) };
}

test('the v1 weights are exactly the design table', () => {
  assert.deepEqual(WEIGHTS_V1, {
    lexical_items: 1.0, lexical_chunks: 1.0, vector: 1.0, entity: 0.6, title: 0.5, expansion: 0.35, confirmed_relationship: 0.25, recency: 0.15,
  });
  assert.equal(RRF_K, 60);
});

test('under v1 a ranked path contributes weight × 1/(60 + rank)', () => {
  const hit: PathHit = { itemId: 'a', rank: 3, score: 17.2 };
  close(contribution(v1, 'lexical_items', hit, 20), 1 / 63);
  close(contribution(v1, 'vector', { ...hit, score: 0.9 }, 0.9), 1 / 63);
  const fused = fuse(v1, [ranked('lexical_items', ['a', 'b']), ranked('lexical_chunks', ['b', 'a']), ranked('vector', ['a'])]);
  const a = fused.find((item) => item.itemId === 'a')!;
  close(a.total, 1 / 61 + 1 / 62 + 1 / 61, 'a: items rank 1, chunks rank 2, vector rank 1');
  const b = fused.find((item) => item.itemId === 'b')!;
  close(b.total, 1 / 62 + 1 / 61);
  assert.deepEqual(fused.map((item) => item.itemId), ['a', 'b']);
});

test('under v1 an unranked path counts as a mid-ranked hit scaled by its weight and strength', () => {
  const unit = 1 / (RRF_K + MID_RANK);
  close(contribution(v1, 'entity', { itemId: 'a', rank: 0, score: 1 }, 1), 0.6 * unit);
  close(contribution(v1, 'title', { itemId: 'a', rank: 0, score: 1 }, 1), 0.5 * unit);
  close(contribution(v1, 'expansion', { itemId: 'a', rank: 0, score: 0.68 }, 1), 0.35 * 0.68 * unit);
  close(contribution(v1, 'confirmed_relationship', { itemId: 'a', rank: 0, score: 1 }, 1), 0.25 * unit);
  close(contribution(v1, 'recency', { itemId: 'a', rank: 0, score: 0.5 }, 1), 0.15 * 0.5 * unit);
  // It augments rather than swamps: less than the top hit of one ranked path.
  assert.ok(0.6 * unit < 1 / (RRF_K + 1));
});

test('each path contributes to the items it found and to no other', () => {
  const paths = [
    ranked('lexical_items', ['lex']),
    ranked('lexical_chunks', ['chunk']),
    ranked('vector', ['vec'], [0.8]),
    unranked('entity', ['ent']),
    unranked('title', ['tit']),
    unranked('expansion', ['exp'], 0.6),
  ];
  for (const parameters of [v1, v2]) {
    const fused = fuse(parameters, paths);
    for (const [path, itemId] of [['lexical_items', 'lex'], ['lexical_chunks', 'chunk'], ['vector', 'vec'], ['entity', 'ent'], ['title', 'tit'], ['expansion', 'exp']] as const) {
      const item = fused.find((candidate) => candidate.itemId === itemId)!;
      assert.deepEqual(Object.keys(item.contributions), [path], `${parameters.version}: ${itemId} only from ${path}`);
    }
  }
});

test('the best result of every response has relevance 1.00 and the rest are relative to it', () => {
  for (const parameters of [v1, v2]) {
    const fused = fuse(parameters, [ranked('lexical_items', ['a', 'b', 'c']), ranked('vector', ['c', 'b'], [0.9, 0.7]), unranked('entity', ['b'])]);
    assert.equal(fused[0]!.relevance, 1);
    for (const item of fused) {
      assert.ok(item.relevance > 0 && item.relevance <= 1);
      close(item.relevance, item.total / fused[0]!.total);
    }
    assert.deepEqual(fused.map((item) => item.relevance), [...fused.map((item) => item.relevance)].sort((x, y) => y - x));
  }
});

test('recency and the confirmed bonus never return an item on their own', () => {
  for (const parameters of [v1, v2]) {
    const fused = fuse(parameters, [ranked('lexical_items', ['a']), unranked('recency', ['a', 'old']), unranked('confirmed_relationship', ['lonely'])]);
    assert.deepEqual(fused.map((item) => item.itemId), ['a']);
  }
});

test('recency halves every 180 days', () => {
  close(recencyStrength(0), 1);
  close(recencyStrength(180), 0.5);
  close(recencyStrength(360), 0.25);
});

test('under v2 BM25 is divided by the path best and cosine is rebased above the floor', () => {
  close(contribution(v2, 'lexical_items', { itemId: 'a', rank: 2, score: 5 }, 20), WEIGHTS_V2.lexical_items * 0.25);
  close(contribution(v2, 'vector', { itemId: 'a', rank: 1, score: 0.65 }, 0.65), WEIGHTS_V2.vector * rebaseCosine(0.65, VECTOR_FLOOR_V2));
  assert.equal(contribution(v2, 'vector', { itemId: 'a', rank: 1, score: VECTOR_FLOOR_V2 - 0.01 }, 0.5), 0, 'below the floor: no evidence');
  close(contribution(v2, 'entity', { itemId: 'a', rank: 0, score: 1 }, 1), WEIGHTS_V2.entity * AUX_SCALE_V2);
  close(rebaseCosine(1, 0.3), 1);
});

test('under v2 a barely better cosine cannot overturn a clear lexical lead', () => {
  // Lexically, "right" is far ahead; the vector path ranks "wrong" first with a barely better cosine.
  const paths = [
    ranked('lexical_items', ['right', 'wrong'], [20, 4]),
    ranked('lexical_chunks', ['right', 'wrong'], [18, 3]),
    ranked('vector', ['wrong', 'right'], [0.36, 0.35]),
  ];
  assert.equal(fuse(v2, paths)[0]!.itemId, 'right');
});

test('passage hits become item hits ranked by each item best passage', () => {
  const result = rankByItem('lexical_chunks', [
    { itemId: 'x', chunkId: 'x1', score: 9 },
    { itemId: 'y', chunkId: 'y1', score: 8 },
    { itemId: 'x', chunkId: 'x2', score: 7 },
    { itemId: 'z', chunkId: 'z1', score: 6 },
  ]);
  assert.deepEqual(result.hits.map((hit) => [hit.itemId, hit.rank, hit.chunkId]), [['x', 1, 'x1'], ['y', 2, 'y1'], ['z', 3, 'z1']]);
});

test('ties are broken by item id, so the same retrieval always gives the same order', () => {
  const fused = fuse(v1, [unranked('title', ['b', 'a', 'c'])]);
  assert.deepEqual(fused.map((item) => item.itemId), ['a', 'b', 'c']);
});
