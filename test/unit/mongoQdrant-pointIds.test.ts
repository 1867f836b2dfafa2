// Qdrant point ids of the MongoDB + Qdrant store (mongoQdrant/pointIds.ts): derived, never drawn,
// so that embedding a chunk again overwrites its points on any machine instead of adding copies.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import {
  pointIdIn,
  uuidV5,
  vectorCollectionName,
  vectorPointId,
  type PointName,
} from '../../server/src/store/mongoQdrant/pointIds.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const NAME: PointName = { workspace: 'alice', folder: 'f-1a2b', modelId: 'use-lite@1', chunkId: 'chunk-7', window: 2 };
/** RFC 4122: version 5 in the third group, the variant's 10xx bits leading the fourth. */
const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('the same chunk window in the same scope and model always gets the same point id', () => {
  assert.equal(vectorPointId(NAME), vectorPointId({ ...NAME }));
  assert.equal(pointIdIn({ workspace: 'alice', folder: 'f-1a2b' }, 'use-lite@1', 'chunk-7', 2), vectorPointId(NAME));
});

test('a point id is a version-5 UUID, the form Qdrant accepts', () => {
  for (let window = 0; window < 50; window += 1) assert.match(vectorPointId({ ...NAME, window }), UUID_V5);
});

test('changing any one part of the name changes the id', () => {
  const changed: PointName[] = [
    { ...NAME, workspace: 'bob' },
    { ...NAME, folder: 'f-9z' },
    { ...NAME, modelId: 'e5-small@1' },
    { ...NAME, chunkId: 'chunk-8' },
    { ...NAME, window: 3 },
  ];
  const ids = new Set([vectorPointId(NAME), ...changed.map(vectorPointId)]);
  assert.equal(ids.size, changed.length + 1);
});

test('no separator inside a name can make two different names collide', () => {
  // Joined with a separator these two would read alike; as JSON arrays they cannot.
  const a = vectorPointId({ ...NAME, workspace: 'a\nb', folder: 'c' });
  const b = vectorPointId({ ...NAME, workspace: 'a', folder: 'b\nc' });
  assert.notEqual(a, b);
});

test('a window that is not a whole number from 0 is refused, naming the chunk', () => {
  assert.throws(() => vectorPointId({ ...NAME, window: -1 }), /chunk-7/);
  assert.throws(() => vectorPointId({ ...NAME, window: 1.5 }), /whole number/);
});

test('another process derives the same id (nothing depends on the process or the run)', () => {
  const script = `import { vectorPointId } from './server/src/store/mongoQdrant/pointIds.ts';
process.stdout.write(vectorPointId(${JSON.stringify(NAME)}));`;
  const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(output, vectorPointId(NAME));
});

test('the UUID derivation is RFC 4122 version 5 (the RFC\'s DNS namespace example)', () => {
  const dns = Buffer.from('6ba7b8109dad11d180b400c04fd430c8', 'hex');
  assert.equal(uuidV5(dns, 'www.example.com'), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
});

test('one collection per dimension, under a prefix tests can change', () => {
  assert.equal(vectorCollectionName(384), 'relata_vectors_384');
  assert.equal(vectorCollectionName(384, 'test_run_'), 'test_run_384');
  assert.throws(() => vectorCollectionName(0), /unsupported vector dimension/);
  assert.throws(() => vectorCollectionName(1.5), /unsupported vector dimension/);
});
