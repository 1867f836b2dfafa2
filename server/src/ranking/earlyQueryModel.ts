// What a cold `relata search` or `relata ask` waits for longest is the query model: its thread
// reads 25 MB of weights, converts the graph and starts onnxruntime (or TF.js and its WASM). So the `relata` executable (cli/launch.ts) starts
// that thread first, before it loads the command line's bundle and native modules, and the query
// embedder adopts it (queryEmbedder.ts). The two are separate bundles with a module instance
// each, so the thread is handed over on globalThis.

import type { Worker } from 'node:worker_threads';
import { parseEmbeddingChoice } from '../embed/choice.ts';
import { closeUseLiteWorker } from '../embed/useLite/closeWorker.ts';
import { holdOnnxRuntime } from '../embed/useLite/onnxRuntimeHold.ts';
import { startUseLiteWorker } from '../embed/useLite/workerScript.ts';

const HANDOVER = Symbol.for('relata.earlyQueryModelThread');

type WorkerEvent = 'message' | 'error' | 'exit';

interface Handover {
  worker: Worker;
  /** What the thread reported before anyone adopted it, in order. */
  events: [WorkerEvent, unknown][];
  listeners: [WorkerEvent, (value: unknown) => void][];
}

const globals = globalThis as { [HANDOVER]?: Handover };

/**
 * Whether these arguments run a search or a question with the default model. A guess from the
 * raw arguments, before they are parsed: a wrong one costs an unused thread or an early start
 * missed, never a different result, since the embedder decides for itself what it adopts.
 */
export function wantsQueryModel(args: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const [command, ...rest] = args;
  if (command !== 'search' && command !== 'ask') return false;
  let model = env.RELATA_EMBEDDING_MODEL;
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i]!;
    if (arg === '--') break;
    if (arg === '--help' || arg === '-h') return false;
    if (arg === '--embedding-model') model = rest[++i];
    else if (arg.startsWith('--embedding-model=')) model = arg.slice('--embedding-model='.length);
  }
  return parseEmbeddingChoice(model).kind === 'use-lite';
}

/**
 * Starts a USE-lite thread to be adopted later; it never keeps the process alive by itself.
 * onnxruntime is loaded here first (~15 ms): loaded first by a worker, it cannot load anywhere
 * else in the process afterwards (onnxRuntimeHold.ts).
 */
export async function startQueryModelEarly(): Promise<void> {
  await holdOnnxRuntime();
  const worker = startUseLiteWorker();
  const handover: Handover = { worker, events: [], listeners: [] };
  for (const event of ['message', 'error', 'exit'] as const) {
    const listener = (value: unknown) => handover.events.push([event, value]);
    handover.listeners.push([event, listener]);
    worker.on(event, listener);
  }
  // After the listeners: adding a 'message' listener references the thread again.
  worker.unref();
  globals[HANDOVER] = handover;
  // A command that ends without adopting the thread (a usage error, a store without vectors):
  // the thread is closed before the process ends, never torn down mid-load (closeWorker.ts).
  process.once('beforeExit', () => {
    if (globals[HANDOVER] !== handover) return;
    delete globals[HANDOVER];
    void closeUseLiteWorker(worker);
  });
}

/**
 * The thread started early, if there is one not yet adopted. What it reported so far is
 * re-emitted once the caller's current synchronous work is done, so listeners the caller adds
 * right away miss nothing (a 'ready' sent before them included). The thread is referenced again:
 * while it loads, the adopter's wait keeps the process alive.
 */
export function adoptEarlyQueryModelThread(): Worker | undefined {
  const handover = globals[HANDOVER];
  if (handover === undefined) return undefined;
  delete globals[HANDOVER];
  const { worker, events, listeners } = handover;
  for (const [event, listener] of listeners) worker.off(event, listener);
  worker.ref();
  queueMicrotask(() => {
    for (const [event, value] of events) worker.emit(event, value);
  });
  return worker;
}
