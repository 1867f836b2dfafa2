// The command line's side of the search socket: asks the language server that has the same
// store open, if there is one and its socket is private, and gives up quietly otherwise. Null
// means "search in this process": no socket, one that is not private, a server that is gone (a
// file left behind), one with another store, an error, or no answer within ANSWER_TIMEOUT_MS.

import { createConnection } from 'node:net';
import path from 'node:path';
import type { SearchResponse } from '../../../shared/types.ts';
import { socketPath, storeDigest, unsafeDirectoryReason, unsafeSocketReason, type StoreIdentity } from './place.ts';
import { ANSWER_TIMEOUT_MS, type SocketSearchAnswer, type SocketSearchRequest } from './protocol.ts';

/** Answers larger than this are not read: a search response is tens of kilobytes. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export async function askRunningServer(
  identity: StoreIdentity,
  search: Omit<SocketSearchRequest, 'store'>,
  timeoutMs = ANSWER_TIMEOUT_MS,
): Promise<SearchResponse | null> {
  const digest = storeDigest(identity);
  const socket = socketPath(digest);
  if (socket === null || unsafeDirectoryReason(path.dirname(socket)) !== null || unsafeSocketReason(socket) !== null) return null;
  const request: SocketSearchRequest = { store: digest, ...search };
  const line = await exchange(socket, `${JSON.stringify(request)}\n`, timeoutMs);
  if (line === null) return null;
  try {
    const answer = JSON.parse(line) as SocketSearchAnswer;
    return answer.store === digest && 'response' in answer ? answer.response : null;
  } catch {
    return null;
  }
}

/** Sends the request and reads the one answer line; null on any failure or after the timeout. */
function exchange(socket: string, request: string, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const connection = createConnection(socket);
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (line: string | null) => {
      clearTimeout(timer);
      connection.destroy();
      resolve(line);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    connection.on('connect', () => connection.write(request));
    connection.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) finish(null);
    });
    connection.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\n');
      finish(end < 0 ? null : text.slice(0, end));
    });
    connection.on('error', () => finish(null));
  });
}
