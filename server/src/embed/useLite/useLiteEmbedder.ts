// The offline default embedder: Universal Sentence Encoder lite in worker threads, one model per
// thread, each run on one core by onnxruntime (or by TF.js on WASM, the fallback, which blocks
// whichever thread calls it), so threads give both the cores and a calling event loop that stays
// responsive. A batch is sorted by length and cut into jobs that idle threads take in turn;
// vectors come back in input order.

import os from 'node:os';
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import type { Embedder } from '../types.ts';
import { closeUseLiteWorker } from './closeWorker.ts';
import { USE_LITE_DESCRIPTOR, USE_LITE_DIMS } from './descriptor.ts';
import { loadVocabulary } from './modelFiles.ts';
import type { EngineName } from './graphEngine.ts';
import { holdOnnxRuntime } from './onnxRuntimeHold.ts';
import type { ConnectRequest, EmbedRequest, UseLiteWorkerData, WorkerMessage } from './protocol.ts';
import { UseLiteTokenizer } from './tokenizer.ts';
import { startUseLiteWorker } from './workerScript.ts';

/** Texts per graph run: per-passage cost is flat from ~8 up (measured), bigger runs hold more memory. */
const DEFAULT_BATCH = 32;

export interface UseLiteOptions {
  /** Worker threads, each loading its own model (~300-450 MB). Default: the available cores. */
  threads?: number;
  /** Most texts per graph run. */
  batchSize?: number;
  /** Starts one worker thread; tests replace it to simulate threads that fail. */
  startWorker?: () => Worker;
  /**
   * The indexing pipeline's model (not a query's): its threads run at the pipeline's lower priority,
   * so on two cores a search's query model and search thread are not kept waiting behind a folder's
   * embedding.
   */
  background?: boolean;
  /** Where a thread's fallback from onnxruntime to TF.js is reported (default: stderr). */
  log?: (line: string) => void;
}

/** Starts the threads and resolves once every one has loaded its model. */
export async function createUseLiteEmbedder(options: UseLiteOptions = {}): Promise<Embedder> {
  return UseLiteEmbedder.start(options);
}

interface Job {
  id: number;
  texts: string[];
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

/** One worker thread and what it is doing. */
interface Lane {
  worker: Worker;
  job: Job | undefined;
  alive: boolean;
  ready: boolean;
  engine: EngineName | undefined;
  loaded(error?: Error): void;
}

export class UseLiteEmbedder implements Embedder {
  readonly descriptor = USE_LITE_DESCRIPTOR;
  private readonly lanes: Lane[] = [];
  private readonly queue: Job[] = [];
  private nextJob = 0;
  private fallbackReported = false;
  /** Set once no thread can embed any more (all failed, or closed); later calls fail with it. */
  private stopped: Error | undefined;

  private constructor(
    private readonly tokenizer: UseLiteTokenizer,
    private readonly batchSize: number,
    private readonly log: (line: string) => void,
  ) {}

