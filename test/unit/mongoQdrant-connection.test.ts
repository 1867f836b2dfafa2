// A MongoDB or Qdrant that cannot be used becomes one error naming the service, where it is
// (never the password) and why (mongoQdrant/connection.ts). The servers here are real addresses
// where nothing listens (port 1 on this machine), reached by the real drivers: what a server that
// answers but refuses the credentials says is not shown here (no server can run on this machine),
// only how its error codes are worded.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MongoQdrantLocation } from '../../server/src/store/location.ts';
import {
  databaseName,
  DEFAULT_DATABASE,
  mongoFailureReason,
  mongoHosts,
  qdrantFailureReason,
  StoreConnection,
  StoreUnreachableError,
} from '../../server/src/store/mongoQdrant/connection.ts';
import { openMongoQdrantStore } from '../../server/src/store/mongoQdrant/index.ts';
import { closedPort } from '../support/closedPort.ts';

const nowhere = (overrides: Partial<MongoQdrantLocation> = {}): MongoQdrantLocation => ({
  backend: 'mongodb-qdrant',
  mongodbUri: 'mongodb://relata:s3cret@127.0.0.1:1/relata_test',
  qdrantUrl: 'http://127.0.0.1:1',
  folder: 'folder-key',
  ...overrides,
});

test('the hosts and the database come from the connection string, without user or password', () => {
  assert.equal(mongoHosts('mongodb://user:pw@db1.example:27017,db2.example:27017/relata?replicaSet=rs0'), 'db1.example:27017,db2.example:27017');
  assert.equal(mongoHosts('mongodb+srv://cluster.example'), 'cluster.example');
  assert.equal(databaseName('mongodb://user:pw@db1.example:27017/team_docs?replicaSet=rs0'), 'team_docs');
  assert.equal(databaseName('mongodb://db1.example:27017/?replicaSet=rs0'), DEFAULT_DATABASE);
  assert.equal(databaseName('mongodb://db1.example'), DEFAULT_DATABASE);
});

test('a MongoDB that does not answer is one error naming where and why, without the password', async () => {
  const connection = new StoreConnection({ location: nowhere(), access: 'read', indexes: [], serverSelectionTimeoutMS: 300 });
  try {
    await assert.rejects(connection.db(), (error: Error) => {
      assert.ok(error instanceof StoreUnreachableError);
      assert.equal(error.message, 'cannot reach MongoDB at 127.0.0.1:1 (server selection timed out after 300 ms: connection refused)');
      assert.doesNotMatch(error.message, /s3cret/);
      assert.equal((error as StoreUnreachableError).code, 'RELATA_STORE_UNREACHABLE');
      return true;
    });
  } finally {
    await connection.close();
  }
});

test('a Qdrant that does not answer is one error naming where and why', async () => {
  const port = await closedPort();
  const connection = new StoreConnection({ location: nowhere({ qdrantUrl: `http://127.0.0.1:${port}` }), access: 'read', indexes: [] });
  await assert.rejects(connection.qdrant(), (error: Error) => {
    assert.ok(error instanceof StoreUnreachableError);
    assert.equal(error.message, `cannot reach Qdrant at http://127.0.0.1:${port} (connection refused)`);
    return true;
  });
  await connection.close();
});

test('a failed attempt is not kept: the next operation tries again (a server that comes back is used)', async () => {
  const connection = new StoreConnection({ location: nowhere(), access: 'read', indexes: [] });
  const first = connection.qdrant();
  await assert.rejects(first);
  const second = connection.qdrant();
  assert.notEqual(second, first);
  await assert.rejects(second);
  await connection.close();
});

test('opening the store connects to nothing; its first operation says which server it could not reach', async () => {
  const { store } = openMongoQdrantStore({ location: nowhere(), workspace: 'alice', access: 'read' });
  await assert.rejects(store.getMeta('folder_root'), /^StoreUnreachableError: cannot reach MongoDB at 127\.0\.0\.1:1 \(server selection timed out/);
  await store.close();
});

test('a store opened to read refuses a write before sending anything', async () => {
  const { store, blobs } = openMongoQdrantStore({ location: nowhere(), workspace: 'alice', access: 'read' });
  await assert.rejects(store.setMeta('k', 'v'), /was opened to read: cannot set a setting/);
  await assert.rejects(store.enqueue('parse', 'item-1'), /was opened to read: cannot queue a job/);
  await assert.rejects(blobs.put('a'.repeat(64), new Uint8Array([1])), /was opened to read: cannot store original bytes/);
  await store.close();
});

test('driver errors are worded for a person: refused credentials, an invalid string, an unreachable host', () => {
  assert.equal(mongoFailureReason({ name: 'MongoServerError', code: 18, codeName: 'AuthenticationFailed', message: 'Authentication failed.' }), 'it refused the credentials: authentication failed');
  assert.match(mongoFailureReason({ name: 'MongoParseError', message: 'Invalid scheme' }), /^the connection string is not valid: Invalid scheme/);
  assert.equal(mongoFailureReason({ name: 'MongoServerSelectionError', message: 'getaddrinfo ENOTFOUND db.example' }, 10_000), 'server selection timed out after 10 s: host name not found');
  assert.equal(qdrantFailureReason(new Error('Unexpected Response: 401 (Unauthorized)\nRaw response content:')), 'it refused the API key (HTTP 401)');
  assert.equal(qdrantFailureReason(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } })), 'host name not found');
});
