// A full disk (or a spent quota) under the data directory is the disk's fault, never a document's:
// a job that meets it is handed back without spending an attempt, the run stops (a watcher, the
// language server or a worker pauses and tries again), and the person is told once where space is
// needed and about how much. This module recognises the failure, wherever it surfaced (a blob's
// write, SQLite's "database or disk is full"), and words it.

import { statfsSync } from 'node:fs';

/** The file system's codes for no space left and quota exceeded; SQLite's own for a write it could not make. */
const FULL_CODES = /^(ENOSPC|EDQUOT|SQLITE_FULL(_\w+)?|RELATA_DISK_FULL)$/;

/** A wrapper of a wrapper of the file system's error is as deep as the store goes. */
const MAX_DEPTH = 5;

/** True when the error, or one it wraps (through `cause`), says the disk (or the user's quota) is full. */
export function isDiskFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && FULL_CODES.test(code)) return true;
    current = current.cause;
  }
  return false;
}

/** What is still to be stored when the disk filled up: the estimate the message gives. */
export interface SpaceNeeded {
  /** Files whose bytes are not stored yet, and their total size. */
  filesToStore: number;
  bytesToStore: number;
  /** Files stored but not yet cut into passages, and their total size (their passages take about as much again). */
  filesToIndex: number;
  bytesToIndex: number;
}

export class DiskFullError extends Error {
  override readonly name = 'DiskFullError';
  readonly code = 'RELATA_DISK_FULL';

  constructor(
    /** Where the store is: the SQLite data directory, or a description of another store. */
    readonly where: string,
    readonly needed: SpaceNeeded,
    /** Bytes free where the store is, when the system can tell. */
    readonly freeBytes: number | null,
    options: { cause: unknown },
  ) {
    const total = needed.bytesToStore + needed.bytesToIndex;
    const free = freeBytes === null ? '' : ` (${megabytes(freeBytes)} MB free)`;
    const what = [
      needed.filesToStore > 0 ? `${needed.filesToStore} file(s) still to store, ${megabytes(needed.bytesToStore)} MB` : '',
      needed.filesToIndex > 0 ? `the passages of ${needed.filesToIndex} stored file(s), about ${megabytes(needed.bytesToIndex)} MB` : '',
    ].filter(Boolean);
    super(
      `the disk holding ${where} is full${free}: the store needs at least ${megabytes(Math.max(total, MIN_REPORTED_BYTES))} MB more there` +
        `${what.length > 0 ? ` (${what.join('; ')}), and room for its indexes` : ' for what it was writing'}. ` +
        'Free space there (or choose another --data directory) and run the same command again: nothing was marked failed because of it',
      options,
    );
  }
}

/** A store that filled up on its last bytes still needs some room: never "0.0 MB". */
const MIN_REPORTED_BYTES = 1024 * 1024;

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/** Bytes free to this user on the file system holding `directory`, or null when it cannot be told. */
export function freeBytesAt(directory: string): number | null {
  try {
    const stats = statfsSync(directory);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}