  static async start(options: UseLiteOptions = {}): Promise<UseLiteEmbedder> {
    const threads = options.threads ?? os.availableParallelism();
    const batchSize = options.batchSize ?? DEFAULT_BATCH;
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${threads}`);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
    const log = options.log ?? ((line: string) => process.stderr.write(`relata: ${line}\n`));
    const embedder = new UseLiteEmbedder(new UseLiteTokenizer(loadVocabulary()), batchSize, log);
    const workerData: UseLiteWorkerData = { background: options.background ?? false };
    const startWorker = options.startWorker ?? (() => startUseLiteWorker({ workerData }));
    try {
      // onnxruntime loaded here first: loaded first by a worker, it could not load in any other
      // thread of the process afterwards (onnxRuntimeHold.ts).
      await holdOnnxRuntime();
      const loading: Promise<void>[] = [];
      for (let i = 0; i < threads; i++) loading.push(embedder.addThread(startWorker));
      await Promise.all(loading);
    } catch (error) {
      await embedder.close();
      throw error;
    }
    return embedder;
  }

  /** The engine each live thread runs the graph on (onnx unless a thread fell back to TF.js). */
  engines(): EngineName[] {
    return this.lanes.flatMap((lane) => (lane.alive && lane.engine !== undefined ? [lane.engine] : []));
  }

  countTokens(text: string): number {
    return this.tokenizer.countTokens(text);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (this.stopped !== undefined) throw this.stopped;
    if (texts.length === 0) return [];
    const threads = this.lanes.filter((lane) => lane.alive).length;
    // A small batch is spread over all threads; a large one goes in jobs of batchSize.
    const size = Math.min(this.batchSize, Math.ceil(texts.length / threads));
    // The graph pads every text of a run to the run's longest, so texts of similar length run
    // together: by characters, which follow tokens closely and cost nothing to count.
    const order = texts.map((_, index) => index).sort((a, b) => texts[a]!.length - texts[b]!.length);
    const parts: Promise<Float32Array[]>[] = [];
    for (let at = 0; at < texts.length; at += size) {
      const slice = order.slice(at, at + size).map((index) => texts[index]!);
      parts.push(new Promise((resolve, reject) => this.queue.push({ id: this.nextJob++, texts: slice, resolve, reject })));
    }
    this.dispatch();
    const sorted = (await Promise.all(parts)).flat();
    const vectors = new Array<Float32Array>(texts.length);
    order.forEach((index, rank) => (vectors[index] = sorted[rank]!));
    return vectors;
  }

  /** A port to one live thread's model; it closes when that thread ends, and its asker then asks for another. */
  async openPort(): Promise<MessagePort> {
    if (this.stopped !== undefined) throw this.stopped;
    const lane = this.lanes.find((candidate) => candidate.alive);
    if (lane === undefined) throw new Error('no USE-lite thread is running');
    const { port1, port2 } = new MessageChannel();
    const request: ConnectRequest = { kind: 'connect', port: port1 };
    lane.worker.postMessage(request, [port1]);
    return port2;
  }

  async close(): Promise<void> {
    this.stop(new Error('The USE-lite embedder is closed'));
    await Promise.all(this.lanes.map((lane) => closeUseLiteWorker(lane.worker)));
  }

  private addThread(startWorker: () => Worker): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = startWorker();
      const lane: Lane = {
        worker,
        job: undefined,
        alive: true,
        ready: false,
        engine: undefined,
        loaded: (error) => {
          lane.loaded = () => {};
          if (error !== undefined) return reject(error);
          lane.ready = true;
          // An idle thread must not keep the process alive: it is referenced only while it works.
          worker.unref();
          resolve();
        },
      };
      this.lanes.push(lane);
      this.watch(lane);
    });
  }

  private dispatch(): void {
    for (const lane of this.lanes) {
      if (!lane.alive || lane.job !== undefined) continue;
      const job = this.queue.shift();
      if (job === undefined) return;
      lane.job = job;
      lane.worker.ref();
      const request: EmbedRequest = { kind: 'embed', job: job.id, texts: job.texts };
      lane.worker.postMessage(request);
    }
  }

  private watch(lane: Lane): void {
    const { worker } = lane;
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'ready') {
        lane.engine = message.engine;
        // Every thread falls back for the same reason: one line says it.
        if (message.fallback !== undefined && !this.fallbackReported) {
          this.fallbackReported = true;
          this.log(`USE-lite: ${message.fallback}`);
        }
        return lane.loaded();
      }
      if (message.kind === 'broken') return this.lose(lane, new Error(message.message));
      if (message.kind === 'closed') return;
      const job = lane.job;
      if (job === undefined || message.job !== job.id) return;
      lane.job = undefined;
      worker.unref();
      if (message.kind === 'vectors') job.resolve(split(message.buffer, message.count));
      else job.reject(new Error(message.message));
      this.dispatch();
    });
    const when = () => (lane.ready ? '' : ' while loading its model');
    worker.on('error', (error) => this.lose(lane, new Error(`A USE-lite worker thread failed${when()}: ${error.message}`)));
    worker.on('exit', (code) => this.lose(lane, new Error(`A USE-lite worker thread exited${when()} (code ${code})`)));
  }

  /** A thread is gone: its job fails, and if it was the last one, so does everything queued. */
  private lose(lane: Lane, error: Error): void {
    lane.loaded(error);
    if (!lane.alive) return;
    lane.alive = false;
    lane.job?.reject(error);
    lane.job = undefined;
    void lane.worker.terminate();
    if (this.lanes.every((other) => !other.alive)) this.stop(error);
    else this.dispatch();
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const lane of this.lanes) {
      lane.alive = false;
      lane.loaded(this.stopped);
      lane.job?.reject(this.stopped);
      lane.job = undefined;
    }
    for (const job of this.queue.splice(0)) job.reject(this.stopped);
  }
}

/** Separate buffers, so that a caller storing one vector's bytes stores only that vector. */
function split(buffer: ArrayBuffer, count: number): Float32Array[] {
  const vectors: Float32Array[] = [];
  const bytes = USE_LITE_DIMS * Float32Array.BYTES_PER_ELEMENT;
  for (let i = 0; i < count; i++) vectors.push(new Float32Array(buffer.slice(i * bytes, (i + 1) * bytes)));
  return vectors;
}
