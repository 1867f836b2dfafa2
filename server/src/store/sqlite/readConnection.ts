// A connection that only reads the store: opened read-only, so it takes no write lock and cannot
// write, migrate, create an index or change a file's mode. In WAL mode a reader reads the last
// committed state and never waits for a writer's transaction.
//
// One case needs care. A WAL reader uses the -wal and -shm files beside the database, and SQLite
// creates them when they are missing, which a directory this process may not write refuses
// (SQLITE_READONLY_DIRECTORY). They are missing exactly when the last writer closed cleanly, so the
// database file then holds every committed change: it is read into memory and opened there (its
// header's WAL marker set to the rollback journal's, the only difference an in-memory copy needs).
// That costs memory the size of the file, and only in a directory nobody without root can write,
// where no writer can change it either.

import Database from 'better-sqlite3';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BUSY_WAIT_MS } from '../storeBusy.ts';

/** SQLite could not create the -wal or -shm file it needs to read a WAL database. */
const CANNOT_CREATE_WAL_FILES = /^SQLITE_(READONLY_DIRECTORY|CANTOPEN)/;

/** Header bytes 18 and 19: the file format's write and read versions, 2 for WAL, 1 for a rollback journal. */
const WAL_FORMAT = 2;
const ROLLBACK_FORMAT = 1;

export function openToRead(file: string): Database.Database {
  // A WAL reader meets a lock only while another connection recovers the log after a crash.
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_WAIT_MS });
  try {
    // The first read is where SQLite opens the -wal and -shm files, or fails to.
    db.pragma('schema_version', { simple: true });
    return db;
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !CANNOT_CREATE_WAL_FILES.test(code)) throw error;
    return openCopyInMemory(file, error);
  }
}

function openCopyInMemory(file: string, cause: unknown): Database.Database {
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    // Committed changes may sit in the log, which cannot be read without its -shm file.
    throw new Error(
      `${file} cannot be read here: its write-ahead log needs a ${path.basename(file)}-shm file beside it, which ` +
        `${path.dirname(file)} does not allow to be created. Make the directory writable; then any Relata command can read it`,
      { cause },
    );
  }
  const bytes = readFileSync(file);
  if (bytes.length >= 20 && bytes[18] === WAL_FORMAT && bytes[19] === WAL_FORMAT) {
    bytes[18] = ROLLBACK_FORMAT;
    bytes[19] = ROLLBACK_FORMAT;
  }
  return new Database(bytes, { readonly: true });
}
