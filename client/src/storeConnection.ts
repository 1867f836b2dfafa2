// Which store the language server opens, from the user's settings and the credentials kept in
// VS Code's SecretStorage. The MongoDB URI with its user and password is composed here, in memory
// only, and handed to the server process in its environment (shared/storeEnvironment.ts): never
// written to a settings file, never sent in `initializationOptions` (which LSP tracing logs).
// Pure, so it is tested without VS Code.

import { STORE_BACKENDS, STORE_ENV, type StoreBackend } from '../../shared/storeEnvironment.ts';
import type { SettingReader } from './settings.ts';

export const SET_CREDENTIALS_COMMAND = 'relata.setStoreCredentials';
const SET_CREDENTIALS_TITLE = '“Relata: Set Store Credentials”';

/** The store settings as the user wrote them (user settings only: see settings.ts). */
export interface StoreSettings {
  backend: StoreBackend;
  mongodbUri: string;
  qdrantUrl: string;
}

/** What SecretStorage holds for the store; each may be absent. */
export interface StoreSecrets {
  mongodbUser?: string;
  mongodbPassword?: string;
  qdrantApiKey?: string;
}

/** The store settings do not name a store the server can open; `setting` is the one to fix. */
export class StoreSettingsError extends Error {
  override readonly name = 'StoreSettingsError';

  constructor(
    message: string,
    readonly setting: string,
  ) {
    super(message);
  }
}

export function storeSettings(read: SettingReader): StoreSettings {
  const text = (key: string) => {
    const value = read<unknown>(key, '');
    return typeof value === 'string' ? value.trim() : '';
  };
  const backend = read<unknown>('store.backend', 'sqlite');
  return {
    backend: (STORE_BACKENDS as readonly unknown[]).includes(backend) ? (backend as StoreBackend) : 'sqlite',
    mongodbUri: text('store.mongodbUri'),
    qdrantUrl: text('store.qdrantUrl'),
  };
}

/** A URI split at its authority: `scheme://`, the user info (if any), the hosts, and the rest. */
function splitUri(uri: string): { scheme: string; userInfo: string | null; hosts: string; rest: string } | null {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(uri);
  if (!match) return null;
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  const at = authority.lastIndexOf('@');
  return { scheme, userInfo: at < 0 ? null : authority.slice(0, at), hosts: authority.slice(at + 1), rest };
}

/**
 * Why `relata.store.mongodbUri` cannot be used, or null. It says where the server is and nothing
 * more: a user name or password in it would sit in a settings file, so either is refused with
 * the way to store them instead.
 */
export function mongodbUriProblem(uri: string): string | null {
  const setting = 'relata.store.mongodbUri';
  if (!uri) return `${setting} is empty: set it in your user settings to the MongoDB connection string, e.g. mongodb://db.example:27017/relata`;
  const parts = splitUri(uri);
  if (!parts || !/^mongodb(\+srv)?:\/\/$/i.test(parts.scheme)) {
    return `${setting} must start with mongodb:// or mongodb+srv://, e.g. mongodb://db.example:27017/relata`;
  }
  if (parts.userInfo !== null) {
    return (
      `${setting} must not carry ${parts.userInfo.includes(':') ? 'a password' : 'a user name'}: a settings file is no place for credentials. ` +
      `Take "user:password@" out of it and run ${SET_CREDENTIALS_TITLE}, which keeps the user name and password in VS Code's secret storage`
    );
  }
  if (!parts.hosts) return `${setting} names no host, e.g. mongodb://db.example:27017/relata`;
  return null;
}

/** Why `relata.store.qdrantUrl` cannot be used, or null. */
export function qdrantUrlProblem(url: string): string | null {
  const setting = 'relata.store.qdrantUrl';
  if (!url) return `${setting} is empty: set it in your user settings to the Qdrant service's address, e.g. http://localhost:6333`;
  const parts = splitUri(url);
  if (!parts || !/^https?:\/\/$/i.test(parts.scheme) || !parts.hosts) {
    return `${setting} must be an http:// or https:// address, e.g. http://localhost:6333`;
  }
  if (parts.userInfo !== null) {
    return `${setting} must not carry credentials: take "user:password@" out of it and run ${SET_CREDENTIALS_TITLE}, which keeps the Qdrant API key in VS Code's secret storage`;
  }
  return null;
}

/**
 * The MongoDB URI with the user (and password) put in, percent-encoded as the connection-string
 * format requires (`@`, `:`, `/`, `%` and the like in a password would otherwise end the field).
 */
export function withCredentials(uri: string, user: string, password = ''): string {
  const parts = splitUri(uri);
  if (!parts) throw new Error('not a connection string');
  const userInfo = encodeURIComponent(user) + (password ? `:${encodeURIComponent(password)}` : '');
  return `${parts.scheme}${userInfo}@${parts.hosts}${parts.rest}`;
}

/**
 * The environment that tells the server which store to open. SQLite says so explicitly, so a
 * RELATA_* variable inherited from the shell that started VS Code cannot pick another store.
 * Throws a StoreSettingsError naming the setting to fix.
 */
export function storeEnvironment(settings: StoreSettings, secrets: StoreSecrets): Record<string, string> {
  if (settings.backend === 'sqlite') return { [STORE_ENV.store]: 'sqlite' };
  const uriProblem = mongodbUriProblem(settings.mongodbUri);
  if (uriProblem) throw new StoreSettingsError(uriProblem, 'relata.store.mongodbUri');
  const urlProblem = qdrantUrlProblem(settings.qdrantUrl);
  if (urlProblem) throw new StoreSettingsError(urlProblem, 'relata.store.qdrantUrl');
  const user = secrets.mongodbUser ?? '';
  if (!user && secrets.mongodbPassword) {
    throw new StoreSettingsError(`a MongoDB password is stored without a user name: run ${SET_CREDENTIALS_TITLE} again`, 'relata.store.mongodbUri');
  }
  return {
    [STORE_ENV.store]: 'mongodb-qdrant',
    [STORE_ENV.mongodbUri]: user ? withCredentials(settings.mongodbUri, user, secrets.mongodbPassword) : settings.mongodbUri,
    [STORE_ENV.qdrantUrl]: settings.qdrantUrl,
    ...(secrets.qdrantApiKey ? { [STORE_ENV.qdrantApiKey]: secrets.qdrantApiKey } : {}),
  };
}

/** Where the store is, for the output channel: the settings' own values, which hold no credentials. */
export function describeStoreSettings(settings: StoreSettings, secrets: StoreSecrets): string {
  if (settings.backend === 'sqlite') return 'sqlite';
  const credentials = [
    secrets.mongodbUser ? `a MongoDB user${secrets.mongodbPassword ? ' and password' : ''}` : 'no MongoDB user',
    secrets.qdrantApiKey ? 'a Qdrant API key' : 'no Qdrant API key',
  ];
  return `mongodb-qdrant: ${settings.mongodbUri} + ${settings.qdrantUrl} (${credentials.join(', ')}, from the secret storage)`;
}

/**
 * The server process's environment: the extension host's, without any store variable it
 * inherited, then the overlays in order (the runtime's, then the store's).
 */
export function serverEnvironment(base: NodeJS.ProcessEnv, ...overlays: Record<string, string>[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of Object.values(STORE_ENV)) delete env[name];
  return Object.assign(env, ...overlays);
}
