// A store is written by one process at a time. A writer that meets another's write lock waits for
// it (SQLite's busy handler retries with short sleeps) for BUSY_WAIT_MS, then gives up with a
// StoreBusyError instead of SQLite's bare "database is locked": it names the store's file and, where
// the system can tell, the process holding the lock. Callers that keep work and try again later
// (the watcher, the language server) recognise it by its class, its code, or SQLite's own busy code
// on its `cause`.

/**
 * How long a writer waits for another process's write lock. Relata's own transactions last
 * milliseconds (one stage's result, one decision); a lock held this long belongs to a process that
 * is stuck or doing something else, and the person is better told who it is than left waiting.
 */
export const BUSY_WAIT_MS = 10_000;

export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';
  readonly code = 'RELATA_STORE_BUSY';

  constructor(
    /** The database file. */
    readonly file: string,
    /** The process holding the lock, e.g. "process 4242 (node relata index docs)", when known. */
    readonly holder: string | null,
    options: { cause: unknown },
  ) {
    super(
      `${file} is busy: ${holder ?? 'another Relata process'} is writing to it and still held its lock after ` +
        `${BUSY_WAIT_MS / 1000} s. Try again when that process has finished, or stop it`,
      options,
    );
  }
}

/** SQLite's "database is locked" (SQLITE_BUSY and its extended codes; better-sqlite3 puts the code on `code`). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_BUSY(_|$)/.test(code);
}

/** The error as a StoreBusyError naming `file` and the lock's holder when SQLite said busy, else the error itself. */
export function namingBusy(error: unknown, file: string, holder: () => string | null): unknown {
  if (error instanceof StoreBusyError || !isSqliteBusy(error)) return error;
  return new StoreBusyError(file, holder(), { cause: error });
}

/**
 * The store with every method's busy failure named (namingBusy). A transaction's BEGIN, an
 * auto-committed statement and a vector graph's save can each meet the lock, from dozens of
 * methods; wrapping them at the store's boundary covers all of them, including ones added later.
 */
export function namingBusyIn<T extends object>(store: T, file: string, holder: () => string | null): T {
  const named = (error: unknown) => namingBusy(error, file, holder);
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const result: unknown = value.apply(target, args);
          return result instanceof Promise
            ? result.catch((error: unknown) => {
                throw named(error);
              })
            : result;
        } catch (error) {
          throw named(error);
        }
      };
    },
  });
}
