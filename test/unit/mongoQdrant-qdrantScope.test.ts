// The privacy boundary in Qdrant (mongoQdrant/qdrantScope.ts): every search, scroll, count and
// delete must require this store's workspace and folder, and every point written must carry them.
//
// The guard is pure and tested on the filter objects themselves. ScopedPoints is also run against
// a stand-in for QdrantClient that only records which methods were called: it stands for "the
// request reached Qdrant" and shows that a refused request never does, and that an accepted one is
// passed on as built. It cannot show what Qdrant does with a filter; the contract suite's
// MongoDB + Qdrant half (a second workspace and folder on the same server see nothing) does.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QdrantClient } from '@qdrant/js-client-rest';
import {
  matchAny,
  matchValue,
  pointFilterBindsScope,
  pointInScope,
  ScopedPoints,
  scopedPointFilter,
} from '../../server/src/store/mongoQdrant/qdrantScope.ts';
import { UnscopedOperationError } from '../../server/src/store/mongoQdrant/scope.ts';

const SCOPE = { workspace: 'alice', folder: 'f-1' };
const bound = (...more: object[]) => ({ must: [matchValue('workspace', 'alice'), matchValue('folder', 'f-1'), ...more] });

test('a filter requiring both scope fields in `must` binds the scope, whatever else it adds', () => {
  assert.equal(pointFilterBindsScope(scopedPointFilter(SCOPE), SCOPE), true);
  assert.equal(pointFilterBindsScope(bound(matchAny('item_id', ['a', 'b'])), SCOPE), true);
  assert.equal(pointFilterBindsScope({ ...bound(), must_not: [{ has_id: ['x'] }], should: [matchValue('window', 0)] }, SCOPE), true);
});

test('filters that leave the scope open are refused', () => {
  const refused: [string, unknown][] = [
    ['no filter', undefined],
    ['an empty filter', {}],
    ['the workspace alone', { must: [matchValue('workspace', 'alice')] }],
    ['the folder alone', { must: [matchValue('folder', 'f-1')] }],
    ['another workspace', { must: [matchValue('workspace', 'bob'), matchValue('folder', 'f-1')] }],
    ['another folder', { must: [matchValue('workspace', 'alice'), matchValue('folder', 'f-2')] }],
    ['the scope in `should` (one branch may match anything)', { should: [matchValue('workspace', 'alice'), matchValue('folder', 'f-1')] }],
    ['the scope in `must_not`', { must_not: [matchValue('workspace', 'alice'), matchValue('folder', 'f-1')] }],
    ['the scope inside a nested filter', { must: [{ should: [matchValue('workspace', 'alice')] }, matchValue('folder', 'f-1')] }],
    ['a match on any of several workspaces', { must: [matchAny('workspace', ['alice', 'bob']), matchValue('folder', 'f-1')] }],
    ['a scope condition that also tests emptiness', { must: [{ key: 'workspace', match: { value: 'alice' }, is_empty: true }, matchValue('folder', 'f-1')] }],
    ['a match that is not an exact value', { must: [{ key: 'workspace', match: { text: 'alice' } }, matchValue('folder', 'f-1')] }],
  ];
  for (const [what, filter] of refused) assert.equal(pointFilterBindsScope(filter, SCOPE), false, what);
});

test('a single `must` condition object is read as Qdrant reads it, and must still bind both fields', () => {
  assert.equal(pointFilterBindsScope({ must: matchValue('workspace', 'alice') }, SCOPE), false);
});

test('a point to write must carry this scope in its payload', () => {
  assert.equal(pointInScope({ id: 'p', vector: [1], payload: { workspace: 'alice', folder: 'f-1' } }, SCOPE), true);
  assert.equal(pointInScope({ id: 'p', vector: [1], payload: { workspace: 'alice' } }, SCOPE), false);
  assert.equal(pointInScope({ id: 'p', vector: [1], payload: { workspace: 'bob', folder: 'f-1' } }, SCOPE), false);
  assert.equal(pointInScope({ id: 'p', vector: [1] }, SCOPE), false);
});

/** A QdrantClient that records the calls that reach it (see the top of this file). */
function recordingClient() {
  const calls: string[] = [];
  const answer = (name: string, result: unknown) => async () => {
    calls.push(name);
    return result;
  };
  const client = {
    upsert: answer('upsert', { status: 'completed' }),
    query: answer('query', { points: [] }),
    queryBatch: answer('queryBatch', []),
    queryGroups: answer('queryGroups', { groups: [] }),
    scroll: answer('scroll', { points: [] }),
    count: answer('count', { count: 0 }),
    delete: answer('delete', { status: 'completed' }),
  } as unknown as QdrantClient;
  return { client, calls };
}

test('an unscoped search, scroll, count or delete is refused before it reaches Qdrant', async () => {
  const { client, calls } = recordingClient();
  const points = new ScopedPoints(client, SCOPE);
  const open = { must: [matchValue('model_id', 'm')] };
  const attempts: [string, () => Promise<unknown>][] = [
    ['query', () => points.query('c', { query: [1, 0], filter: open })],
    ['batch query', () => points.queryBatch('c', [{ query: [1, 0], filter: scopedPointFilter(SCOPE) }, { query: [0, 1], filter: open }])],
    ['grouped query', () => points.queryGroups('c', { query: [1, 0], filter: open, group_by: 'item_id', group_size: 1 })],
    ['scroll', () => points.scroll('c', { filter: open })],
    ['count', () => points.count('c', open)],
    ['delete', () => points.delete('c', open)],
    ['upsert', () => points.upsert('c', [{ id: 'p', vector: [1, 0], payload: { workspace: 'bob', folder: 'f-1' } }])],
  ];
  for (const [what, attempt] of attempts) await assert.rejects(attempt, UnscopedOperationError, what);
  assert.deepEqual(calls, []);
});

test('a query that could read vectors outside the filter (by point id, prefetch, another collection) is refused', async () => {
  const { client, calls } = recordingClient();
  const points = new ScopedPoints(client, SCOPE);
  const filter = scopedPointFilter(SCOPE);
  await assert.rejects(() => points.query('c', { query: 'a-point-id', filter }), /nearest-vector query/);
  await assert.rejects(() => points.query('c', { query: { nearest: 'a-point-id' }, filter }), /nearest-vector query/);
  await assert.rejects(() => points.query('c', { query: [1, 0], filter, prefetch: { query: [1, 0], limit: 10 } }), /prefetch/);
  await assert.rejects(() => points.query('c', { query: [1, 0], filter, lookup_from: { collection: 'other' } }), /look-up/);
  assert.deepEqual(calls, []);
});

test('scoped requests pass through with the scope in their filter', async () => {
  const { client, calls } = recordingClient();
  const points = new ScopedPoints(client, SCOPE);
  await points.query('c', { query: { nearest: [1, 0] }, filter: points.filter([matchValue('model_id', 'm')]) });
  await points.queryBatch('c', [{ query: [1, 0], filter: points.filter() }]);
  await points.scroll('c', { filter: points.filter([{ has_id: ['p'] }]) });
  await points.count('c', points.filter());
  await points.delete('c', points.filter([matchAny('item_id', ['a'])], [{ has_id: ['p'] }]));
  await points.upsert('c', [{ id: 'p', vector: [1, 0], payload: { workspace: 'alice', folder: 'f-1' } }]);
  assert.deepEqual(calls, ['query', 'queryBatch', 'scroll', 'count', 'delete', 'upsert']);
});
