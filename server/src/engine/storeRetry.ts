// When a pass of work cannot reach the store (another process holds its write lock for longer
// than the store waits, or the disk is full for a while), the work is kept and tried again later
// rather than dropped. This is the one place that says how long to wait and how to say so, for
// the watcher and the language server's first run alike.

import { isSqliteBusy, StoreBusyError } from '../store/storeBusy.ts';

/** The first wait after a failure; each further failure doubles it, up to the cap. */
export const FIRST_RETRY_MS = 500;
export const MAX_RETRY_MS = 10_000;

/** The wait before retry number `failures` (0 for the first): 0.5 s, 1 s, 2 s, … 10 s, 10 s, … */
export function retryDelayMs(failures: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures));
}

/** True when the error says another process holds the store's lock, not that something is broken. */
export function isStoreBusy(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof StoreBusyError || isSqliteBusy(cause)) return true;
  }
  return false;
}

/**
 * What a person is told while work waits for its retry, e.g. "store busy: process 4242 (node
 * relata index docs) is writing to /data/relata.sqlite; will retry in 2 s".
 */
export function describeRetry(error: unknown, delayMs: number): string {
  const wait = `will retry in ${Number((delayMs / 1000).toFixed(1))} s`;
  if (error instanceof StoreBusyError) return `store busy: ${error.holder ?? 'another process'} is writing to ${error.file}; ${wait}`;
  const message = error instanceof Error ? error.message : String(error);
  return isStoreBusy(error) ? `store busy (${message}); ${wait}` : `${message}; ${wait}`;
}
