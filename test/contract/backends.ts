// The backends the store contract suite runs against. Every test in test/contract/ is written
// once against WorkspaceStore and defined here once per backend:
//   - sqlite: always; each site is a fresh temporary directory, one data directory per folder.
//   - mongodb-qdrant: when RELATA_TEST_MONGODB_URI and RELATA_TEST_QDRANT_URL are both set (and
//     RELATA_TEST_QDRANT_API_KEY when the Qdrant service needs one). Otherwise every one of its
//     tests is reported skipped with the reason, never counted as passed.
//
// How Mongo + Qdrant runs are kept apart: each test file (one process) uses a database of its own,
// the URI's database name with a random suffix, dropped when the file's tests end. Qdrant has no
// databases, so each site is a folder of its own (`contract-<run>-<n>`): the store scopes every
// point by workspace and folder, and the points of the run's folders are deleted at the end by the
// payload field `folder` (mongoQdrant/scope.ts, SCOPE_FIELDS). Collections, shared by every folder
// of a dimension, are left in place.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { openStoreWithBlobs, type OpenedStore } from '../../server/src/store/index.ts';
import { redactUri, type StoreLocation } from '../../server/src/store/location.ts';

export const MONGO_QDRANT_SKIP =
  'RELATA_TEST_MONGODB_URI and RELATA_TEST_QDRANT_URL are not set: the MongoDB + Qdrant half of the contract suite needs real servers';

/** Generous: a networked backend creates its collections and indexes on a site's first open. */
const TEST_TIMEOUT_MS = 120_000;

/** One place stores are opened in: a SQLite data directory tree, or a folder on the shared servers. */
export interface StoreSite {
  /** Where a store of this site's `folder` lives (for a second process opening the same store). */
  location(folder?: string): StoreLocation;
  /** A handle on the site's store for a workspace (default "alice") and folder; closed when the test ends. */
  open(options?: { workspace?: string; folder?: string }): Promise<OpenedStore>;
}

export interface BackendUnderTest {
  name: 'sqlite' | 'mongodb-qdrant';
  /** Why this backend's tests are skipped; false when they run. */
  skip: string | false;
  /** A site no other test uses, removed when the test ends. */
  site(t: TestContext): StoreSite;
  /** A fresh site and one store in it, for workspace "alice" unless told. */
  open(t: TestContext, workspace?: string): Promise<OpenedStore & { site: StoreSite }>;
  /** One contract test on this backend: skipped, with the reason printed, when the backend is unavailable. */
  test(name: string, fn: (t: TestContext) => Promise<void>): void;
}

/** Defines the suite once per backend, each in a describe block named after it. */
export function forEachBackend(define: (backend: BackendUnderTest) => void): void {
  for (const backend of BACKENDS) describe(backend.name, () => define(backend));
}

function backend(
  name: BackendUnderTest['name'],
  skip: string | false,
  site: (t: TestContext) => StoreSite,
): BackendUnderTest {
  return {
    name,
    skip,
    site,
    async open(t, workspace = 'alice') {
      const opened = site(t);
      return { ...(await opened.open({ workspace })), site: opened };
    },
    // Skipped test by test (not the describe block), so each one prints the reason and the run's
    // summary counts them as skipped.
    test(testName, fn) {
      it(testName, { skip, timeout: TEST_TIMEOUT_MS }, fn);
    },
  };
}

/** Opens handles on a site and closes them all, then removes the site, when the test ends. */
function siteOf(t: TestContext, location: (folder: string) => StoreLocation, remove: () => void | Promise<void>): StoreSite {
  const opened: OpenedStore[] = [];
  t.after(async () => {
    for (const { store } of opened) await store.close().catch(() => undefined);
    await remove();
  });
  return {
    location: (folder = 'folder') => location(folder),
    async open({ workspace = 'alice', folder = 'folder' } = {}) {
      const store = await openStoreWithBlobs({ location: location(folder), workspace });
      opened.push(store);
      return store;
    },
  };
}

const sqlite = backend('sqlite', false, (t) => {
  const root = mkdtempSync(path.join(tmpdir(), 'relata-contract-'));
  return siteOf(
    t,
    (folder) => ({ backend: 'sqlite', dataDir: path.join(root, folder) }),
    () => rmSync(root, { recursive: true, force: true }),
  );
});

/**
 * The URI with a database name of this run's own: the URI's name (or "relata_contract") and the
 * suffix. Written on the string, not with URL, because a replica set's URI lists several hosts.
 */
export function withDatabaseSuffix(uri: string, suffix: string): string {
  const parts = /^([a-z][a-z0-9+.-]*:\/\/[^/?]*)(?:\/([^?]*))?(\?.*)?$/i.exec(uri);
  if (!parts) throw new Error('RELATA_TEST_MONGODB_URI is not a MongoDB connection string (mongodb://host/database)');
  const [, hosts, database, options = ''] = parts;
  return `${hosts}/${database || 'relata_contract'}_${suffix}${options}`;
}

function mongoQdrant(): BackendUnderTest {
  const mongodbUri = process.env.RELATA_TEST_MONGODB_URI;
  const qdrantUrl = process.env.RELATA_TEST_QDRANT_URL;
  const qdrantApiKey = process.env.RELATA_TEST_QDRANT_API_KEY || undefined;
  if (!mongodbUri || !qdrantUrl) {
    return backend('mongodb-qdrant', MONGO_QDRANT_SKIP, () => {
      throw new Error(MONGO_QDRANT_SKIP);
    });
  }
  const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const runUri = withDatabaseSuffix(mongodbUri, run);
  const folders: string[] = [];
  let sites = 0;
  after(async () => {
    try {
      await removeRun(runUri, qdrantUrl, qdrantApiKey, folders);
    } catch (error) {
      throw new Error(`could not remove this run's database and points (${redactUri(runUri)}, ${qdrantUrl}): ${(error as Error).message}`);
    }
  });
  return backend('mongodb-qdrant', false, (t) => {
    const prefix = `contract-${run}-${(sites += 1)}`;
    return siteOf(
      t,
      (folder) => {
        const key = `${prefix}-${folder}`;
        if (!folders.includes(key)) folders.push(key);
        return { backend: 'mongodb-qdrant', mongodbUri: runUri, qdrantUrl, qdrantApiKey, folder: key };
      },
      () => undefined,
    );
  });
}

/** Drops the run's database and deletes the points of its folders from every Qdrant collection. */
async function removeRun(runUri: string, qdrantUrl: string, apiKey: string | undefined, folders: readonly string[]): Promise<void> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(runUri);
  try {
    await client.db().dropDatabase();
  } finally {
    await client.close();
  }
  if (folders.length === 0) return;
  const { QdrantClient } = await import('@qdrant/js-client-rest');
  const qdrant = new QdrantClient({ url: qdrantUrl, apiKey, checkCompatibility: false });
  const { collections } = await qdrant.getCollections();
  for (const { name } of collections) {
    await qdrant.delete(name, { wait: true, filter: { must: [{ key: 'folder', match: { any: [...folders] } }] } });
  }
}

export const BACKENDS: readonly BackendUnderTest[] = [sqlite, mongoQdrant()];
