// Which store a command opens, from its flags and the environment (cli/storeFlags.ts): SQLite by
// default, MongoDB + Qdrant when asked, flags over the environment, and a usage error (never a
// guess) for a combination that cannot be meant. No password ever appears in a message.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { existingStoreLocation, folderKeyOf, locationForFolder, storeChoice } from '../../server/src/cli/storeFlags.ts';
import { UsageError } from '../../server/src/cli/usage.ts';
import { defaultDataDir, folderKey } from '../../server/src/store/dataDir.ts';
import { openStore } from '../../server/src/store/index.ts';
import { tempDir } from '../support/tempFolder.ts';

const MONGO = 'mongodb://relata:s3cret@db1:27017,db2:27017/relata?replicaSet=rs0';
const QDRANT = 'http://qdrant:6333';
const NO_ENV = {};

function usageError(run: () => unknown, pattern: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof UsageError, `a UsageError (exit 2), not ${String(error)}`);
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes('s3cret'), `no password in: ${error.message}`);
    return true;
  });
}

test('with no flag and no environment, the store is SQLite in the folder’s default data directory', () => {
  const choice = storeChoice({}, NO_ENV);
  assert.deepEqual(choice, { backend: 'sqlite', data: null, folder: null });
  assert.deepEqual(locationForFolder(choice, '/srv/docs'), { backend: 'sqlite', dataDir: defaultDataDir('/srv/docs') });
});

test('--store with --qdrant chooses MongoDB + Qdrant, and the folder’s key is derived from its absolute path', () => {
  for (const uri of [MONGO, 'mongodb+srv://cluster0.example.net/relata']) {
    const location = locationForFolder(storeChoice({ store: uri, qdrant: QDRANT }, NO_ENV), 'docs');
    assert.deepEqual(location, { backend: 'mongodb-qdrant', mongodbUri: uri, qdrantUrl: QDRANT, folder: folderKey(path.resolve('docs')) });
  }
});

test('the environment chooses the store when no flag does, with the Qdrant API key from RELATA_QDRANT_API_KEY only', () => {
  const env = { RELATA_STORE: MONGO, RELATA_QDRANT_URL: 'https://qdrant.example:6333', RELATA_QDRANT_API_KEY: 'key-1' };
  assert.deepEqual(storeChoice({}, env), {
    backend: 'mongodb-qdrant', mongodbUri: MONGO, qdrantUrl: 'https://qdrant.example:6333', qdrantApiKey: 'key-1', folder: null,
  });
  // The URI may stay out of the process list: RELATA_STORE (or --store) mongodb-qdrant reads RELATA_MONGODB_URI.
  const fromUriVariable = storeChoice({ store: 'mongodb-qdrant' }, { RELATA_MONGODB_URI: MONGO, RELATA_QDRANT_URL: QDRANT });
  assert.equal(fromUriVariable.backend === 'mongodb-qdrant' && fromUriVariable.mongodbUri, MONGO);
  assert.equal(storeChoice({}, { RELATA_STORE: 'sqlite', RELATA_QDRANT_URL: QDRANT }).backend, 'sqlite', 'a Qdrant address alone moves nothing');
});

test('flags win over the environment: --data alone means that SQLite store even when RELATA_STORE names MongoDB', () => {
  const env = { RELATA_STORE: MONGO, RELATA_QDRANT_URL: QDRANT };
  assert.deepEqual(storeChoice({ data: '/var/relata' }, env), { backend: 'sqlite', data: '/var/relata', folder: null });
  assert.equal(storeChoice({ store: 'sqlite' }, env).backend, 'sqlite');
  const qdrantFlag = storeChoice({ qdrant: 'http://other:6333' }, env);
  assert.equal(qdrantFlag.backend === 'mongodb-qdrant' && qdrantFlag.qdrantUrl, 'http://other:6333');
});

test('a MongoDB store without a Qdrant address is a usage error that says how to give one', () => {
  usageError(() => storeChoice({ store: MONGO }, NO_ENV), /--qdrant http:\/\/host:6333.*RELATA_QDRANT_URL/);
  usageError(() => storeChoice({}, { RELATA_STORE: MONGO }), /--qdrant/);
});

test('a Qdrant address that is not http(s) is a usage error', () => {
  for (const qdrant of ['ftp://qdrant:6333', 'qdrant:6333', 'grpc://qdrant:6334', 'not a url']) {
    usageError(() => storeChoice({ store: MONGO, qdrant }, NO_ENV), /--qdrant must be an http:\/\/ or https:\/\/ address/);
  }
  usageError(() => storeChoice({}, { RELATA_STORE: MONGO, RELATA_QDRANT_URL: 'tcp://q' }), /RELATA_QDRANT_URL must be an http/);
});

test('--data together with a MongoDB store is a usage error', () => {
  usageError(() => storeChoice({ store: MONGO, qdrant: QDRANT, data: '/var/relata' }, NO_ENV), /--data is the directory of a SQLite store/);
});

