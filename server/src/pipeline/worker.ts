// Runs queued jobs under leases. A worker claims the oldest claimable job, renews its lease while
// the stage runs, and completes it; a failure goes back to the queue until the attempt cap, then
// fails the item with the reason. Because every stage is idempotent, a worker that dies mid-job
// only costs the time until its lease is handed back.
//
// What counts against a file (docs/RELIABILITY.md, "Attempts and lost leases"):
// - its own failure (a parse error, a stage thread's time or memory limit, a crash of the stage
//   thread running it) spends an attempt; at settings.maxAttempts the item fails with the reason;
// - a failure of the store or the disk (busy, unreachable, full) spends nothing: the job is handed
//   back and the run stops or waits;
// - an indexer that dies (SIGKILL, a native crash, the system's out-of-memory killer) or lets the
//   lease run out spends no attempt either, since any job in hand would be blamed: the job's lost
//   lease is counted instead, and from then on it runs alone (nothing else claimed beside it), so
//   a further death while it runs can only be its doing. After settings.maxLostLeases deaths while
//   alone, it is given up: a file that keeps killing its indexer still stops, and one that was only
//   in hand at a few kills never does.

import type { PipelineStage } from '../../../shared/types.ts';
import type { JobRecord } from '../store/contract.ts';
import { isStoreFault } from '../store/storeFault.ts';
import { isWorthRetrying } from '../store/transientFailure.ts';
import { isDeadLocalOwner, newOwnerId } from './owner.ts';
import { discoveryCapacity } from './stages/discover.ts';
import { markParseFailed } from './stages/parse.ts';
import { FAILURE_FAILS_ITEM, STAGES, type StageContext } from './stages/index.ts';

/**
 * How jobs share the worker: stage-thread lanes, discovery lanes, one embed job (its model runs in
 * threads of its own, on every core) and one job of any other stage (ingest). Each kind claims its
 * own jobs, so a long queue of one stage (100,000 files to ingest) never holds back another's.
 */
type JobKind = 'threaded' | 'discover' | 'embed' | 'other';

/**
 * Each kind's stages in the order it claims them: a later stage first, so a file already on its
 * way is finished before another is started, and is searchable minutes sooner in a large folder.
 * The kinds in the order their free lanes are filled: embedding, the longest stage, first, so that
 * stage-thread jobs that finish in milliseconds (and so always leave a lane free) cannot keep it
 * from being claimed.
 */
const STAGES_OF_KIND: Record<JobKind, readonly PipelineStage[]> = {
  embed: ['embed'],
  discover: ['discover'],
  threaded: ['extract', 'chunk', 'parse'],
  other: ['ingest'],
};
const KINDS = Object.keys(STAGES_OF_KIND) as JobKind[];

/**
 * Files read (parsed and chunked) ahead of their embedding, at most, before no new file is read
 * until one is embedded. Reading is mostly this thread's work, and embedding the pipeline's longest
 * stage, which this thread feeds: in a 100,000-file cold index, reading unchecked kept this thread
 * saturated (76 files read a second) while the model's threads waited on it (about 5 files
 * embedded a second, against 16 with this thread free).
 */
export const READ_AHEAD = 256;

function kindOf(stage: PipelineStage): JobKind {
  return KINDS.find((kind) => STAGES_OF_KIND[kind].includes(stage))!;
}

export type WorkerEvent =
  | { type: 'job-started'; job: JobRecord }
  | { type: 'job-finished'; job: JobRecord; elapsedMs: number }
  | {
      type: 'job-failed';
      job: JobRecord;
      error: string;
      gaveUp: boolean;
      /** The store failed (damage, a full disk), not the document: see store/storeFault.ts. */
      storeFault: boolean;
    };

export interface WorkerOptions {
  onEvent?: (event: WorkerEvent) => void;
  signal?: AbortSignal;
  /** Claim only jobs of these stages (default: every stage); see WorkspaceStore.claim. */
  stages?: readonly PipelineStage[];
  /** Claim only jobs of these subjects (a file's path, its item's id); see WorkspaceStore.claim. */
  subjects?: readonly string[];
  /** Files read ahead of their embedding, at most (default READ_AHEAD). */
  readAhead?: number;
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

