// Parse-thread entry point: files are parsed here, beside the main thread's event loop, so a file
// that takes minutes or gigabytes stalls only this thread, and the thread can be stopped (memory
// limit, timeout) without stopping the indexer. Bundled by esbuild as dist/parseThread.js; see
// ../../embed/workerThread.ts for how it is found.

import { parentPort } from 'node:worker_threads';
import { parseFile } from '../../parse/registry.ts';
import { ParseError } from '../../parse/types.ts';
import type { ParseReply, ParseRequest } from './protocol.ts';

const port = parentPort;
if (port === null) throw new Error('parseThread must run in a worker thread');

port.on('message', (request: ParseRequest) => void handle(request));

async function handle({ job, bytes, fileName, limits }: ParseRequest): Promise<void> {
  let reply: ParseReply;
  try {
    reply = { kind: 'parsed', job, document: await parseFile(bytes, fileName, limits) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply = { kind: 'failed', job, message, fileAtFault: error instanceof ParseError };
  }
  port!.postMessage(reply);
}

port.postMessage({ kind: 'ready' } satisfies ParseReply);
