// The connections to MongoDB and Qdrant, made on first use. The clients are loaded with a dynamic
// import, so a SQLite user never loads either driver; opening a store costs nothing until its
// first operation. A server that is down, or refuses the credentials, becomes one error naming
// which server, where (never the password) and why, rather than the driver's stack of retries;
// the next operation tries again, so a server that comes back is used without reopening the store.

import type { Db, MongoClient } from 'mongodb';
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { StoreAccess } from '../contract.ts';
import { redactUri, type MongoQdrantLocation } from '../location.ts';
import type { IndexSpec } from './collections.ts';

/** How long the driver looks for a usable MongoDB server before the operation fails (the driver's default is 30 s). */
export const SERVER_SELECTION_TIMEOUT_MS = 10_000;
/** How long one Qdrant request may take: a search over a large collection, not a connection attempt. */
export const QDRANT_REQUEST_TIMEOUT_MS = 60_000;
/** The database used when the connection string names none. */
export const DEFAULT_DATABASE = 'relata';

/** MongoDB or Qdrant cannot be used: not reachable, or it refused the credentials. */
export class StoreUnreachableError extends Error {
  override readonly name = 'StoreUnreachableError';
  /** Counted by storeFault.ts as the store's fault, not the document's. */
  readonly code = 'RELATA_STORE_UNREACHABLE';

