// The language server's side of the search socket: while a folder's store is open, it answers
// `relata search` from the command line on this machine with the store and query model it already
// has loaded, so the command skips loading them (docs/PERFORMANCE.md "Cold start"). Searches only:
// nothing asked here writes to the store or decides anything.

import { chmodSync, rmSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import type { SearchResponse } from '../../../shared/types.ts';
import { problemsWith } from '../../../shared/schema.ts';
import { lstatOrNull, prepareSocketDirectory, socketPath, storeDigest, unsafeSocketReason, type StoreIdentity } from './place.ts';
import { MAX_REQUEST_BYTES, SOCKET_SEARCH_REQUEST, type SocketSearchAnswer, type SocketSearchRequest } from './protocol.ts';

export interface SearchOfferOptions {
  identity: StoreIdentity;
  search(request: SocketSearchRequest): Promise<SearchResponse>;
  log(message: string): void;
}

export interface SearchOffer {
  readonly socket: string;
  close(): Promise<void>;
}

/** A connection that says nothing for this long is closed: a request is one line, sent at once. */
const IDLE_MS = 10_000;

/**
 * Listens on the store's socket; null (and a line in the log saying why) when there is none to
 * offer: Windows, a path too long, a directory that is not private, or another server already
 * answering for the same store (a second editor window on the folder).
 */
export async function offerSearches(options: SearchOfferOptions): Promise<SearchOffer | null> {
  const digest = storeDigest(options.identity);
  const socket = socketPath(digest);
  if (socket === null) return null;
  const refused = (reason: string) => {
    options.log(`not answering \`relata search\` from the command line: ${reason}`);
    return null;
  };
  const directoryReason = prepareSocketDirectory(path.dirname(socket));
  if (directoryReason) return refused(directoryReason);
  const existing = unsafeSocketReason(socket);
  if (existing === null) {
    if (await answers(socket)) return refused(`another process already answers on ${socket}`);
    // Left behind by a server that did not close (it crashed or was killed).
    unlinkSync(socket);
  } else if (lstatOrNull(socket)) {
    return refused(existing);
  }

  const connections = new Set<Socket>();
  const server = createServer((connection) => {
    connections.add(connection);
    connection.on('close', () => connections.delete(connection));
    answer(connection, digest, options);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // The directory already keeps others out; the socket's own mode says so twice.
    chmodSync(socket, 0o600);
  } catch (error) {
    server.close();
    return refused(`${socket} could not be listened on: ${(error as Error).message}`);
  }
  server.on('error', (error) => options.log(`search socket ${socket}: ${error.message}`));
  removedOnExit(socket);
  return {
    socket,
    close: () => {
      listening.delete(socket);
      // A search still running is cut off: its asker searches in its own process instead.
      for (const connection of connections) connection.destroy();
      return closeServer(server);
    },
  };
}

function answer(connection: Socket, digest: string, options: SearchOfferOptions): void {
  connection.setTimeout(IDLE_MS, () => connection.destroy());
  connection.on('error', () => undefined);
  let received = '';
  const onData = (chunk: Buffer) => {
    received += chunk.toString('utf8');
    const end = received.indexOf('\n');
    if (end < 0) {
      if (received.length > MAX_REQUEST_BYTES) connection.destroy();
      return;
    }
    connection.off('data', onData);
    void reply(received.slice(0, end));
  };
  const reply = async (line: string) => {
    const started = performance.now();
    const send = (message: SocketSearchAnswer) => connection.end(`${JSON.stringify(message)}\n`);
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch {
      return send({ store: digest, error: 'the request is not JSON' });
    }
    const problems = problemsWith(SOCKET_SEARCH_REQUEST, request, 'request');
    if (problems.length > 0) return send({ store: digest, error: problems.join('; ') });
    const search = request as SocketSearchRequest;
    if (search.store !== digest) return send({ store: digest, error: 'this server has another store open' });
    try {
      const response = await options.search(search);
      // Said before it is sent: whoever reads the log sees the line before the asker has its answer.
      options.log(`answered a \`relata search\` from the command line in ${Math.round(performance.now() - started)} ms`);
      send({ store: digest, response });
    } catch (error) {
      send({ store: digest, error: (error as Error).message });
    }
  };
  connection.on('data', onData);
}

/** Whether something accepts connections on the socket (a live server, not a file left behind). */
function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(socket);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** The sockets this process listens on; one listener for them all, however many folders are open. */
const listening = new Set<string>();
let exitHooked = false;

/**
 * An editor that exits without shutting the server down first: the sockets go with the process
 * rather than wait for the next server to find them left behind.
 */
function removedOnExit(socket: string): void {
  if (!exitHooked) process.once('exit', () => listening.forEach((file) => rmSync(file, { force: true })));
  exitHooked = true;
  listening.add(socket);
}

function closeServer(server: Server): Promise<void> {
  // Node removes the socket file when a server listening on a path closes.
  return new Promise((resolve) => server.close(() => resolve()));
}
