// The store the editor's language server opens: chosen in the user's settings only, with the
// MongoDB user and password and the Qdrant API key in VS Code's SecretStorage, composed in memory
// into the server's environment, and read back there by the server's own resolver. The MongoDB
// driver's own parser (new MongoClient, which does not connect) checks the composed URI.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MongoClient } from 'mongodb';
import { initializationOptions, serverSettings, settingReader, type SettingReader } from '../../client/src/settings.ts';
import {
  mongodbUriProblem,
  qdrantUrlProblem,
  serverEnvironment,
  storeEnvironment,
  storeSettings,
  StoreSettingsError,
  type StoreSecrets,
} from '../../client/src/storeConnection.ts';
import { askStoreCredentials, clearStoreCredentials, readStoreSecrets, STORE_SECRET_KEYS, type PromptOptions, type SecretStore } from '../../client/src/storeCredentials.ts';
import { summarizeStatus } from '../../client/src/statusSummary.ts';
import { dataDirFor, storeLocationFor } from '../../server/src/lsp/folderSession.ts';
import { DEFAULT_SERVER_SETTINGS } from '../../server/src/lsp/server.ts';
import { folderKey } from '../../server/src/store/dataDir.ts';
import type { FolderStatus } from '../../shared/protocol.ts';
import { configuration } from '../support/settingsSource.ts';

const PASSWORD = 'p@ss:w/rd%?#[]é &+';
const API_KEY = 'qdrant-key-4b1d';
const MONGO = 'mongodb://db1.example:27017,db2.example:27018/relata?replicaSet=rs0&authSource=admin';
const QDRANT = 'https://qdrant.example:6333';

const reader = (values: Record<string, unknown>): SettingReader => <T>(key: string, fallback: T) => (key in values ? (values[key] as T) : fallback);
const mongoSettings = reader({ 'store.backend': 'mongodb-qdrant', 'store.mongodbUri': MONGO, 'store.qdrantUrl': QDRANT });

/** SecretStorage as VS Code's API shapes it, kept in a map: the commands need nothing more. */
class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  async get(key: string) {
    return this.values.get(key);
  }
  async store(key: string, value: string) {
    this.values.set(key, value);
  }
  async delete(key: string) {
    this.values.delete(key);
  }
}

/** Answers the input boxes in order, recording what each asked. */
function answering(...answers: (string | undefined)[]) {
  const asked: PromptOptions[] = [];
  return { asked, prompt: async (options: PromptOptions) => (asked.push(options), answers.shift()) };
}

test('the MongoDB URI reaches the server with the user and password percent-encoded, and the driver reads back exactly them', () => {
  const env = storeEnvironment(storeSettings(mongoSettings), { mongodbUser: 'al ice@corp', mongodbPassword: PASSWORD, qdrantApiKey: API_KEY });
  assert.equal(env.RELATA_STORE, 'mongodb-qdrant');
  assert.equal(env.RELATA_QDRANT_URL, QDRANT);
  assert.equal(env.RELATA_QDRANT_API_KEY, API_KEY);
  const uri = env.RELATA_MONGODB_URI!;
  assert.ok(!uri.includes(PASSWORD), 'the password is encoded, not pasted');
  const parsed = new MongoClient(uri).options;
  assert.equal(parsed.credentials?.username, 'al ice@corp');
  assert.equal(parsed.credentials?.password, PASSWORD);
  assert.deepEqual(parsed.hosts.map(String), ['db1.example:27017', 'db2.example:27018'], 'every host of the replica set is kept');
  assert.equal(parsed.replicaSet, 'rs0');
  assert.equal(parsed.dbName, 'relata');

  const srv = storeEnvironment({ backend: 'mongodb-qdrant', mongodbUri: 'mongodb+srv://cluster0.example.net/relata', qdrantUrl: QDRANT }, { mongodbUser: 'bob' });
  assert.equal(srv.RELATA_MONGODB_URI, 'mongodb+srv://bob@cluster0.example.net/relata', 'a user without a password (X.509, Kerberos) has no colon');
  assert.equal('RELATA_QDRANT_API_KEY' in srv, false, 'no key stored, none sent');
  const anonymous = storeEnvironment(storeSettings(mongoSettings), {});
  assert.equal(anonymous.RELATA_MONGODB_URI, MONGO, 'no credentials: the setting as written');
});