  constructor(
    readonly service: 'MongoDB' | 'Qdrant',
    /** Where, without credentials. */
    readonly where: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot reach ${service} at ${where} (${reason})`, options);
  }
}

/** The hosts of a MongoDB connection string, without user, password or options: "db1:27017,db2:27017". */
export function mongoHosts(uri: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]*)/i.exec(uri);
  return match?.[1] || redactUri(uri);
}

/** The database the connection string names, else DEFAULT_DATABASE. */
export function databaseName(uri: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?[^/?#]*\/([^?#]+)/i.exec(uri);
  return match?.[1] ? decodeURIComponent(match[1]) : DEFAULT_DATABASE;
}

/** What went wrong talking to MongoDB, in words a user can act on. */
export function mongoFailureReason(error: unknown, timeoutMs = SERVER_SELECTION_TIMEOUT_MS): string {
  const failure = error as { name?: string; code?: unknown; codeName?: string; message?: string; cause?: unknown } | null;
  const name = failure?.name ?? '';
  const message = failure?.message ?? String(error);
  if (failure?.code === 18 || failure?.codeName === 'AuthenticationFailed' || /authentication failed/i.test(message)) {
    return 'it refused the credentials: authentication failed';
  }
  if (failure?.code === 13 || failure?.codeName === 'Unauthorized') return `it refused the operation: not authorized (${message})`;
  if (name === 'MongoParseError' || name === 'MongoInvalidArgumentError') return `the connection string is not valid: ${message}`;
  if (name === 'MongoServerSelectionError') {
    const inner = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|certificate|self.signed|SSL|TLS/i.exec(message);
    const why = inner ? `: ${describeNetworkCode(inner[0])}` : '';
    return `server selection timed out after ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}${why}`;
  }
  if (/^MongoNetwork/.test(name)) return `the connection failed: ${message}`;
  return message;
}

function describeNetworkCode(code: string): string {
  switch (code.toUpperCase()) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return 'host unreachable';
    default:
      return /CERT|SSL|TLS|SELF.SIGNED/i.test(code) ? 'TLS handshake failed' : code;
  }
}

/** What went wrong talking to Qdrant, in words a user can act on. */
export function qdrantFailureReason(error: unknown): string {
  const failure = error as { name?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  const message = failure?.message ?? String(error);
  const status = /Unexpected Response: (\d{3})/.exec(message)?.[1];
  if (status === '401' || status === '403') return `it refused the API key (HTTP ${status})`;
  if (status) return `it answered HTTP ${status}`;
  const code = failure?.cause?.code;
  if (code) return describeNetworkCode(code);
  if (failure?.name === 'QdrantClientTimeoutError' || failure?.name === 'AbortError') return 'the request timed out';
  return failure?.cause?.message ?? message;
}

export interface ConnectionOptions {
  location: MongoQdrantLocation;
  access: StoreAccess;
  /** The indexes a writer makes sure of before its first operation (every index leads with the scope). */
  indexes: readonly IndexSpec[];
  /** Default SERVER_SELECTION_TIMEOUT_MS. */
  serverSelectionTimeoutMS?: number;
}

type MongoDriver = typeof import('mongodb');

/**
 * One store's connections. Each is made by the first operation that needs it and shared by the
 * rest; a failed attempt is forgotten, so the next operation tries again.
 */
export class StoreConnection {
  private mongoReady: Promise<{ client: MongoClient; db: Db }> | null = null;
  private qdrantReady: Promise<QdrantClient> | null = null;
  private driverReady: Promise<MongoDriver> | null = null;
  private closed = false;

  constructor(private readonly options: ConnectionOptions) {}

  /** Where MongoDB is, for messages: hosts only. */
  get mongoWhere(): string {
    return mongoHosts(this.options.location.mongodbUri);
  }

  private get selectionTimeoutMs(): number {
    return this.options.serverSelectionTimeoutMS ?? SERVER_SELECTION_TIMEOUT_MS;
  }

  get qdrantWhere(): string {
    return redactUri(this.options.location.qdrantUrl);
  }

  driver(): Promise<MongoDriver> {
    return (this.driverReady ??= import('mongodb'));
  }

  /** The database, connected, with the indexes in place when the store may write. */
  db(): Promise<Db> {
    return this.mongo().then(({ db }) => db);
  }

  private mongo(): Promise<{ client: MongoClient; db: Db }> {
    if (this.closed) return Promise.reject(new Error(`the store on MongoDB at ${this.mongoWhere} is closed`));
    const attempt = (this.mongoReady ??= this.connectMongo());
    attempt.catch(() => {
      if (this.mongoReady === attempt) this.mongoReady = null;
    });
    return attempt;
  }

  private async connectMongo(): Promise<{ client: MongoClient; db: Db }> {
    const { location } = this.options;
    const { MongoClient: Client } = await this.driver();
    let client: MongoClient;
    try {
      client = new Client(location.mongodbUri, { serverSelectionTimeoutMS: this.selectionTimeoutMs, appName: 'relata' });
    } catch (error) {
      throw new StoreUnreachableError('MongoDB', this.mongoWhere, mongoFailureReason(error, this.selectionTimeoutMs), { cause: error });
    }
    try {
      await client.connect();
      const db = client.db(databaseName(location.mongodbUri));
      if (this.options.access === 'write') await ensureIndexes(db, this.options.indexes);
      return { client, db };
    } catch (error) {
      await client.close().catch(() => undefined);
      if (error instanceof IndexSetupError) throw error;
      throw new StoreUnreachableError('MongoDB', this.mongoWhere, mongoFailureReason(error, this.selectionTimeoutMs), { cause: error });
    }
  }

  /** The Qdrant client, after one request has shown the service answers and accepts the key. */
  qdrant(): Promise<QdrantClient> {
    if (this.closed) return Promise.reject(new Error(`the store on Qdrant at ${this.qdrantWhere} is closed`));
    const attempt = (this.qdrantReady ??= this.connectQdrant());
    attempt.catch(() => {
      if (this.qdrantReady === attempt) this.qdrantReady = null;
    });
    return attempt;
  }

  private async connectQdrant(): Promise<QdrantClient> {
    const { location } = this.options;
    const { QdrantClient: Client } = await import('@qdrant/js-client-rest');
    try {
      const client = new Client({
        url: location.qdrantUrl,
        ...(location.qdrantApiKey ? { apiKey: location.qdrantApiKey } : {}),
        timeout: QDRANT_REQUEST_TIMEOUT_MS,
        // The version check runs on its own and only warns; the request below says what matters.
        checkCompatibility: false,
      });
      await client.getCollections();
      return client;
    } catch (error) {
      throw new StoreUnreachableError('Qdrant', this.qdrantWhere, qdrantFailureReason(error), { cause: error });
    }
  }

  /**
   * As an operation's error: a MongoDB driver error that says the server went away, or a Qdrant
   * request that could not reach the service, becomes StoreUnreachableError naming it.
   */
  naming(error: unknown): unknown {
    if (error instanceof StoreUnreachableError) return error;
    const failure = error as { name?: string; message?: string; cause?: { code?: unknown } } | null;
    const name = failure?.name ?? '';
    if (name === 'MongoServerSelectionError' || /^MongoNetwork/.test(name)) {
      return new StoreUnreachableError('MongoDB', this.mongoWhere, mongoFailureReason(error, this.selectionTimeoutMs), { cause: error });
    }
    // Node's fetch (under the Qdrant client) fails with "fetch failed" and the socket's error as its cause.
    const unreachable = (error instanceof TypeError && failure?.message === 'fetch failed') || name === 'QdrantClientTimeoutError';
    if (unreachable) return new StoreUnreachableError('Qdrant', this.qdrantWhere, qdrantFailureReason(error), { cause: error });
    return error;
  }

  async close(): Promise<void> {
    this.closed = true;
    const mongo = this.mongoReady;
    this.mongoReady = null;
    this.qdrantReady = null;
    if (mongo) await mongo.then(({ client }) => client.close(), () => undefined);
  }
}

/** Index creation failed for a reason other than reachability (e.g. an index of the same name but another definition). */
export class IndexSetupError extends Error {
  override readonly name = 'IndexSetupError';
  readonly code = 'RELATA_STORE_INDEX_SETUP';
}

/**
 * Creates the store's indexes, collection by collection (createIndexes is idempotent for an index
 * that exists with the same definition). Indexes are store-wide objects, not a workspace's data.
 */
export async function ensureIndexes(db: Db, specs: readonly IndexSpec[]): Promise<void> {
  const byCollection = new Map<string, IndexSpec[]>();
  for (const spec of specs) byCollection.set(spec.collection, [...(byCollection.get(spec.collection) ?? []), spec]);
  for (const [collection, list] of byCollection) {
    try {
      await db.collection(collection).createIndexes(
        list.map(({ collection: _collection, key, unique, ...options }) => ({ key: { ...key }, ...(unique ? { unique } : {}), ...options })),
      );
    } catch (error) {
      const failure = error as { name?: string; message?: string };
      if (failure.name === 'MongoServerSelectionError' || /^MongoNetwork/.test(failure.name ?? '')) throw error;
      throw new IndexSetupError(`could not create the indexes of collection ${collection} in database ${db.databaseName}: ${failure.message ?? String(error)}`, { cause: error });
    }
  }
}
