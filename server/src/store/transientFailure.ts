// Which store failures pass with time: another process holding the SQLite write lock, a
// MongoDB or Qdrant server that does not answer, or a full disk under the data directory (once
// space is freed: see diskFull.ts). Work that meets one is kept and tried again (the
// watcher, the language server, a worker), and a pipeline job that meets one is handed back
// without spending an attempt, since the document was never the problem. Refused credentials
// are not transient: waiting would not fix them.

import { isDiskFull } from './diskFull.ts';
import { isSqliteBusy, StoreBusyError } from './storeBusy.ts';

/** The errors and their causes, as deep as a wrapper of a wrapper goes (AggregateError's members too). */
export function* chain(error: unknown): Generator<Error> {
  const seen = new Set<unknown>();
  const queue = [error];
  while (queue.length > 0 && seen.size < 20) {
    const current = queue.shift();
    if (!(current instanceof Error) || seen.has(current)) continue;
    seen.add(current);
    yield current;
    queue.push(current.cause);
    if (current instanceof AggregateError) queue.push(...current.errors);
  }
}

/** True when the error says another process holds the store's lock, not that something is broken. */
export function isStoreBusy(error: unknown): boolean {
  for (const cause of chain(error)) {
    if (cause instanceof StoreBusyError || isSqliteBusy(cause)) return true;
  }
  return false;
}

/**
 * Codes of a connection that could not be made or was lost (Node's sockets and DNS, undici's
 * fetch under the Qdrant client), and the store's own for a server it could not reach.
 */
export const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'ETIMEDOUT', 'EPIPE',
  'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'RELATA_STORE_UNREACHABLE',
]);
/** The MongoDB driver's errors for a server it cannot reach (matched by name: the engine never loads the driver itself). */
const MONGODB_UNREACHABLE = new Set(['MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoServerSelectionError']);
/** The Qdrant client's errors for a service that did not answer in time or asked to be left alone for a while. */
const QDRANT_UNREACHABLE = new Set(['QdrantClientTimeoutError', 'QdrantClientResourceExhaustedError']);
/** A gateway or service that is there but not serving yet (a restarting Qdrant behind a proxy). */
const UNAVAILABLE_STATUS = /^Unexpected Response: (502|503|504)\b/;
/** Refused credentials are not waited out: nothing changes until the person fixes them. */
const REFUSED = /authentication failed|not authorized|requires authentication|refused the (credentials|api key|operation)|^Unexpected Response: (401|403)\b/i;

/**
 * True when the MongoDB or Qdrant server could not be reached or dropped the connection: the
 * work is kept and tried again when it is back. Refused credentials are not this: waiting would
 * not fix them.
 */
export function isStoreUnreachable(error: unknown): boolean {
  let unreachable = false;
  for (const cause of chain(error)) {
    if (REFUSED.test(cause.message)) return false;
    const code = (cause as { code?: unknown }).code;
    if (
      (typeof code === 'string' && CONNECTION_CODES.has(code)) ||
      MONGODB_UNREACHABLE.has(cause.name) ||
      QDRANT_UNREACHABLE.has(cause.name) ||
      (cause.name === 'QdrantClientUnexpectedResponseError' && UNAVAILABLE_STATUS.test(cause.message))
    ) {
      unreachable = true;
    }
  }
  return unreachable;
}

/**
 * Busy, unreachable or out of space: a failure that passes with time (or with space freed), so the
 * work is kept and retried, and no document is blamed for it.
 */
export function isWorthRetrying(error: unknown): boolean {
  return isStoreBusy(error) || isStoreUnreachable(error) || isDiskFull(error);
}
