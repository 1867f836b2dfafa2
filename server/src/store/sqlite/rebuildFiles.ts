// The files of `relata index --rebuild` in a data directory, and the one rule that keeps every
// decision through a crash: relata.sqlite is replaced only by a complete store, and only by renames.
//
// The new store is built beside the live one, as relata.sqlite.rebuilding (blobs and vector graphs
// are shared: blobs are named by their hash, and a graph names the database it was built from).
// While it is built, the rebuild holds the live store's write lock (its "guard"), so no decision
// can be written there that the new store would not have. When the new store is complete (decisions
// re-attached, closed, its log folded in) it is renamed relata.sqlite.rebuilt-<time>: complete,
// not yet live. Then, with the lock still held, the live files are renamed
// relata.sqlite.before-rebuild-<time> (kept, never deleted), and the rebuilt file takes the live name.
//
// A crash leaves one of three states, and the next command that opens the store settles it:
// - relata.sqlite.rebuilding: a partial store; the live one was never touched. Removed.
// - relata.sqlite.rebuilt-<time> beside relata.sqlite: the swap had not begun, and the live store
//   may have been written since the crash, so it stays the store. The rebuilt file is removed.
// - relata.sqlite.rebuilt-<time> and no relata.sqlite: the swap had begun, the old store is kept
//   under the same <time>. The swap is finished.
// Removing needs the live store's write lock (a running rebuild holds it until its file is
// renamed), so a leftover is never mistaken for a rebuild still at work. Finishing needs no lock:
// every process that finds the state finishes the same swap, unless the rebuild is still alive
// in it (its guard's locks on the file set aside show in /proc/locks), which finishes it itself.

import Database from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { DATABASE_FILE, REBUILT_PREFIX as REBUILT } from '../dataDir.ts';
import { BUSY_WAIT_MS, isSqliteBusy, StoreBusyError } from '../storeBusy.ts';
import { otherProcessesWithStoreOpen, writeLockHolder } from './lockHolder.ts';

/** The store a rebuild is building: partial until renamed. */
export const REBUILDING_FILE = `${DATABASE_FILE}.rebuilding`;
const KEPT = `${DATABASE_FILE}.before-rebuild-`;
const SIDE_FILES = ['-wal', '-shm'];

/** The live store's write lock, held by a rebuild; null when the old file is not a store SQLite can lock (damaged). */
export type LiveStoreGuard = Database.Database | null;

/**
 * Takes the live store's write lock for the rebuild. Its log is folded in first, so the file set
 * aside later holds every commit on its own. A store SQLite cannot open is not guarded: nobody
 * else can write it either.
 */
export function guardLiveStore(dataDir: string): LiveStoreGuard {
  const file = path.join(dataDir, DATABASE_FILE);
  if (!existsSync(file)) return null;
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true, timeout: BUSY_WAIT_MS });
  } catch {
    return null;
  }
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.exec('BEGIN IMMEDIATE');
    return db;
  } catch (error) {
    db.close();
    if (isSqliteBusy(error)) throw new StoreBusyError(file, writeLockHolder(file), { cause: error });
    return null;
  }
}

/** True when the live store's write lock could be taken, i.e. no rebuild (and no writer) is at work. */
function liveStoreIsFree(file: string): boolean {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 0 });
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return true;
  } catch (error) {
    // A damaged file cannot be locked, and cannot be written by a rebuild's guard either.
    return !isSqliteBusy(error);
  } finally {
    db?.close();
  }
}

/** The names of an interrupted or running rebuild's files in the data directory. */
function rebuildFiles(dataDir: string): { rebuilding: boolean; rebuilt: string[] } {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    return { rebuilding: false, rebuilt: [] };
  }
  return {
    rebuilding: names.includes(REBUILDING_FILE) || names.includes(`${REBUILDING_FILE}-wal`),
    rebuilt: names.filter((name) => name.startsWith(REBUILT) && !SIDE_FILES.some((suffix) => name.endsWith(suffix))).sort(),
  };
}

/** A store file and its -wal and -shm, removed. */
function removeStoreFiles(file: string): void {
  for (const suffix of ['', ...SIDE_FILES]) rmSync(`${file}${suffix}`, { force: true });
}

/** A rename that another process may have made first: done either way. */
function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A rename in the directory survives a power cut once the directory itself is synced. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse to sync a directory; the rename has happened all the same.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export interface SettleOptions {
  /** Remove leftovers too (a writer); a reader only finishes a swap that had begun, and leaves the rest for status to report. */
  remove: boolean;
  /** The caller holds the live store's write lock already (a rebuild's guard). */
  locked?: boolean;
}

/**
 * Settles what an interrupted rebuild left (see the top comment) and says what was done, one line
 * each. Unless the caller holds it, the live store's write lock is taken for a moment before
 * anything is removed, and nothing is removed while another process holds it.
 */