test('--qdrant with a SQLite store, an unknown --store and an unset RELATA_MONGODB_URI are usage errors', () => {
  usageError(() => storeChoice({ qdrant: QDRANT }, NO_ENV), /--qdrant is the Qdrant service of a MongoDB store/);
  usageError(() => storeChoice({ data: '/d', qdrant: QDRANT }, NO_ENV), /--qdrant/);
  usageError(() => storeChoice({ store: 'postgres://relata:s3cret@pg/db' }, NO_ENV), /--store must be sqlite, mongodb-qdrant, or a mongodb:\/\/.*postgres:\/\/\*\*\*@pg/);
  usageError(() => storeChoice({}, { RELATA_STORE: 'redis://x' }), /RELATA_STORE must be/);
  usageError(() => storeChoice({ store: 'mongodb-qdrant', qdrant: QDRANT }, NO_ENV), /RELATA_MONGODB_URI, which is not set/);
});

test('--folder names a folder on a shared store by its key, or by a path whose key is derived', () => {
  const noDirectories = () => false;
  assert.equal(folderKeyOf('docs-0123456789ab', noDirectories), 'docs-0123456789ab');
  assert.equal(folderKeyOf('/srv/docs', noDirectories), folderKey('/srv/docs'));
  assert.equal(folderKeyOf('.', noDirectories), folderKey(process.cwd()));
  // A name that is also a directory here is that directory: the key `relata status` shows never is one.
  assert.equal(folderKeyOf('docs', (candidate) => candidate === path.resolve('docs')), folderKey(path.resolve('docs')));
  const location = locationForFolder(storeChoice({ store: MONGO, qdrant: QDRANT, folder: 'team-docs-0123456789ab' }, NO_ENV), '/elsewhere/docs');
  assert.equal(location.backend === 'mongodb-qdrant' && location.folder, 'team-docs-0123456789ab', '--folder wins over the folder given');
});

test('an existing store on a shared server is the key of the directory a command runs about; on SQLite, the data directory found', async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'docs');
  mkdirSync(path.join(folder, 'sub'), { recursive: true });
  const mongo = existingStoreLocation(storeChoice({ store: MONGO, qdrant: QDRANT }, NO_ENV), folder);
  assert.equal(mongo.backend === 'mongodb-qdrant' && mongo.folder, folderKey(folder));

  const data = path.join(root, 'data');
  usageError(() => existingStoreLocation(storeChoice({ data }, NO_ENV), folder), /no Relata store in .*run `relata index <folder> --data/);
  await openStore({ dataDir: data, workspace: 'flags' }).close();
  assert.deepEqual(existingStoreLocation(storeChoice({ data }, NO_ENV), folder), { backend: 'sqlite', dataDir: data });
});

test('--data naming the editor\'s data location (one store per folder) finds the folder\'s store, or names the stores it holds', async (t) => {
  const root = tempDir(t);
  const folder = path.join(root, 'guides');
  mkdirSync(path.join(folder, 'sub'), { recursive: true });
  const location = path.join(root, 'editor-stores');
  // As the editor lays them out (lsp/folderSession.ts dataDirFor): the default directory's name, under the location.
  const guidesStore = path.join(location, path.basename(defaultDataDir(folder)));
  await openStore({ dataDir: guidesStore, workspace: 'flags' }).close();
  assert.deepEqual(existingStoreLocation(storeChoice({ data: location }, NO_ENV), path.join(folder, 'sub')), { backend: 'sqlite', dataDir: guidesStore });
  usageError(
    () => existingStoreLocation(storeChoice({ data: location }, NO_ENV), path.join(root, 'elsewhere')),
    new RegExp(`holds the stores of several folders \\(${path.basename(guidesStore)}\\): run the command inside the folder, or pass --data`),
  );
});

test('a Qdrant API key is never sent over plain http to another machine; https, or http on this machine, is fine', () => {
  const key = { RELATA_QDRANT_API_KEY: 'secret-key' };
  assert.throws(
    () => storeChoice({ store: MONGO, qdrant: 'http://qdrant.example:6333' }, key),
    (error: Error) => error instanceof UsageError && /plain http to http:\/\/qdrant\.example:6333/.test(error.message) && !error.message.includes('secret-key'),
  );
  assert.equal(storeChoice({ store: MONGO, qdrant: 'https://qdrant.example:6333' }, key).backend, 'mongodb-qdrant');
  assert.equal(storeChoice({ store: MONGO, qdrant: 'http://127.0.0.1:6333' }, key).backend, 'mongodb-qdrant');
  // Without a key, plain http carries no secret (vectors and ids only) and is allowed.
  assert.equal(storeChoice({ store: MONGO, qdrant: 'http://qdrant.example:6333' }, {}).backend, 'mongodb-qdrant');
});
