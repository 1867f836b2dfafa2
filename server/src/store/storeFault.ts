// Whether a failure came from the store rather than from the document being processed. A file
// that cannot be parsed is that file's problem, reported against it, and the run goes on; a store
// that answers "database disk image is malformed", or a disk that is full, fails every job that
// touches it, so a command must not call such a run a success. The store's own errors that
// replace SQLite's (storeErrors.ts, storeBusy.ts: codes RELATA_STORE_*) count, and wrappers are
// followed through their `cause`.

/** File-system codes that mean the data directory, not the document, is at fault. */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS']);
/** A wrapper of a wrapper of SQLite's error is as deep as the store goes. */
const MAX_DEPTH = 5;

export function isStoreFault(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (/^(SQLITE|RELATA_STORE)_/.test(code) || STORAGE_CODES.has(code))) return true;
    if (current.name === 'SqliteError') return true;
    current = current.cause;
  }
  return false;
}
