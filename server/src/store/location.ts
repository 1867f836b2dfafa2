// Where a folder's store lives: one SQLite file in a data directory (the embedded default), or a
// MongoDB deployment plus a Qdrant service shared by many folders and workspaces. Everything
// above the store (engine, CLI, language server) carries a StoreLocation and never looks inside.

export interface SqliteLocation {
  backend: 'sqlite';
  /** The directory holding relata.sqlite and the original bytes. */
  dataDir: string;
  /** Another database file in the data directory than relata.sqlite: a rebuild's new store (sqlite/rebuildFiles.ts). */
  databaseFile?: string;
}

export interface MongoQdrantLocation {
  backend: 'mongodb-qdrant';
  /** A MongoDB connection string (credentials, if any, inside it; never logged). */
  mongodbUri: string;
  /** The Qdrant service's REST address, e.g. http://localhost:6333. */
  qdrantUrl: string;
  qdrantApiKey?: string;
  /**
   * The folder's key on the shared servers: with the workspace, the scope of every document and
   * point. Derived from the indexed folder's absolute path (folderKey() in dataDir.ts), so every
   * machine that indexes or works on the folder names it the same way.
   */
  folder: string;
}

export type StoreLocation = SqliteLocation | MongoQdrantLocation;

/** Where the store is, for messages and `relata status`: never a password. */
export function describeLocation(location: StoreLocation): string {
  if (location.backend === 'sqlite') return location.dataDir;
  return `${redactUri(location.mongodbUri)} + ${redactUri(location.qdrantUrl)} (folder ${location.folder})`;
}

/** A connection string with any user and password taken out. */
export function redactUri(uri: string): string {
  return uri.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, '$1***@');
}
