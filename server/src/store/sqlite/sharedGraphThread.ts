// The shared vector graph's thread (sharedGraph.ts): the one HNSW graph per model that every
// connection of the language server looks vectors up in, through a port each. A graph holds each
// window's vector and its links, ~2.2 KiB a window (~1.9 GiB at 100,000 notes); held by each
// search thread and discovery lane it was most of the server's memory.
// Bundled by esbuild as dist/sharedGraphThread.js; see ../../embed/workerThread.ts for how it is found.

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { GraphAnswer, GraphRequest, SharedGraphData, ToSharedGraphThread } from './sharedGraphProtocol.ts';
import { openSqliteStore, type SqliteStore } from './sqliteStore.ts';

if (parentPort === null) throw new Error('sharedGraphThread must run in a worker thread');
const owner = parentPort;
const data = workerData as SharedGraphData;
const ports = new Set<MessagePort>();
let store: SqliteStore | null = null;

/**
 * Opened by the first look-up. A writer's connection, so that its graph can be saved on a store no
 * writer saved one for yet (the generation is recorded then), but saved off the thread: this
 * thread answers every look-up of the process. A saved graph is read off the thread as well, look-ups
 * waiting for it and readiness checks answering "not yet" meanwhile. No copy of the vectors is kept
 * beside the graph: candidates are re-scored from the database (~20 µs each).
 */
function opened(): SqliteStore {
  store ??= openSqliteStore({
    dataDir: data.location.dataDir,
    databaseFile: data.location.databaseFile,
    workspace: data.workspace,
    holdVectors: false,
    saveGraphsInBackground: true,
    loadGraphsInBackground: true,
    vectorIndex: data.settings,
  });
  return store;
}

async function answer(request: GraphRequest): Promise<GraphAnswer> {
  try {
    if (request.type === 'ready') return { type: 'ready', id: request.id, ready: await opened().vectorLookupReady(request.modelId) };
    const hits = await opened().lookUpVectors(request.modelId, request.queries, request.k, request.exactWhileCatchingUp);
    return { type: 'hits', id: request.id, hits };
  } catch (error) {
    return { type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) };
  }
}

function serve(port: MessagePort): void {
  ports.add(port);
  port.on('message', (request: GraphRequest) => {
    void answer(request).then((reply) => port.postMessage(reply));
  });
  port.on('close', () => ports.delete(port));
}

owner.on('message', (message: ToSharedGraphThread) => {
  if (message.type === 'connect') {
    serve(message.port);
    return;
  }
  for (const port of ports) port.close();
  void (store?.close() ?? Promise.resolve()).finally(() => owner.close());
});