export function settleInterruptedRebuild(dataDir: string, { remove, locked = false }: SettleOptions): string[] {
  const found = rebuildFiles(dataDir);
  if (!found.rebuilding && found.rebuilt.length === 0) return [];
  const file = path.join(dataDir, DATABASE_FILE);
  const said: string[] = [];
  for (const rebuilt of found.rebuilt) {
    if (existsSync(file)) continue;
    const kept = `${KEPT}${rebuilt.slice(REBUILT.length)}`;
    // The rebuild itself is between its renames while its guard still holds the file set aside
    // (its -shm is locked): it finishes, and its guard's close must not meet a new store's log.
    if (otherProcessesWithStoreOpen(path.join(dataDir, kept)).length > 0) continue;
    // The old store's log and shared memory go with its file, never beside the new one.
    for (const suffix of SIDE_FILES) if (!existsSync(file)) renameIfThere(`${file}${suffix}`, path.join(dataDir, `${kept}${suffix}`));
    renameIfThere(path.join(dataDir, rebuilt), file);
    syncDirectory(dataDir);
    said.push(`finished an interrupted rebuild: ${rebuilt} is now the store, the old one is kept as ${kept}`);
  }
  if (!remove) return said;
  const leftovers = rebuildFiles(dataDir);
  // A rebuild with no store to replace has no guard; where the system tells, its open file says it is at work.
  const removable = [...(leftovers.rebuilding ? [REBUILDING_FILE] : []), ...(existsSync(file) ? leftovers.rebuilt : [])].filter(
    (name) => otherProcessesWithStoreOpen(path.join(dataDir, name)).length === 0,
  );
  if (removable.length === 0 || !(locked || liveStoreIsFree(file))) return said;
  for (const name of removable) {
    removeStoreFiles(path.join(dataDir, name));
    said.push(
      name === REBUILDING_FILE
        ? `removed ${name}, the partial store of a rebuild that was interrupted; the store it was to replace is unchanged and keeps every decision`
        : `removed ${name}, a rebuilt store whose rebuild was interrupted before it replaced the store; the store is as it was before that rebuild`,
    );
  }
  return said;
}

export interface RebuildLeftover {
  /** The file's name in the data directory. */
  file: string;
  /** What it is and what happens to it, in a sentence that starts with its name. */
  message: string;
}

/** What `relata status` and `relata check` say about a rebuild's files beside the store; empty when there are none. */
export function describeRebuildLeftovers(dataDir: string): RebuildLeftover[] {
  const found = rebuildFiles(dataDir);
  const lines: RebuildLeftover[] = [];
  const running = (name: string) => {
    const users = otherProcessesWithStoreOpen(path.join(dataDir, name));
    return users.length > 0 ? ` (${users.join(', ')} has it open: a rebuild may still be running)` : '';
  };
  if (found.rebuilding) {
    lines.push({
      file: REBUILDING_FILE,
      message:
        `${REBUILDING_FILE} is the partial result of a rebuild that did not finish${running(REBUILDING_FILE)}: ` +
        `it never replaced ${DATABASE_FILE}, which keeps every decision. The next \`relata index\` removes it; run \`relata index --rebuild\` again to rebuild`,
    });
  }
  for (const name of found.rebuilt) {
    lines.push({
      file: name,
      message:
        `${name} is a rebuilt store whose rebuild was interrupted before it replaced ${DATABASE_FILE}: the next command that opens the store ` +
        `${existsSync(path.join(dataDir, DATABASE_FILE)) ? 'to write removes it (the store is as it was before that rebuild)' : 'puts it in place'}`,
    });
  }
  return lines;
}

/**
 * Puts the complete store at REBUILDING_FILE in place of the live one (the caller closed it) and
 * releases the guard; returns where the old file is kept, or null when there was none. Refuses,
 * leaving the live store as it is, when another process opened the live store meanwhile.
 */
export function replaceLiveStore(dataDir: string, guard: LiveStoreGuard): string | null {
  const file = path.join(dataDir, DATABASE_FILE);
  const building = path.join(dataDir, REBUILDING_FILE);
  // A clean close folds the log into the file and removes it; a log left over holds commits the file lacks.
  if (existsSync(`${building}-wal`) && statSync(`${building}-wal`).size > 0) {
    throw new Error(`${building}-wal still holds changes after the rebuilt store was closed; the store was not replaced`);
  }
  rmSync(`${building}-shm`, { force: true });
  const stamp = uniqueStamp(dataDir);
  const rebuilt = path.join(dataDir, `${REBUILT}${stamp}`);
  renameSync(building, rebuilt);
  syncDirectory(dataDir);
  const users = otherProcessesWithStoreOpen(file);
  if (users.length > 0) {
    removeStoreFiles(rebuilt);
    throw new Error(
      `${file} was opened by ${users.join(', ')} during the rebuild: the store was not replaced, so nothing written there is lost. ` +
        'Stop it and run `relata index --rebuild` again',
    );
  }
  let kept: string | null = null;
  if (existsSync(file)) {
    kept = path.join(dataDir, `${KEPT}${stamp}`);
    // Under the guard's lock: no writer can come between the file and its log.
    renameSync(file, kept);
    for (const suffix of SIDE_FILES) renameIfThere(`${file}${suffix}`, `${kept}${suffix}`);
  }
  // Closed only now, so no decision reaches the old file after it was read; its names are all aside.
  guard?.close();
  renameIfThere(rebuilt, file);
  syncDirectory(dataDir);
  return kept;
}

/** Gives up a rebuild that failed while running: its partial store goes, the live store stays. */
export function removePartialStore(dataDir: string, guard: LiveStoreGuard): void {
  removeStoreFiles(path.join(dataDir, REBUILDING_FILE));
  if (guard?.open) guard.close();
}

/** A time that names neither a kept store nor a rebuilt one yet. */
function uniqueStamp(dataDir: string, at = new Date()): string {
  const base = at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const taken = (stamp: string) => existsSync(path.join(dataDir, `${KEPT}${stamp}`)) || existsSync(path.join(dataDir, `${REBUILT}${stamp}`));
  let stamp = base;
  for (let n = 2; taken(stamp); n += 1) stamp = `${base}-${n}`;
  return stamp;
}
