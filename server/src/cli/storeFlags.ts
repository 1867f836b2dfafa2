// Which store a command opens, from its flags and then the environment: the SQLite file of a data
// directory (the default), or a MongoDB deployment plus a Qdrant service shared by many folders.
// The flags win over the environment, so `--data DIR` alone always means that SQLite store even
// when RELATA_STORE names a MongoDB one. A MongoDB URI may carry a password, so it can also come
// from RELATA_MONGODB_URI (`--store mongodb-qdrant`), out of the process list; it is never printed.

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { STORE_ENV } from '../../../shared/storeEnvironment.ts';
import { isLoopbackHost } from '../answer/endpointPolicy.ts';
import { defaultDataDir, folderKey } from '../store/dataDir.ts';
import { redactUri, type StoreLocation } from '../store/location.ts';
import type { CommandValues, OptionSpec } from './options.ts';
import { locateDataDir } from './storeLocation.ts';
import { UsageError } from './usage.ts';

export const STORE_OPTIONS: OptionSpec = {
  store: { type: 'string' },
  qdrant: { type: 'string' },
  folder: { type: 'string' },
};

export const STORE_USAGE = `  --store S         sqlite (default), or a shared MongoDB + Qdrant store: mongodb://… or mongodb+srv://…,
                    or mongodb-qdrant to take the URI from RELATA_MONGODB_URI (default: RELATA_STORE)
  --qdrant URL      the Qdrant service of a MongoDB store, http(s)://host:6333 (default: RELATA_QDRANT_URL;
                    its API key, if any: RELATA_QDRANT_API_KEY)
  --folder F        the folder, by path or by the key \`relata status\` shows: on a MongoDB store, whose
                    documents to use (default: the folder given, else the current directory)`;

/** What the flags and environment chose, before a folder is known. */
export type StoreChoice =
  | {
      backend: 'sqlite';
      /** --data as given; null to use the folder's default data directory. */
      data: string | null;
      /** --folder as given: the folder whose store to find. */
      folder: string | null;
    }
  | {
      backend: 'mongodb-qdrant';
      mongodbUri: string;
      qdrantUrl: string;
      qdrantApiKey?: string;
      /** --folder as given: a folder key, or a path whose key is derived. */
      folder: string | null;
    };

const MONGODB_URI = /^mongodb(\+srv)?:\/\//i;
/** A folder key as folderKey() makes it: a name without separators. */
const FOLDER_KEY = /^[\w.-]+$/;

