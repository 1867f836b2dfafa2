// The pipeline's CPU-bound work (parsing a file, chunking its blocks, extracting from its passages)
// runs in a few worker threads, each with a heap limit and a wall-clock limit per job, so one
// hostile file (a zip bomb, a 100,000-page PDF, a list nested 3,000 deep, 49 MB on one line) costs
// its own thread and nothing else: the main thread only reads from and writes to the store, keeps
// renewing leases and answers the editor, and a thread that runs out of memory or time is stopped
// (worker.terminate() stops even a synchronous loop) and replaced, its item failing with the reason.

import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../embed/workerThread.ts';
import { withJoinedText } from '../../parse/document.ts';
import { DEFAULT_PARSER_LIMITS, ParseError, ParseTimeoutError, type Block, type ParsedDocument, type ParserLimits } from '../../parse/types.ts';
import type { ChunkRecord, ItemExtraction } from '../../store/contract.ts';
import type { ExtractJob, StageJob, StageReply, StageRequest, StageResults } from './protocol.ts';

export interface ThreadLimits {
  /** Threads, hence jobs run at the same time. */
  lanes: number;
  /** Heap limit of each thread (V8's old generation), MB. */
  memoryMb: number;
  /** Wall-clock limit of one job, ms. */
  timeoutMs: number;
  /** Passed to the parsers (DOCX inflated size, PDF pages); absent ones keep the parsers' defaults. */
  parser?: Partial<ParserLimits>;
}

/**
 * A chunk or extract job that exceeded its thread's memory or time limit: the item's content is at
 * fault and a retry would do the same. (A parse that does so is a ParseError, like any unreadable file.)
 */
export class ThreadLimitError extends Error {
  override readonly name = 'ThreadLimitError';
}

/** How each kind of job is named in a reason a user reads. */
const DOING: Record<StageJob['kind'], { while: string; to: string }> = {
  parse: { while: 'parsing', to: 'parse' },
  chunk: { while: 'chunking', to: 'chunk' },
  extract: { while: 'extracting', to: 'extract' },
};

export class StageThreads {
  private readonly idle: StageThread[] = [];
  private readonly waiting: { resolve: (thread: StageThread) => void; reject: (error: Error) => void }[] = [];
  private started = 0;
  private closed = false;

  constructor(readonly limits: ThreadLimits) {}

  /** Threads started (or starting) and not stopped. */
  get running(): number {
    return this.started;
  }

  /**
   * Parse a file. Rejects with a ParseError when the file is at fault: the parser rejected it, or
   * it exceeded the memory or time limit (a retry would do the same).
   */
  parse(bytes: Uint8Array, fileName: string): Promise<ParsedDocument> {
    const copy = new Uint8Array(bytes); // Transferred to the thread; the caller keeps its own bytes.
    return this.run({ kind: 'parse', bytes: copy, fileName, limits: this.limits.parser ?? {} }, [copy.buffer]).then(withJoinedText);
  }

  /** Chunk an item's blocks into passages with their ids. Rejects with a ThreadLimitError at a limit. */
  chunk(workspace: string, itemId: string, contentHash: string, blocks: Block[] | string): Promise<ChunkRecord[]> {
    return this.run({ kind: 'chunk', workspace, itemId, contentHash, blocks });
  }

  /** Run the deterministic extractors over an item's passages. Rejects with a ThreadLimitError at a limit. */
  extract(title: string | null, chunks: ExtractJob['chunks'], headings: string[] = [], document?: ExtractJob['document']): Promise<ItemExtraction> {
    return this.run({ kind: 'extract', title, chunks, headings, ...(document ? { document } : {}) });
  }

  /**
   * Start every lane's thread now. A claim counts as an attempt, so a job must not sit claimed
   * while its thread boots: an indexer stopped early, run after run, would otherwise spend the
   * same first jobs' attempts without ever running them.
   */
  async warmUp(): Promise<void> {
    const starting: Promise<void>[] = [];
    while (!this.closed && this.started < Math.max(1, this.limits.lanes)) {
      this.started += 1;
      starting.push(
        StageThread.start(this.limits.memoryMb).then(
          (thread) => this.release(thread, true),
          () => {
            this.started -= 1; // The next job's acquire() starts one again and reports why it cannot.
          },
        ),
      );
    }
    await Promise.all(starting);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(closing());
    await Promise.all(this.idle.splice(0).map((thread) => thread.stop()));
  }

  private async run<J extends StageJob>(work: J, transfer: ArrayBuffer[] = []): Promise<StageResults[J['kind']]> {
    const thread = await this.acquire();
    const outcome = await thread.run(work, transfer, this.limits);
    this.release(thread, outcome.threadAlive);
    if ('error' in outcome) throw outcome.error;
    return outcome.result as StageResults[J['kind']];
  }

