// Files are parsed in a few worker threads, each with a heap limit and a wall-clock limit, so one
// hostile file (a zip bomb, a 100,000-page PDF, a list nested 3,000 deep) costs its own thread and
// nothing else: the main thread keeps renewing leases and answering the editor, and a thread that
// runs out of memory or time is stopped (worker.terminate() stops even a synchronous loop) and
// replaced, its file failing with the reason.

import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../embed/workerThread.ts';
import { ParseError, ParseTimeoutError, type ParsedDocument, type ParserLimits } from '../../parse/types.ts';
import type { ParseReply, ParseRequest } from './protocol.ts';

export interface ParseLimits {
  /** Threads, hence files parsed at the same time. */
  lanes: number;
  /** Heap limit of each thread (V8's old generation), MB. */
  memoryMb: number;
  /** Wall-clock limit of one file's parse, ms. */
  timeoutMs: number;
  /** Passed to the parsers (DOCX inflated size, PDF pages); absent ones keep the parsers' defaults. */
  parser?: Partial<ParserLimits>;
}

export class ParseLanes {
  private readonly idle: ParseThread[] = [];
  private readonly waiting: { resolve: (thread: ParseThread) => void; reject: (error: Error) => void }[] = [];
  private started = 0;
  private closed = false;

  constructor(readonly limits: ParseLimits) {}

  /**
   * Parse a file in a thread of its own. Rejects with a ParseError when the file is at fault: the
   * parser rejected it, or it exceeded the memory or time limit (a retry would do the same).
   */
  async parse(bytes: Uint8Array, fileName: string): Promise<ParsedDocument> {
    const thread = await this.acquire();
    const outcome = await thread.parse(bytes, fileName, this.limits);
    this.release(thread, outcome.threadAlive);
    if ('error' in outcome) throw outcome.error;
    return outcome.document;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(closing());
    await Promise.all(this.idle.splice(0).map((thread) => thread.stop()));
  }

  private async acquire(): Promise<ParseThread> {
    if (this.closed) throw closing();
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.started < Math.max(1, this.limits.lanes)) {
      this.started += 1;
      try {
        return await ParseThread.start(this.limits.memoryMb);
      } catch (error) {
        this.started -= 1;
        throw error;
      }
    }
    return new Promise<ParseThread>((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** A thread that was stopped (memory, time, a crash) is replaced when the next file needs one. */
  private release(thread: ParseThread, healthy: boolean): void {
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

/** How one parse ended; a thread that ran out of memory or time, or crashed, is gone. */
type ThreadOutcome = { document: ParsedDocument; threadAlive: true } | { error: Error; threadAlive: boolean };

/** One worker thread that parses one file at a time. */
class ParseThread {
  private job = 0;

  private constructor(private readonly worker: Worker) {}

  static async start(memoryMb: number): Promise<ParseThread> {
    const worker = startWorkerThread(
      { source: new URL('./parseThread.ts', import.meta.url), bundled: 'parseThread.js' },
      // Parsers' console output (pdf.js warnings) must not reach stdout, which may carry the LSP stream.
      { resourceLimits: { maxOldGenerationSizeMb: memoryMb }, stdout: true },
    );
    worker.stdout.pipe(process.stderr, { end: false });
    await new Promise<void>((resolve, reject) => {
      const failed = (error: unknown) => {
        worker.off('message', ready);
        reject(new Error(`the parse thread did not start: ${error instanceof Error ? error.message : String(error)}`));
      };
      const ready = (message: ParseReply) => {
        if (message.kind !== 'ready') return;
        worker.off('error', failed);
        resolve();
      };
      worker.on('message', ready);
      worker.once('error', failed);
    });
    // A thread's crash is reported to the parse it was running; an idle thread must not bring down the process.
    worker.on('error', () => undefined);
    worker.unref();
    return new ParseThread(worker);
  }

  parse(bytes: Uint8Array, fileName: string, limits: ParseLimits): Promise<ThreadOutcome> {
    const job = ++this.job;
    const copy = new Uint8Array(bytes); // Transferred to the thread; the caller keeps its own bytes.
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
      const replied = (reply: ParseReply) => {
        if (reply.kind === 'ready' || reply.job !== job) return;
        if (reply.kind === 'parsed') return settle({ document: reply.document, threadAlive: true });
        settle({ error: reply.fileAtFault ? new ParseError(reply.message) : new Error(reply.message), threadAlive: true });
      };
      const crashed = (error: Error & { code?: string }) => {
        const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
        settle({
          error: outOfMemory
            ? new ParseError(`exceeded ${limits.memoryMb} MB of memory while parsing; stopped (RELATA_PARSE_MEMORY_MB sets the limit)`)
            : new Error(`the parse thread crashed: ${error.message}`),
          threadAlive: false,
        });
      };
      const exited = (code: number) =>
        settle({ error: new Error(`the parse thread stopped unexpectedly (exit code ${code})`), threadAlive: false });
      const timer = setTimeout(() => {
        void this.worker.terminate();
        settle({
          error: new ParseTimeoutError(`took longer than ${seconds(limits.timeoutMs)} s to parse; stopped (RELATA_PARSE_TIMEOUT_MS sets the limit)`),
          threadAlive: false,
        });
      }, limits.timeoutMs);
      this.worker.on('message', replied);
      this.worker.once('error', crashed);
      this.worker.once('exit', exited);
      this.worker.postMessage({ job, bytes: copy, fileName, limits: limits.parser ?? {} } satisfies ParseRequest, [copy.buffer]);
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

function closing(): Error {
  return new Error('parsing has stopped: the folder is closing');
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
