// What `relata search` and a language server say over the search socket (place.ts): one request
// line, one answer line, both JSON, then the connection closes. Only a search can be asked: the
// socket reads the store and never writes to it or decides anything. The answer carries the
// engine's own SearchResponse, so the command line prints it exactly as it prints its own.

import type { SearchResponse } from '../../../shared/types.ts';
import { boolean, integer, number, object, oneOf, string, type Schema } from '../../../shared/schema.ts';
import { RANK_VERSIONS, type ExpansionSettings, type RankVersion } from '../ranking/weights.ts';

export interface SocketSearchRequest {
  /** The asker's storeDigest(): a server with another store refuses rather than answers. */
  store: string;
  query: string;
  limit: number;
  rankVersion: RankVersion;
  /** Read from the asker's environment, as its own search would read them. */
  expansion: ExpansionSettings;
}

export type SocketSearchAnswer = { store: string; response: SearchResponse } | { store: string; error: string };

export const SOCKET_SEARCH_REQUEST: Schema<SocketSearchRequest> = object({
  store: string({ minLength: 64, maxLength: 64 }),
  query: string({ minLength: 1, maxLength: 10_000 }),
  limit: integer({ min: 1, max: 100 }),
  rankVersion: oneOf(RANK_VERSIONS),
  expansion: object({
    maxSeeds: integer({ min: 0 }),
    minScore: number({ min: 0, max: 1 }),
    confirmedOnly: boolean(),
  }),
});

/** A request is one short line; anything longer is not a search. */
export const MAX_REQUEST_BYTES = 64 * 1024;

/**
 * How long the command line waits for the whole answer before searching in its own process. A
 * server with its query model loaded answers in tens of milliseconds; one still loading it, or
 * busy, costs at most this on top of the search the command line would have run anyway.
 */
export const ANSWER_TIMEOUT_MS = 2000;
