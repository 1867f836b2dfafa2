// Runs queued jobs under leases. A worker claims the oldest claimable job, renews its lease while
// the stage runs, and completes it; a failure goes back to the queue until the attempt cap, then
// fails the item with the reason. Because every stage is idempotent, a worker that dies mid-job
// only costs the time until its lease is handed back.

import type { PipelineStage } from '../../../shared/types.ts';
import type { JobRecord } from '../store/contract.ts';
import { isDeadLocalOwner, newOwnerId } from './owner.ts';
import { FAILURE_FAILS_ITEM, STAGES, type StageContext } from './stages/index.ts';

export type WorkerEvent =
  | { type: 'job-started'; job: JobRecord }
  | { type: 'job-finished'; job: JobRecord; elapsedMs: number }
  | { type: 'job-failed'; job: JobRecord; error: string; gaveUp: boolean };

export interface WorkerOptions {
  onEvent?: (event: WorkerEvent) => void;
  signal?: AbortSignal;
}

export class Worker {
  readonly owner = newOwnerId();

  constructor(
    private readonly context: StageContext,
    private readonly options: WorkerOptions = {},
  ) {}

  /** Hand back leases held by local processes that no longer exist (a killed indexer). */
  async reclaimDeadLeases(): Promise<number> {
    return this.context.store.releaseLeases(isDeadLocalOwner);
  }

  /** Process jobs until none is claimable (or the signal aborts). Returns the number run. */
  async runUntilIdle(): Promise<number> {
    let processed = 0;
    while (!this.options.signal?.aborted) {
      const job = await this.context.store.claim(this.owner, this.context.settings.leaseMs);
      if (!job) break;
      await this.runJob(job);
      processed += 1;
      // Let the host answer what is waiting (an editor's search, a status request) between jobs:
      // most stages never wait on anything that would otherwise yield.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return processed;
  }

  private async runJob(job: JobRecord): Promise<void> {
    const { store, settings } = this.context;
    const emit = this.options.onEvent ?? (() => undefined);
    emit({ type: 'job-started', job });
    const started = performance.now();
    const renewal = setInterval(() => {
      void store.renew(job.id, this.owner, settings.leaseMs);
    }, Math.max(50, settings.leaseMs / 3));
    try {
      await runStage(job.stage, this.context, job.subject);
      await store.complete(job, this.owner);
      emit({ type: 'job-finished', job, elapsedMs: performance.now() - started });
    } catch (error) {
      const reason = describeFailure(job, error);
      const outcome = await store.fail(job, this.owner, reason, {
        permanent: false,
        maxAttempts: settings.maxAttempts,
        failsItem: FAILURE_FAILS_ITEM[job.stage],
      });
      emit({ type: 'job-failed', job, error: reason, gaveUp: outcome.gaveUp });
    } finally {
      clearInterval(renewal);
    }
  }
}

function runStage(stage: PipelineStage, context: StageContext, subject: string): Promise<void> {
  return STAGES[stage](context, subject);
}

function describeFailure(job: JobRecord, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${job.stage} failed: ${message}`;
}
