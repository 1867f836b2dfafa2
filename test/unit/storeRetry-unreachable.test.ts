// A MongoDB or Qdrant server that does not answer is waited out (the watcher and the language
// server keep the work and retry), while refused credentials are not: waiting would not fix them.
// The connection errors are the official clients' own, raised by connecting to a port on this
// machine where nothing listens; no server is needed for that.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QdrantClient, QdrantClientUnexpectedResponseError } from '@qdrant/js-client-rest';
import { MongoClient, MongoServerError } from 'mongodb';
import { describeRetry, unreachableReason, withoutCredentials } from '../../server/src/engine/storeRetry.ts';
import { isStoreBusy, isStoreUnreachable, isWorthRetrying } from '../../server/src/store/transientFailure.ts';
import { mongoFailureReason, qdrantFailureReason, StoreConnection, StoreUnreachableError } from '../../server/src/store/mongoQdrant/connection.ts';
import { closedPort } from '../support/closedPort.ts';

async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

test('MongoDB that does not answer is a store unreachable, said in one line naming MongoDB and where, and retried', async () => {
  const port = await closedPort();
  const client = new MongoClient(`mongodb://alice:hunter2@127.0.0.1:${port}/relata`, { serverSelectionTimeoutMS: 300 });
  const error = await failureOf(() => client.connect());
  await client.close();
  assert.equal((error as Error).name, 'MongoServerSelectionError');
  assert.equal(isStoreUnreachable(error), true);
  assert.equal(isWorthRetrying(error), true);
  assert.equal(isStoreBusy(error), false);
  assert.equal(unreachableReason(error), `MongoDB: connect ECONNREFUSED 127.0.0.1:${port}`);
  const said = describeRetry(new Error('ingest failed', { cause: error }), 2000);
  assert.equal(said, `store unreachable (MongoDB: connect ECONNREFUSED 127.0.0.1:${port}); will retry in 2 s`);
  assert.ok(!said.includes('hunter2') && !said.includes('\n'));
});

test('Qdrant that does not answer is a store unreachable, named by its connection error rather than "fetch failed"', async () => {
  const port = await closedPort();
  const qdrant = new QdrantClient({ url: `http://127.0.0.1:${port}`, checkCompatibility: false });
  const error = await failureOf(() => qdrant.getCollections());
  assert.equal((error as Error).message, 'fetch failed');
  assert.equal(isStoreUnreachable(error), true);
  assert.equal(unreachableReason(error), `Qdrant: connect ECONNREFUSED 127.0.0.1:${port}`);
  assert.equal(describeRetry(error, 10_000), `store unreachable (Qdrant: connect ECONNREFUSED 127.0.0.1:${port}); will retry in 10 s`);
});

test('refused credentials and ordinary failures are not waited out', () => {
  const authentication = new MongoServerError({ message: 'Authentication failed.', code: 18, codeName: 'AuthenticationFailed' });
  assert.equal(isStoreUnreachable(authentication), false);
  assert.equal(isStoreUnreachable(new Error('selection failed', { cause: authentication })), false, 'even under a network-looking wrapper');
  const response = (status: number, statusText: string) =>
    QdrantClientUnexpectedResponseError.forResponse({ status, statusText, data: { status: { error: statusText } }, ok: false, headers: new Headers(), url: '' });
  assert.equal(isStoreUnreachable(response(401, 'Unauthorized')), false, 'a wrong API key');
  assert.equal(isStoreUnreachable(response(403, 'Forbidden')), false);
  const qdrantRestarting = response(503, 'Service Unavailable');
  assert.equal(isStoreUnreachable(qdrantRestarting), true, 'a gateway with Qdrant behind it restarting is waited out');
  assert.equal(isWorthRetrying(new Error('PDF has no pages')), false);
  assert.equal(isWorthRetrying(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })), true, 'a busy SQLite store still is');
});

test('a connection string quoted in a message loses its user and password', () => {
  assert.equal(
    withoutCredentials('could not reach mongodb://alice:p%40ss@db.example:27017/relata and http://k:v@q.example:6333'),
    'could not reach mongodb://***@db.example:27017/relata and http://***@q.example:6333',
  );
  const own = Object.assign(new Error('MongoDB at mongodb://alice:pw@db.example:27017 did not answer in 30 s'), { code: 'RELATA_STORE_UNREACHABLE' });
  assert.equal(isStoreUnreachable(own), true, "the store's own error for a server it could not reach");
  assert.equal(unreachableReason(own), 'MongoDB at mongodb://***@db.example:27017 did not answer in 30 s');
});

test("the store's own error for a server it cannot use is waited out when the server is away, not when it refuses the key", async () => {
  const port = await closedPort();
  const location = { backend: 'mongodb-qdrant' as const, mongodbUri: 'mongodb://db.example/relata', qdrantUrl: `http://127.0.0.1:${port}`, folder: 'contracts-0123456789ab' };
  const connection = new StoreConnection({ location, access: 'read', indexes: [] });
  const away = await failureOf(() => connection.qdrant());
  await connection.close();
  assert.equal(isStoreUnreachable(away), true);
  assert.equal(describeRetry(away, 4000), `${(away as Error).message}; will retry in 4 s`, 'its own words, which name Qdrant and where');
  assert.match((away as Error).message, new RegExp(`Qdrant at http://127\\.0\\.0\\.1:${port}`));

  const wrongKey = QdrantClientUnexpectedResponseError.forResponse({ status: 403, statusText: 'Forbidden', data: null, ok: false, headers: new Headers(), url: '' });
  const refused = new StoreUnreachableError('Qdrant', location.qdrantUrl, qdrantFailureReason(wrongKey), { cause: wrongKey });
  assert.equal(isStoreUnreachable(refused), false);
  const authentication = new MongoServerError({ message: 'Authentication failed.', code: 18, codeName: 'AuthenticationFailed' });
  assert.equal(isStoreUnreachable(new StoreUnreachableError('MongoDB', 'db.example', mongoFailureReason(authentication), { cause: authentication })), false);
});
