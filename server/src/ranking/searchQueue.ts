// Searches waiting for a search thread. At most `concurrency` run at once; a search asked again
// while an identical one is still waiting joins it (one run, the same answer for both, and since
// the run starts after both were asked, it reads a store at least as new as either asker saw); a
// search whose every asker has cancelled leaves the queue without running, so a person typing on
// never pays for the searches the editor gave up on.

export interface SearchQueueCounts {
  /** Searches started. */
  run: number;
  /** Asks answered by a search that was already waiting. */
  shared: number;
  /** Searches dropped before they started, every asker having cancelled. */
  cancelledBeforeRun: number;
}

interface Asker<R> {
  resolve(result: R): void;
  reject(reason: unknown): void;
  /** Stops listening to the asker's signal once it is answered. */
  forget(): void;
}

interface Waiting<R> {
  key: string;
  task: (signal: AbortSignal) => Promise<R>;
  askers: Set<Asker<R>>;
  /** Aborted when the last asker cancels: a running search stops at its next check. */
  controller: AbortController;
}

export class SearchQueue<R> {
  private readonly waiting: Waiting<R>[] = [];
  private readonly waitingByKey = new Map<string, Waiting<R>>();
  private running = 0;
  readonly counts: SearchQueueCounts = { run: 0, shared: 0, cancelledBeforeRun: 0 };

  constructor(private readonly concurrency: number) {}

  /** The task's answer, run once for every ask of the same key that arrives while it waits. */
  run(key: string, task: (signal: AbortSignal) => Promise<R>, signal?: AbortSignal): Promise<R> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<R>((resolve, reject) => {
      let entry = this.waitingByKey.get(key);
      if (entry) this.counts.shared += 1;
      else {
        entry = { key, task, askers: new Set(), controller: new AbortController() };
        this.waitingByKey.set(key, entry);
        this.waiting.push(entry);
      }
      const joined = entry;
      const onAbort = () => this.leave(joined, asker, signal?.reason);
      const asker: Asker<R> = {
        resolve: (result) => (asker.forget(), resolve(result)),
        reject: (reason) => (asker.forget(), reject(reason)),
        forget: () => signal?.removeEventListener('abort', onAbort),
      };
      joined.askers.add(asker);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.startWhatFits();
    });
  }

  private leave(entry: Waiting<R>, asker: Asker<R>, reason: unknown): void {
    if (!entry.askers.delete(asker)) return;
    asker.reject(reason);
    if (entry.askers.size > 0) return;
    entry.controller.abort(reason);
    if (this.waitingByKey.get(entry.key) === entry) {
      this.waitingByKey.delete(entry.key);
      this.waiting.splice(this.waiting.indexOf(entry), 1);
      this.counts.cancelledBeforeRun += 1;
    }
  }

  private startWhatFits(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const entry = this.waiting.shift()!;
      this.waitingByKey.delete(entry.key);
      this.running += 1;
      this.counts.run += 1;
      entry
        .task(entry.controller.signal)
        .then(
          (result) => entry.askers.forEach((asker) => asker.resolve(result)),
          (error: unknown) => entry.askers.forEach((asker) => asker.reject(error)),
        )
        .finally(() => {
          this.running -= 1;
          this.startWhatFits();
        });
    }
  }
}