  /**
   * Process jobs until none is claimable (or the signal aborts). Returns the number run. Parse,
   * chunk and extract jobs do their work in stage threads, so up to one per lane runs at once; so
   * do discover jobs where discovery has threads of its own (one per discovery lane); beside them
   * one job of any other stage. The store's operations are each atomic, so interleaved jobs are as
   * safe as two indexers sharing a folder.
   */
  async runUntilIdle(): Promise<number> {
    const running = new Set<Promise<void>>();
    try {
      return await this.runJobs(running);
    } finally {
      // A loop that fails (a claim that met a busy store) still waits for the jobs it started: each
      // settles on its own, and none is left to reject unobserved, which would end the process.
      await Promise.allSettled(running);
    }
  }

  private async runJobs(running: Set<Promise<void>>): Promise<number> {
    const capacity: Record<JobKind, number> = {
      threaded: Math.max(1, this.context.threads.limits.lanes),
      discover: discoveryCapacity(this.context),
      embed: 1,
      other: 1,
    };
    const busy: Record<JobKind, number> = { threaded: 0, discover: 0, embed: 0, other: 0 };
    // Chunked in this run and not embedded yet (each chunked file has an embed job queued).
    let awaitingVectors = 0;
    const readAhead = this.options.readAhead ?? READ_AHEAD;
    // A new file is read (ingested, or parsed) while fewer than readAhead wait for their vectors,
    // and ingested only while none waits to be parsed, so reading cannot run ahead of the stage
    // threads either.
    const stagesToClaim = async (free: readonly JobKind[]): Promise<PipelineStage[]> => {
      const reading = awaitingVectors < readAhead;
      const ingesting = reading && free.includes('other') && !(await this.context.store.hasClaimableJob(['parse'], this.options.subjects));
      return free
        .flatMap(stagesOf)
        .filter((stage) => (stage === 'parse' ? reading : stage === 'ingest' ? ingesting : true));
    };
    let processed = 0;
    // The first job that could not reach its outcome through the store (handed back, see runJob)
    // stops the loop: claiming on would only hand the same jobs back again.
    let halted: { error: unknown } | null = null;
    const allowed = this.options.stages;
    const stagesOf = (kind: JobKind) => STAGES_OF_KIND[kind].filter((stage) => !allowed || allowed.includes(stage));
    const threadedStages = stagesOf('threaded');
    // Stage threads take a while to start (a second of CPU for two): only once a job of theirs
    // waits, not for a run with nothing to parse (an unchanged folder) or a worker of ingest alone.
    // They start before that job is claimed: a claim counts an attempt, and an indexer stopped
    // while its threads boot, run after run, would otherwise spend the same job's attempts.
    let threadsStarted = threadedStages.length === 0;
    while (!this.options.signal?.aborted && !halted) {
      if (!threadsStarted && (await this.context.store.hasClaimableJob(threadedStages, this.options.subjects))) {
        threadsStarted = true;
        await this.context.threads.warmUp();
      }
      const free = KINDS.filter((kind) => busy[kind] < capacity[kind]);
      let job = await this.claimFor(await stagesToClaim(free));
      // Reading held back with nothing else running (the embed jobs another indexer holds): read on.
      if (!job && running.size === 0) job = await this.claimFor(free.flatMap(stagesOf));
      if (!job) {
        if (running.size === 0) break;
        await Promise.race(running); // a running job frees a lane, and may queue the next job
        continue;
      }
      // A job whose holder died runs alone: held (its lease renewed) while what else runs finishes,
      // and nothing more is claimed until it is done. (Handed back instead, it lost the race for
      // the next claim to an embed job, whose kind is claimed first, again and again.)
      const alone = job.lostLeases > 0;
      const renewal = this.keepLease(job);
      if (alone) await Promise.allSettled(running);
      const kind = kindOf(job.stage);
      busy[kind] += 1;
      const run: Promise<void> = this.runJob(job)
        .then((done) => {
          if (done && job.stage === 'chunk') awaitingVectors += 1;
          if (job.stage === 'embed') awaitingVectors -= 1;
        })
        .catch((error: unknown) => {
          halted ??= { error };
        })
        .finally(() => {
          clearInterval(renewal);
          busy[kind] -= 1;
          running.delete(run);
        });
      running.add(run);
      processed += 1;
      if (alone) await run;
      // Let the host answer what is waiting (an editor's search, a status request) between jobs:
      // most stages never wait on anything that would otherwise yield.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(running);
    if (halted) throw (halted as { error: unknown }).error;
    return processed;
  }

  /** The oldest claimable job of the first of these stages that has one (none when every lane is busy). */
  private async claimFor(stages: readonly PipelineStage[]): Promise<JobRecord | null> {
    if (stages.length === 0) return null;
    return this.context.store.claimFirst(this.owner, this.context.settings.leaseMs, stages, this.options.subjects);
  }

  /**
   * Renew the job's lease every third of it from this thread, which no parse, chunking or
   * extraction can block, until the returned timer is cleared.
   */
  private keepLease(job: JobRecord): NodeJS.Timeout {
    const { store, settings } = this.context;
    return setInterval(() => {
      // A renewal that meets a busy store is simply missed: the next one comes a third of a lease later.
      store.renew(job.id, this.owner, settings.leaseMs).catch(() => undefined);
    }, Math.max(50, settings.leaseMs / 3));
  }

  /** Runs the job to its outcome in the store; true when it was done (not failed or given up). */
  private async runJob(job: JobRecord): Promise<boolean> {
    const { store, settings } = this.context;
    const emit = this.options.onEvent ?? (() => undefined);
    if (job.lostLeases > settings.maxLostLeases) {
      await this.giveUp(job);
      return false;
    }
    emit({ type: 'job-started', job });
    const started = performance.now();
    try {
      await runStage(job.stage, this.context, job.subject);
      await store.complete(job, this.owner);
      emit({ type: 'job-finished', job, elapsedMs: performance.now() - started });
      return true;
    } catch (error) {
      if (isWorthRetrying(error)) {
        // The store could not be reached (a lock held too long, a server down) or the disk is
        // full: the document is not at fault, so its attempt is given back and the drain stops
        // for the caller to wait it out or say so. If the store cannot take even that, the caller
        // hands back the worker's leases (FolderIndex.drain), or they expire.
        await store.handBack(job, this.owner).catch(() => undefined);
        throw error;
      }
      const reason = describeFailure(job, error);
      const outcome = await store.fail(job, this.owner, reason, {
        permanent: false,
        maxAttempts: settings.maxAttempts,
        failsItem: FAILURE_FAILS_ITEM[job.stage],
      });
      emit({ type: 'job-failed', job, error: reason, gaveUp: outcome.gaveUp, storeFault: isStoreFault(error) });
      return false;
    }
  }

  /**
   * A job whose indexer died while running it alone, more often than the cap allows: the job itself
   * kills its indexer (a native crash, the system's out-of-memory killer). Running it again would
   * do the same, so it fails without running.
   */
  private async giveUp(job: JobRecord): Promise<void> {
    const { store, settings } = this.context;
    const alone = job.lostLeases - 1;
    const reason =
      `gave up: the indexer running ${job.stage} on this file alone stopped ${alone} times without finishing it ` +
      '(a crash, or the system running out of memory), so the file is taken to be the cause';
    const outcome = await store.fail(job, this.owner, reason, {
      permanent: true,
      maxAttempts: settings.maxAttempts,
      failsItem: FAILURE_FAILS_ITEM[job.stage],
    });
    // Recorded with the parser's version, so an unchanged file is not parsed again on the next run.
    if (outcome.gaveUp && job.stage === 'parse') await markParseFailed(this.context, job.subject, reason);
    this.options.onEvent?.({ type: 'job-failed', job, error: reason, gaveUp: outcome.gaveUp, storeFault: false });
  }
}

function runStage(stage: PipelineStage, context: StageContext, subject: string): Promise<void> {
  return STAGES[stage](context, subject);
}

function describeFailure(job: JobRecord, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${job.stage} failed: ${message}`;
}
