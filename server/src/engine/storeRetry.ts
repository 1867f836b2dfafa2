// When a pass of work cannot reach the store (another process holds its write lock for longer
// than the store waits, the disk is full for a while, or the MongoDB or Qdrant server does not
// answer), the work is kept and tried again later rather than dropped. This is the one place that
// says how long to wait, which failures are worth waiting out, and how to say so, for the watcher
// and the language server alike.

import { StoreBusyError } from '../store/storeBusy.ts';
import { chain, CONNECTION_CODES, isStoreBusy, isStoreUnreachable } from '../store/transientFailure.ts';

/** The first wait after a failure; each further failure doubles it, up to the cap. */
export const FIRST_RETRY_MS = 500;
export const MAX_RETRY_MS = 10_000;

/** The wait before retry number `failures` (0 for the first): 0.5 s, 1 s, 2 s, … 10 s, 10 s, … */
export function retryDelayMs(failures: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures));
}

/** Any `scheme://user:password@` in a message becomes `scheme://***@`: a driver may quote its URI. */
export function withoutCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^@\s/?#]*@/gi, '$1***@');
}

/** The store's own error for a server it could not use (mongoQdrant/connection.ts), which names the server and where. */
function storesOwn(error: unknown): Error | undefined {
  return [...chain(error)].find((cause) => (cause as { code?: unknown }).code === 'RELATA_STORE_UNREACHABLE');
}

/**
 * One line for a server that could not be reached: which one (by the error's family) and the
 * connection's own words, e.g. "Qdrant: connect ECONNREFUSED 10.0.0.5:6333", never a stack.
 */
export function unreachableReason(error: unknown): string {
  const own = storesOwn(error);
  if (own) return withoutCredentials(own.message);
  const causes = [...chain(error)];
  const server = causes.some((cause) => cause.name.startsWith('Mongo'))
    ? 'MongoDB: '
    : causes.some((cause) => cause.name.startsWith('QdrantClient') || cause.message === 'fetch failed')
      ? 'Qdrant: '
      : '';
  // The innermost cause with a connection code says what happened ("connect ECONNREFUSED …");
  // "fetch failed" above it says nothing.
  const coded = causes.filter((cause) => CONNECTION_CODES.has(String((cause as { code?: unknown }).code))).at(-1);
  const words = (coded ?? causes[0])?.message ?? String(error);
  return withoutCredentials(server + (words.split('\n')[0] ?? words));
}

/**
 * What a person is told while work waits for its retry, e.g. "store busy: process 4242 (node
 * relata index docs) is writing to /data/relata.sqlite; will retry in 2 s".
 */
export function describeRetry(error: unknown, delayMs: number): string {
  const wait = `will retry in ${Number((delayMs / 1000).toFixed(1))} s`;
  if (error instanceof StoreBusyError) return `store busy: ${error.holder ?? 'another process'} is writing to ${error.file}; ${wait}`;
  if (isStoreUnreachable(error)) {
    // The store's own error already says "cannot reach MongoDB at …"; a driver's needs the words.
    return storesOwn(error) ? `${unreachableReason(error)}; ${wait}` : `store unreachable (${unreachableReason(error)}); ${wait}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return isStoreBusy(error) ? `store busy (${message}); ${wait}` : `${message}; ${wait}`;
}
