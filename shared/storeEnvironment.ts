// The environment variables that carry a store location to a Relata process, named once for the
// VS Code extension that sets them when it starts the language server and for the server (and the
// CLI) that reads them. The location travels this way, not in `initializationOptions`, because
// LSP tracing logs those, and a MongoDB URI may carry a password.

export const STORE_ENV = {
  /** `sqlite` (the default), `mongodb-qdrant`, or a MongoDB URI (as `--store` accepts). */
  store: 'RELATA_STORE',
  mongodbUri: 'RELATA_MONGODB_URI',
  qdrantUrl: 'RELATA_QDRANT_URL',
  qdrantApiKey: 'RELATA_QDRANT_API_KEY',
} as const;

export const STORE_BACKENDS = ['sqlite', 'mongodb-qdrant'] as const;
export type StoreBackend = (typeof STORE_BACKENDS)[number];
