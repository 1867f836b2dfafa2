// The language server finds each folder's store in its environment (the extension sets it from
// the user's settings and SecretStorage), by the CLI's rules without flags; with none set, the
// folder's SQLite store where the settings put it. What the status shows of it has no password.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { dataDirFor, describeStore, storeLocationFor } from '../../server/src/lsp/folderSession.ts';
import { DEFAULT_SERVER_SETTINGS } from '../../server/src/lsp/server.ts';
import { folderKey } from '../../server/src/store/dataDir.ts';

const folder = path.resolve('/work/contracts');
const settings = { ...DEFAULT_SERVER_SETTINGS, dataLocation: '/data/relata' };
const URI = 'mongodb://alice:p%40ss@db.example:27017/relata';
const QDRANT = 'https://qdrant.example:6333';

test('without store variables the folder keeps its SQLite store where the settings put it', () => {
  assert.deepEqual(storeLocationFor(folder, settings, {}), { backend: 'sqlite', dataDir: dataDirFor(folder, settings) });
  assert.deepEqual(storeLocationFor(folder, settings, { RELATA_STORE: 'sqlite', RELATA_MONGODB_URI: URI, RELATA_QDRANT_URL: QDRANT }), {
    backend: 'sqlite',
    dataDir: dataDirFor(folder, settings),
  }, 'RELATA_STORE=sqlite outranks a URI left in the environment');
});

test('RELATA_STORE=mongodb-qdrant (or a URI in it) opens the shared store under the folder key every machine derives alike', () => {
  const expected = { backend: 'mongodb-qdrant', mongodbUri: URI, qdrantUrl: QDRANT, qdrantApiKey: 'k', folder: folderKey(folder) };
  const env = { RELATA_STORE: 'mongodb-qdrant', RELATA_MONGODB_URI: URI, RELATA_QDRANT_URL: QDRANT, RELATA_QDRANT_API_KEY: 'k' };
  assert.deepEqual(storeLocationFor(folder, settings, env), expected);
  assert.deepEqual(storeLocationFor(folder, settings, { RELATA_STORE: URI, RELATA_QDRANT_URL: QDRANT, RELATA_QDRANT_API_KEY: 'k' }), expected);
  assert.equal(folderKey(folder), folderKey(`${folder}/`), 'the key is the folder, however it is written');
});

test('a MongoDB store without its Qdrant service, or a store variable of the wrong form, is refused naming the variable, never a password', () => {
  assert.throws(() => storeLocationFor(folder, settings, { RELATA_STORE: 'mongodb-qdrant', RELATA_MONGODB_URI: URI }), /RELATA_QDRANT_URL/);
  assert.throws(() => storeLocationFor(folder, settings, { RELATA_STORE: 'mongodb-qdrant' }), /RELATA_MONGODB_URI/);
  assert.throws(
    () => storeLocationFor(folder, settings, { RELATA_STORE: 'mongodb-qdrant', RELATA_MONGODB_URI: 'mysql://alice:secret@db/x', RELATA_QDRANT_URL: QDRANT }),
    (error: unknown) => /RELATA_MONGODB_URI/.test((error as Error).message) && !(error as Error).message.includes('secret'),
  );
  assert.throws(() => storeLocationFor(folder, settings, { RELATA_STORE: URI, RELATA_QDRANT_URL: 'qdrant.example:6333' }), /RELATA_QDRANT_URL/);
});

test('the status says which backend and where, with the password taken out', () => {
  const location = storeLocationFor(folder, settings, { RELATA_STORE: URI, RELATA_QDRANT_URL: QDRANT });
  const shown = describeStore(location);
  assert.equal(shown.backend, 'mongodb-qdrant');
  assert.equal(shown.where, `mongodb://***@db.example:27017/relata + ${QDRANT} (folder ${folderKey(folder)})`);
  assert.ok(!JSON.stringify(shown).includes('p%40ss'));
  assert.deepEqual(describeStore(storeLocationFor(folder, settings, {})), { backend: 'sqlite', where: dataDirFor(folder, settings) });
});