test('the environment the client composes is the store the server resolves, for MongoDB + Qdrant and for SQLite', () => {
  const folder = path.resolve('/work/contracts');
  const env = storeEnvironment(storeSettings(mongoSettings), { mongodbUser: 'alice', mongodbPassword: PASSWORD, qdrantApiKey: API_KEY });
  assert.deepEqual(storeLocationFor(folder, DEFAULT_SERVER_SETTINGS, serverEnvironment({ PATH: '/usr/bin' }, {}, env)), {
    backend: 'mongodb-qdrant',
    mongodbUri: env.RELATA_MONGODB_URI,
    qdrantUrl: QDRANT,
    qdrantApiKey: API_KEY,
    folder: folderKey(folder),
  });
  const settings = { ...DEFAULT_SERVER_SETTINGS, dataLocation: '/data/relata' };
  const sqlite = serverEnvironment({}, {}, storeEnvironment(storeSettings(reader({})), {}));
  assert.deepEqual(storeLocationFor(folder, settings, sqlite), { backend: 'sqlite', dataDir: dataDirFor(folder, settings) });
});

test('a store variable inherited from the shell that started VS Code cannot choose the store: the settings do', () => {
  const shell = { PATH: '/usr/bin', RELATA_STORE: 'mongodb-qdrant', RELATA_MONGODB_URI: 'mongodb://elsewhere.example/x', RELATA_QDRANT_URL: 'http://elsewhere.example:6333', RELATA_QDRANT_API_KEY: 'old' };
  const env = serverEnvironment(shell, { ELECTRON_RUN_AS_NODE: '1' }, storeEnvironment(storeSettings(reader({})), {}));
  assert.deepEqual(env, { PATH: '/usr/bin', ELECTRON_RUN_AS_NODE: '1', RELATA_STORE: 'sqlite' });
  assert.equal(storeLocationFor('/work/contracts', DEFAULT_SERVER_SETTINGS, env).backend, 'sqlite');
});