  private async acquire(): Promise<StageThread> {
    if (this.closed) throw closing();
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.started < Math.max(1, this.limits.lanes)) {
      this.started += 1;
      try {
        return await StageThread.start(this.limits.memoryMb);
      } catch (error) {
        this.started -= 1;
        throw error;
      }
    }
    return new Promise<StageThread>((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** A thread that was stopped (memory, time, a crash) is replaced when the next job needs one. */
  private release(thread: StageThread, healthy: boolean): void {
    if (!healthy) {
      this.started -= 1;
      void thread.stop();
      const waiter = this.waiting.shift();
      if (waiter) this.acquire().then(waiter.resolve, waiter.reject);
      return;
    }
    if (this.closed) {
      void thread.stop();
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(thread);
    else this.idle.push(thread);
  }
}

/** How one job ended; a thread that ran out of memory or time, or crashed, is gone. */
type ThreadOutcome = { result: unknown; threadAlive: true } | { error: Error; threadAlive: boolean };

/** One worker thread that runs one job at a time. */
class StageThread {
  private job = 0;

  private constructor(private readonly worker: Worker) {}

  static async start(memoryMb: number): Promise<StageThread> {
    const worker = startWorkerThread(
      { source: new URL('./stageThread.ts', import.meta.url), bundled: 'stageThread.js' },
      // Parsers' console output (pdf.js warnings) must not reach stdout, which may carry the LSP stream.
      { resourceLimits: { maxOldGenerationSizeMb: memoryMb }, stdout: true },
    );
    worker.stdout.pipe(process.stderr, { end: false });
    await new Promise<void>((resolve, reject) => {
      const failed = (error: unknown) => {
        worker.off('message', ready);
        reject(new Error(`the stage thread did not start: ${error instanceof Error ? error.message : String(error)}`));
      };
      const ready = (message: StageReply) => {
        if (message.kind !== 'ready') return;
        worker.off('error', failed);
        resolve();
      };
      worker.on('message', ready);
      worker.once('error', failed);
    });
    // A thread's crash is reported to the job it was running; an idle thread must not bring down the process.
    worker.on('error', () => undefined);
    worker.unref();
    return new StageThread(worker);
  }

  run(work: StageJob, transfer: ArrayBuffer[], limits: ThreadLimits): Promise<ThreadOutcome> {
    const job = ++this.job;
    const doing = DOING[work.kind];
    const atFault = (message: string, timedOut = false) =>
      work.kind !== 'parse' ? new ThreadLimitError(message) : timedOut ? new ParseTimeoutError(message) : new ParseError(message);
    this.worker.ref();
    return new Promise<ThreadOutcome>((resolve) => {
      const settle = (outcome: ThreadOutcome) => {
        clearTimeout(timer);
        this.worker.off('message', replied);
        this.worker.off('error', crashed);
        this.worker.off('exit', exited);
        this.worker.unref();
        resolve(outcome);
      };
      let deadline = Date.now() + limits.timeoutMs;
      let allowedMs = limits.timeoutMs;
      const replied = (reply: StageReply) => {
        if (reply.kind === 'ready' || reply.job !== job) return;
        if (reply.kind === 'ocr') {
          // The file's pages are being read by OCR, seconds a page: its limit grows by the OCR budget, once.
          const ocrMs = limits.parser?.ocrTimeMs ?? DEFAULT_PARSER_LIMITS.ocrTimeMs;
          if (allowedMs > limits.timeoutMs) return;
          allowedMs += ocrMs;
          deadline += ocrMs;
          clearTimeout(timer);
          timer = setTimeout(timedOut, Math.max(0, deadline - Date.now()));
          return;
        }
        if (reply.kind === 'done') return settle({ result: reply.result, threadAlive: true });
        settle({ error: reply.itemAtFault ? new ParseError(reply.message) : new Error(reply.message), threadAlive: true });
      };
      const crashed = (error: Error & { code?: string }) => {
        const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
        settle({
          error: outOfMemory
            ? atFault(`exceeded ${limits.memoryMb} MB of memory while ${doing.while}; stopped (RELATA_PARSE_MEMORY_MB sets the limit)`)
            : new Error(`the stage thread crashed while ${doing.while}: ${error.message}`),
          threadAlive: false,
        });
      };
      const exited = (code: number) =>
        settle({ error: new Error(`the stage thread stopped unexpectedly while ${doing.while} (exit code ${code})`), threadAlive: false });
      const timedOut = () => {
        void this.worker.terminate();
        const ocr = allowedMs > limits.timeoutMs ? ' with OCR' : '';
        const setting = ocr ? 'RELATA_PARSE_TIMEOUT_MS and RELATA_OCR_TIME_MS set the limit' : 'RELATA_PARSE_TIMEOUT_MS sets the limit';
        settle({ error: atFault(`took longer than ${seconds(allowedMs)} s to ${doing.to}${ocr}; stopped (${setting})`, true), threadAlive: false });
      };
      let timer = setTimeout(timedOut, limits.timeoutMs);
      this.worker.on('message', replied);
      this.worker.once('error', crashed);
      this.worker.once('exit', exited);
      this.worker.postMessage({ job, work } satisfies StageRequest, transfer);
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

function closing(): Error {
  return new Error('the stage threads have stopped: the folder is closing');
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
