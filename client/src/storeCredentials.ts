// Relata: Set Store Credentials and Relata: Clear Store Credentials. The MongoDB user name and
// password and the Qdrant API key live in VS Code's SecretStorage (the operating system's keychain
// where there is one), never in a settings file; storeConnection.ts puts them into the server's
// environment when it starts. Written against two small interfaces, so it is tested without VS Code.

import type { StoreSecrets } from './storeConnection.ts';

/** Where each credential is kept in SecretStorage. */
export const STORE_SECRET_KEYS: Readonly<Record<keyof StoreSecrets, string>> = {
  mongodbUser: 'relata.store.mongodbUser',
  mongodbPassword: 'relata.store.mongodbPassword',
  qdrantApiKey: 'relata.store.qdrantApiKey',
};

/** What the commands need of VS Code's SecretStorage. */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/** A subset of VS Code's InputBoxOptions; undefined means the person cancelled. */
export interface PromptOptions {
  title: string;
  prompt: string;
  value?: string;
  placeHolder?: string;
  password?: boolean;
  ignoreFocusOut?: boolean;
}
export type Prompt = (options: PromptOptions) => PromiseLike<string | undefined>;

export async function readStoreSecrets(secrets: SecretStore): Promise<StoreSecrets> {
  const read: StoreSecrets = {};
  for (const [name, key] of Object.entries(STORE_SECRET_KEYS) as [keyof StoreSecrets, string][]) {
    const value = await secrets.get(key);
    if (value) read[name] = value;
  }
  return read;
}

/**
 * Asks for the MongoDB user name and password and the Qdrant API key, each optional, and stores
 * them. Cancelling any question changes nothing. A password or key already stored is kept when
 * its answer is left empty; an empty user name removes the user and its password.
 * Returns true when the credentials were saved.
 */
export async function askStoreCredentials(prompt: Prompt, secrets: SecretStore): Promise<boolean> {
  const current = await readStoreSecrets(secrets);
  const title = 'Relata: Set Store Credentials';
  const keptWhenEmpty = (what: string, stored: string | undefined) =>
    stored ? `${what} is stored: leave empty to keep it` : `leave empty for none`;

  const user = await prompt({
    title: `${title} (1/3)`,
    prompt: 'MongoDB user name (leave empty for none)',
    value: current.mongodbUser ?? '',
    ignoreFocusOut: true,
  });
  if (user === undefined) return false;
  let password = '';
  if (user.trim()) {
    const answer = await prompt({
      title: `${title} (2/3)`,
      prompt: `MongoDB password of ${user.trim()}`,
      placeHolder: keptWhenEmpty('a password', current.mongodbUser === user.trim() ? current.mongodbPassword : undefined),
      password: true,
      ignoreFocusOut: true,
    });
    if (answer === undefined) return false;
    // A password kept for another user name would be sent as this one's.
    password = answer || (current.mongodbUser === user.trim() ? (current.mongodbPassword ?? '') : '');
  }
  const apiKey = await prompt({
    title: `${title} (3/3)`,
    prompt: 'Qdrant API key',
    placeHolder: keptWhenEmpty('a key', current.qdrantApiKey),
    password: true,
    ignoreFocusOut: true,
  });
  if (apiKey === undefined) return false;

  await keep(secrets, STORE_SECRET_KEYS.mongodbUser, user.trim());
  await keep(secrets, STORE_SECRET_KEYS.mongodbPassword, password);
  await keep(secrets, STORE_SECRET_KEYS.qdrantApiKey, apiKey.trim() || (current.qdrantApiKey ?? ''));
  return true;
}

/** Removes every store credential; true when there was one to remove. */
export async function clearStoreCredentials(secrets: SecretStore): Promise<boolean> {
  const current = await readStoreSecrets(secrets);
  for (const key of Object.values(STORE_SECRET_KEYS)) await secrets.delete(key);
  return Object.keys(current).length > 0;
}

async function keep(secrets: SecretStore, key: string, value: string): Promise<void> {
  if (value) await secrets.store(key, value);
  else await secrets.delete(key);
}