test('a MongoDB URI with a password in the setting is refused, pointing to Relata: Set Store Credentials', () => {
  const withPassword = reader({ 'store.backend': 'mongodb-qdrant', 'store.mongodbUri': 'mongodb://alice:hunter2@db.example:27017/relata', 'store.qdrantUrl': QDRANT });
  assert.throws(
    () => storeEnvironment(storeSettings(withPassword), {}),
    (error: unknown) =>
      error instanceof StoreSettingsError &&
      error.setting === 'relata.store.mongodbUri' &&
      /must not carry a password/.test(error.message) &&
      /Relata: Set Store Credentials/.test(error.message) &&
      !error.message.includes('hunter2'),
  );
  assert.match(mongodbUriProblem('mongodb://alice@db.example/relata')!, /must not carry a user name.*Set Store Credentials/);
  assert.match(mongodbUriProblem('mongodb+srv://:pw@cluster0.example.net')!, /must not carry a password/);
  assert.match(mongodbUriProblem('')!, /is empty/);
  assert.match(mongodbUriProblem('postgres://db.example/relata')!, /must start with mongodb:\/\/ or mongodb\+srv:\/\//);
  assert.match(qdrantUrlProblem('https://user:key@qdrant.example:6333')!, /must not carry credentials.*Set Store Credentials/);
  assert.match(qdrantUrlProblem('qdrant.example:6333')!, /http:\/\/ or https:\/\//);
  assert.equal(mongodbUriProblem(MONGO), null);
  assert.equal(qdrantUrlProblem(QDRANT), null);
  assert.throws(() => storeEnvironment(storeSettings(reader({ 'store.backend': 'mongodb-qdrant', 'store.mongodbUri': MONGO })), {}), (error: unknown) =>
    error instanceof StoreSettingsError && error.setting === 'relata.store.qdrantUrl');
});

/** A configuration as VS Code's inspect() reports it: each scope's value separately. */
test('a workspace cannot choose the store backend, the MongoDB URI or the Qdrant URL: only the user can', () => {
  const hostile = configuration({
    'store.backend': { defaultValue: 'sqlite', workspaceValue: 'mongodb-qdrant' },
    'store.mongodbUri': { defaultValue: '', workspaceFolderValue: 'mongodb://collector.example/loot' },
    'store.qdrantUrl': { defaultValue: '', workspaceValue: 'http://collector.example:6333' },
  });
  assert.deepEqual(storeSettings(settingReader(hostile)), { backend: 'sqlite', mongodbUri: '', qdrantUrl: '' });
  assert.deepEqual(storeEnvironment(storeSettings(settingReader(hostile)), { mongodbUser: 'alice', mongodbPassword: PASSWORD }), { RELATA_STORE: 'sqlite' });

  const mine = configuration({
    'store.backend': { defaultValue: 'sqlite', globalValue: 'mongodb-qdrant', workspaceValue: 'sqlite' },
    'store.mongodbUri': { defaultValue: '', globalValue: MONGO, workspaceValue: 'mongodb://collector.example/loot' },
    'store.qdrantUrl': { defaultValue: '', globalValue: QDRANT, workspaceFolderValue: 'http://collector.example:6333' },
  });
  assert.deepEqual(storeSettings(settingReader(mine)), { backend: 'mongodb-qdrant', mongodbUri: MONGO, qdrantUrl: QDRANT }, "the user's own values are kept");
  assert.equal(storeSettings(reader({ 'store.backend': 'postgres' })).backend, 'sqlite', 'an unknown backend is the default');
});

test('credentials never appear in initializationOptions, which LSP tracing logs; they are only in the environment', () => {
  const secrets: StoreSecrets = { mongodbUser: 'alice', mongodbPassword: PASSWORD, qdrantApiKey: API_KEY };
  const read = reader({ 'store.backend': 'mongodb-qdrant', 'store.mongodbUri': MONGO, 'store.qdrantUrl': QDRANT, 'store.dataLocation': '/data' });
  const sent = JSON.stringify(initializationOptions(read));
  for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), API_KEY, 'alice', 'db1.example', 'qdrant.example', 'mongodb']) {
    assert.ok(!sent.includes(secret), `initializationOptions carry ${secret}: ${sent}`);
  }
  assert.deepEqual(initializationOptions(read), { settings: serverSettings(read) });
  assert.equal(Object.hasOwn(serverSettings(read), 'storeBackend'), false, 'the backend travels in the environment too');
  const env = storeEnvironment(storeSettings(read), secrets);
  assert.ok(env.RELATA_MONGODB_URI!.includes(encodeURIComponent(PASSWORD)), 'the password does reach the server, in its environment');
});

test('Set Store Credentials keeps the user name, password and API key in the secret storage, asking for the secrets as passwords', async () => {
  const secrets = new MemorySecrets();
  const { asked, prompt } = answering(' alice ', PASSWORD, API_KEY);
  assert.equal(await askStoreCredentials(prompt, secrets), true);
  assert.deepEqual(Object.fromEntries(secrets.values), {
    [STORE_SECRET_KEYS.mongodbUser]: 'alice',
    [STORE_SECRET_KEYS.mongodbPassword]: PASSWORD,
    [STORE_SECRET_KEYS.qdrantApiKey]: API_KEY,
  });
  assert.deepEqual(asked.map((options) => options.password === true), [false, true, true], 'the password and the key are masked');
  assert.deepEqual(await readStoreSecrets(secrets), { mongodbUser: 'alice', mongodbPassword: PASSWORD, qdrantApiKey: API_KEY });

  // No setting can hold a credential: the manifest declares none.
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, unknown> }; commands: { command: string }[] };
  };
  const credentialSettings = Object.keys(manifest.contributes.configuration.properties).filter((key) => /user|password|secret|apikey|token|credential/i.test(key));
  assert.deepEqual(credentialSettings, []);
  const commands = manifest.contributes.commands.map((entry) => entry.command);
  assert.ok(commands.includes('relata.setStoreCredentials') && commands.includes('relata.clearStoreCredentials'));
});