/** The store the flags choose, else the environment's (STORE_ENV), else SQLite. */
export function storeChoice(values: CommandValues, env: NodeJS.ProcessEnv = process.env): StoreChoice {
  const flag = (name: string) => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const data = flag('data');
  const qdrantFlag = flag('qdrant');
  const folder = flag('folder') ?? null;
  const fromFlag = flag('store') !== undefined;
  // --data is a SQLite store's directory: given alone, it outranks RELATA_STORE like any flag.
  const spec = (flag('store') ?? (data !== undefined ? 'sqlite' : env[STORE_ENV.store]?.trim() || 'sqlite')).trim();
  const source = fromFlag ? '--store' : 'RELATA_STORE';

  if (spec.toLowerCase() === 'sqlite') {
    if (qdrantFlag !== undefined) throw new UsageError('--qdrant is the Qdrant service of a MongoDB store: give --store mongodb://… with it');
    return { backend: 'sqlite', data: data ?? null, folder };
  }
  const mongodbUri = spec.toLowerCase() === 'mongodb-qdrant' ? env[STORE_ENV.mongodbUri]?.trim() : spec;
  if (!mongodbUri) throw new UsageError(`${source} mongodb-qdrant takes the MongoDB URI from RELATA_MONGODB_URI, which is not set`);
  if (!MONGODB_URI.test(mongodbUri)) {
    throw new UsageError(
      `${spec === mongodbUri ? source : 'RELATA_MONGODB_URI'} must be sqlite, mongodb-qdrant, or a mongodb:// or mongodb+srv:// URI, ` +
        `not ${redactUri(mongodbUri)}`,
    );
  }
  if (data !== undefined) {
    throw new UsageError('--data is the directory of a SQLite store: it does not go with a MongoDB store (give one or the other)');
  }
  const qdrantUrl = qdrantFlag ?? env[STORE_ENV.qdrantUrl]?.trim();
  if (!qdrantUrl) {
    throw new UsageError('a MongoDB store keeps its vectors in Qdrant: give --qdrant http://host:6333 (or set RELATA_QDRANT_URL)');
  }
  if (!isHttpUrl(qdrantUrl)) {
    throw new UsageError(`${qdrantFlag !== undefined ? '--qdrant' : 'RELATA_QDRANT_URL'} must be an http:// or https:// address, not ${redactUri(qdrantUrl)}`);
  }
  const qdrantApiKey = env[STORE_ENV.qdrantApiKey]?.trim();
  if (qdrantApiKey && !keySafeOver(qdrantUrl)) {
    // The key travels as a header on every request: over plain http off this machine, anyone on the
    // network path could read it (the rule the answers endpoint follows too).
    throw new UsageError(
      `refusing to send the Qdrant API key (RELATA_QDRANT_API_KEY) over plain http to ${redactUri(new URL(qdrantUrl).origin)}, ` +
        'which is not this machine: use https://',
    );
  }
  return { backend: 'mongodb-qdrant', mongodbUri, qdrantUrl, ...(qdrantApiKey ? { qdrantApiKey } : {}), folder };
}

/** An API key may go to an https:// address, or to plain http on this machine. */
function keySafeOver(url: string): boolean {
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || isLoopbackHost(parsed.hostname);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const isDirectory = (candidate: string) => existsSync(candidate) && statSync(candidate).isDirectory();

/**
 * The key of --folder on a shared store: a key as given, or the key of a folder path. What names
 * an existing directory, or has a path separator, is a path; anything else is taken as a key.
 */
export function folderKeyOf(given: string, directoryExists: (candidate: string) => boolean = isDirectory): string {
  if (FOLDER_KEY.test(given) && given !== '.' && given !== '..' && !directoryExists(path.resolve(given))) return given;
  return folderKey(path.resolve(given));
}

/**
 * Where the store of a folder being indexed goes (`relata index`): --data or the folder's default
 * data directory; on MongoDB + Qdrant, under --folder's key or the folder's own.
 */
export function locationForFolder(choice: StoreChoice, folder: string): StoreLocation {
  if (choice.backend === 'sqlite') return { backend: 'sqlite', dataDir: path.resolve(choice.data ?? defaultDataDir(folder)) };
  return mongoLocation(choice, choice.folder === null ? folderKey(path.resolve(folder)) : folderKeyOf(choice.folder));
}

/**
 * Where an existing store is, for a command about `near` (a file, a folder, or the current
 * directory): with SQLite, --data, else the data directory of --folder or of the nearest indexed
 * folder holding `near` (an error when there is none); on MongoDB + Qdrant, --folder's key or
 * `near`'s own (a shared server cannot be searched for a folder's ancestors).
 */
export function existingStoreLocation(choice: StoreChoice, near: string): StoreLocation {
  if (choice.backend === 'sqlite') return { backend: 'sqlite', dataDir: locateDataDir(choice.data ?? undefined, choice.folder ?? near) };
  return mongoLocation(choice, choice.folder === null ? folderKey(path.resolve(near)) : folderKeyOf(choice.folder));
}

function mongoLocation(choice: Extract<StoreChoice, { backend: 'mongodb-qdrant' }>, folder: string): StoreLocation {
  return {
    backend: 'mongodb-qdrant',
    mongodbUri: choice.mongodbUri,
    qdrantUrl: choice.qdrantUrl,
    ...(choice.qdrantApiKey ? { qdrantApiKey: choice.qdrantApiKey } : {}),
    folder,
  };
}
