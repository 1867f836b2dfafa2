// Errors a store raises about its own file rather than about one request, with the path and what
// to do, so every front end (the CLI's one error printer, the language server's status) can say
// it in the same words instead of passing on SQLite's bare message.

/** SQLite's result codes for a file that is not (or no longer) a readable database. */
const DAMAGE_CODES = /^SQLITE_(CORRUPT|NOTADB)(_|$)/;

export const DAMAGE_REMEDY =
  'Run `relata check` to see what, or rebuild it from the folder with `relata index --rebuild` (it keeps the decisions and history it can still read)';

/** The store's file is damaged: SQLite said SQLITE_CORRUPT or SQLITE_NOTADB, at open or in a statement. */
export class StoreDamagedError extends Error {
  override readonly name = 'StoreDamagedError';
  readonly code = 'RELATA_STORE_DAMAGED';

  constructor(
    /** The database file. */
    readonly file: string,
    /** SQLite's own words, kept for `relata check` and the logs. */
    readonly sqliteMessage: string,
  ) {
    super(`${file}: the store is damaged (${sqliteMessage}). ${DAMAGE_REMEDY}`);
  }
}

/** True for an error SQLite raises because the file is damaged (better-sqlite3 puts the code on `code`). */
export function isDamageError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DAMAGE_CODES.test(code);
}

/**
 * The error as a StoreDamagedError naming `file` when it is damage, else the error itself. Used
 * where statements run (ScopedSql, the store's open), which is the only place that knows the path.
 */
export function namingDamage(error: unknown, file: string): unknown {
  if (error instanceof StoreDamagedError || !isDamageError(error)) return error;
  return new StoreDamagedError(file, (error as Error).message);
}