test('cancelling any question changes nothing; an empty answer keeps a stored password or key, but never for another user', async () => {
  const secrets = new MemorySecrets();
  await askStoreCredentials(answering('alice', PASSWORD, API_KEY).prompt, secrets);
  const before = Object.fromEntries(secrets.values);
  for (const answers of [[undefined], ['bob', undefined], ['bob', 'pw', undefined]]) {
    assert.equal(await askStoreCredentials(answering(...answers).prompt, secrets), false);
    assert.deepEqual(Object.fromEntries(secrets.values), before, `cancelled after ${answers.length} answers`);
  }
  await askStoreCredentials(answering('alice', '', '').prompt, secrets);
  assert.deepEqual(Object.fromEntries(secrets.values), before, 'empty answers keep what is stored');
  await askStoreCredentials(answering('bob', '', '').prompt, secrets);
  assert.equal(secrets.values.get(STORE_SECRET_KEYS.mongodbUser), 'bob');
  assert.equal(secrets.values.has(STORE_SECRET_KEYS.mongodbPassword), false, "alice's password is not sent as bob's");
  await askStoreCredentials(answering('', API_KEY).prompt, secrets);
  assert.equal(secrets.values.has(STORE_SECRET_KEYS.mongodbUser), false, 'an empty user name removes the user');

  assert.equal(await clearStoreCredentials(secrets), true);
  assert.equal(secrets.values.size, 0);
  assert.equal(await clearStoreCredentials(secrets), false, 'nothing left to clear');
});

const folderStatus = (overrides: Partial<FolderStatus>): FolderStatus => ({
  folder: 'file:///contracts', name: 'contracts', state: 'watching', reason: null,
  items: { indexed: 9, failed: 0, skipped: 0, duplicate: 0, pending: 0 }, chunks: 21, queueDepth: 0, work: { reading: 0, extracting: 0, embedding: 0, relating: 0 },
  embeddingModel: null, embeddedChunks: 0, damage: null, store: null, ...overrides,
});

test('the status names the backend and where, and a store server that is down is one clear line', () => {
  const where = 'mongodb://***@db.example:27017/relata + https://qdrant.example:6333 (folder contracts-0123456789ab)';
  const up = summarizeStatus({ folders: [folderStatus({ store: { backend: 'mongodb-qdrant', where, unreachable: null } })] });
  assert.equal(up.text, '$(database) Relata: 9 indexed');
  assert.match(up.tooltip, /store: MongoDB \+ Qdrant, mongodb:\/\/\*\*\*@db\.example:27017\/relata \+ https:\/\/qdrant\.example:6333 \(folder contracts-0123456789ab\)/);
  assert.match(summarizeStatus({ folders: [folderStatus({ store: { backend: 'sqlite', where: '/data/relata/contracts-0123456789ab', unreachable: null } })] }).tooltip, /store: SQLite, \/data\/relata\/contracts-0123456789ab/);

  const down = summarizeStatus({
    folders: [folderStatus({ state: 'indexing', queueDepth: 4, store: { backend: 'mongodb-qdrant', where, unreachable: 'Qdrant: connect ECONNREFUSED 10.0.0.5:6333' } })],
  });
  assert.equal(down.text, '$(debug-disconnect) Relata: store unreachable');
  assert.equal(down.warning, true);
  assert.match(down.tooltip, /store unreachable: Qdrant: connect ECONNREFUSED 10\.0\.0\.5:6333; the work is kept and retried until it answers/);
  assert.ok(!/\n\s+at /.test(down.tooltip), 'no stack');
  const opening = summarizeStatus({
    folders: [folderStatus({ state: 'opening', reason: 'cannot reach MongoDB at db.example:27017 (server selection timed out after 10 s: connection refused); will retry in 4 s', store: { backend: 'mongodb-qdrant', where, unreachable: 'cannot reach MongoDB at db.example:27017 (server selection timed out after 10 s: connection refused)' } })],
  });
  assert.match(opening.tooltip, /contracts: opening its index\n/);
  assert.equal(opening.tooltip.split('cannot reach MongoDB').length - 1, 1, 'the unreachable server is named once, on its own line');
  assert.match(opening.tooltip, /store unreachable: cannot reach MongoDB at db\.example:27017 .*; the work is kept and retried until it answers/);
});
