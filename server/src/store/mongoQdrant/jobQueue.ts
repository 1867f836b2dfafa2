// The leased job queue in MongoDB, with the SQLite queue's semantics (sqliteStore.ts, "Leased job
// queue"; test/contract/jobQueue.test.ts): one job per (stage, subject), re-armed by bumping its
// generation; a claim atomically leases the oldest claimable job (queued, or leased with a lease
// that ran out) and counts an attempt (or, for a lease that ran out, a lost lease); only the owner renews or finishes a lease; a completion or
// failure that finds a newer generation queues the job again instead of losing the change.
//
// Without transactions every operation is one conditional single-document write (findOneAndUpdate
// or updateOne with the state it expects in its filter), so two workers on two machines can never
// both win a job, and a write whose condition no longer holds simply matches nothing.
//
// Lease expiry compares the claiming machine's clock with the time the owner wrote: workers on
// several machines need clocks kept in step (NTP), as any lease does.

import type { JobStatus, PipelineStage } from '../../../../shared/types.ts';
import type { FailOptions, JobFailure, JobRecord, LeaseView, StageCounts } from '../contract.ts';
import { duplicateKeyPositions, isDuplicateKey } from './duplicateKey.ts';
import type { ItemStatusHooks, JobMaintenance } from './hooks.ts';
import type { IndexSpec } from './collections.ts';
import type { ScopedCollection, ScopedDb } from './scope.ts';

export const JOBS_COLLECTION = 'jobs';
/** Per-scope sequences (the job ids), one document per scope and sequence name. */
export const COUNTERS_COLLECTION = 'counters';

/** A job as stored: the contract's JobRecord, its scope and its times. */
export interface JobDocument extends Omit<JobRecord, 'lostLeases'> {
  workspace: string;
  folder: string;
  /** Absent from jobs written before lost leases were counted: read as 0. */
  lostLeases?: number;
  createdAt: string;
  updatedAt: string;
}

interface CounterDocument {
  workspace: string;
  folder: string;
  name: string;
  value: number;
}

/** The indexes the queue's look-ups need, each led by the scope (created by the facade's setup). */
export const JOB_INDEXES: readonly IndexSpec[] = [
  { collection: JOBS_COLLECTION, key: { workspace: 1, folder: 1, stage: 1, subject: 1 }, unique: true, name: 'jobs_subject' },
  { collection: JOBS_COLLECTION, key: { workspace: 1, folder: 1, id: 1 }, unique: true, name: 'jobs_id' },
  // Claims walk this by id within a status; the few leased jobs are filtered by expiry on the way.
  { collection: JOBS_COLLECTION, key: { workspace: 1, folder: 1, status: 1, id: 1 }, unique: false, name: 'jobs_claimable' },
  // A worker's claim of some stages merges one walk per stage by id, so the thousands of ingest
  // jobs waiting ahead of its first parse job are never read.
  { collection: JOBS_COLLECTION, key: { workspace: 1, folder: 1, status: 1, stage: 1, id: 1 }, unique: false, name: 'jobs_claimable_by_stage' },
  { collection: COUNTERS_COLLECTION, key: { workspace: 1, folder: 1, name: 1 }, unique: true, name: 'counters_name' },
];

export function toJobRecord(document: JobDocument): JobRecord {
  return {
    id: document.id,
    stage: document.stage,
    subject: document.subject,
    status: document.status,
    generation: document.generation,
    owner: document.owner,
    leaseExpiresAt: document.leaseExpiresAt,
    attempts: document.attempts,
    lostLeases: document.lostLeases ?? 0,
    lastError: document.lastError,
  };
}

/** A new job's fields (the scope is added by the collection). */
export function newJob(id: number, stage: PipelineStage, subject: string, now: string): Omit<JobDocument, 'workspace' | 'folder'> {
  return {
    id, stage, subject, status: 'queued', generation: 1, owner: null, leaseExpiresAt: null, attempts: 0, lostLeases: 0, lastError: null, createdAt: now, updatedAt: now,
  };
}

/** The order SQLite lists stage counts in (ORDER BY stage, status: byte order of the names). */
export function compareStageCounts(a: StageCounts, b: StageCounts): number {
  return compareText(a.stage, b.stage) || compareText(a.status, b.status);
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const now = (): string => new Date().toISOString();

/** Subjects written per bulk round trip by enqueueMany. */
const ENQUEUE_BATCH = 1000;

export class MongoJobQueue implements JobMaintenance {
  private readonly jobs: ScopedCollection<JobDocument>;
  private readonly counters: ScopedCollection<CounterDocument>;

  constructor(
    db: ScopedDb,
    private readonly items: ItemStatusHooks,
  ) {
    this.jobs = db.collection<JobDocument>(JOBS_COLLECTION);
    this.counters = db.collection<CounterDocument>(COUNTERS_COLLECTION);
  }

  /**
   * Reserves `count` consecutive job ids and returns the first. One atomic $inc on the scope's
   * counter, so ids grow with enqueue order across every process writing the queue, and "oldest
   * first" means the same as SQLite's AUTOINCREMENT. A crash after reserving only leaves a gap.
   */
  private async reserveIds(count: number): Promise<number> {
    const increment = () =>
      this.counters.findOneAndUpdate(this.counters.filter({ name: JOBS_COLLECTION }), { $inc: { value: count } }, { upsert: true, returnDocument: 'after' });
    // Two first enqueues at once may both try to create the counter; the loser finds it made.
    const counter = await increment().catch((error: unknown) => {
      if (isDuplicateKey(error)) return increment();
      throw error;
    });
    if (!counter) throw new Error(`the job id counter of ${this.counters.name} was not returned by MongoDB`);
    return counter.value - count + 1;
  }

  /**
   * Re-arms the job of (stage, subject) if there is one, as SQLite's ON CONFLICT clause does: a
   * running job keeps its lease and gets a new generation (its completion then queues it again); a
   * waiting one keeps its attempts; a finished one is queued with fresh attempts. Two conditional
   * updates, each matching one of those states; at most one matches a given state of the job.
   */
  private async rearm(stage: PipelineStage, subject: string, stamp: string): Promise<boolean> {
    const waitingOrRunning = await this.jobs.updateOne(
      this.jobs.filter({ stage, subject, status: { $in: ['queued', 'leased'] } }),
      { $inc: { generation: 1 }, $set: { updatedAt: stamp } },
    );
    if (waitingOrRunning.matchedCount === 1) return true;
    const finished = await this.jobs.updateOne(
      this.jobs.filter({ stage, subject, status: { $in: ['done', 'failed'] } }),
      { $inc: { generation: 1 }, $set: { status: 'queued', attempts: 0, lostLeases: 0, lastError: null, updatedAt: stamp } },
    );
    return finished.matchedCount === 1;
  }

  async enqueue(stage: PipelineStage, subject: string): Promise<void> {
    const stamp = now();
    // Another process may create or finish the job between the steps; each pass either re-arms
    // the job as it then is or creates it, and a duplicate insert means it now exists: go round.
    for (;;) {
      if (await this.rearm(stage, subject, stamp)) return;
      const id = await this.reserveIds(1);
      try {
        await this.jobs.insertOne(this.jobs.document(newJob(id, stage, subject, stamp)));
        return;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
  }

  /**
   * A folder scan's subjects in a few round trips per thousand: existing jobs are re-armed in one
   * bulk write (both conditional updates per subject, in order: only the one matching the job's
   * state applies), the rest inserted with a block of ids. A subject another process inserted
   * meanwhile comes back as a duplicate and is enqueued on its own.
   */
  async enqueueMany(stage: PipelineStage, subjects: readonly string[]): Promise<void> {
    const unique = [...new Set(subjects)];
    for (let start = 0; start < unique.length; start += ENQUEUE_BATCH) {
      const batch = unique.slice(start, start + ENQUEUE_BATCH);
      const stamp = now();
      const existing = new Set(
        (await this.jobs.find(this.jobs.filter({ stage, subject: { $in: batch } }), { projection: { subject: 1 } }).toArray()).map(
          (job) => job.subject,
        ),
      );
      const known = batch.filter((subject) => existing.has(subject));
      if (known.length > 0) {
        await this.jobs.bulkWrite(
          known.flatMap((subject) => [
            {
              updateOne: {
                filter: this.jobs.filter({ stage, subject, status: { $in: ['queued', 'leased'] } }),
                update: { $inc: { generation: 1 }, $set: { updatedAt: stamp } },
              },
            },
            {
              updateOne: {
                filter: this.jobs.filter({ stage, subject, status: { $in: ['done', 'failed'] } }),
                update: { $inc: { generation: 1 }, $set: { status: 'queued' as const, attempts: 0, lostLeases: 0, lastError: null, updatedAt: stamp } },
              },
            },
          ]),
          { ordered: true },
        );
      }
      const fresh = batch.filter((subject) => !existing.has(subject));
      if (fresh.length === 0) continue;
      const first = await this.reserveIds(fresh.length);
      try {
        await this.jobs.insertMany(
          fresh.map((subject, offset) => this.jobs.document(newJob(first + offset, stage, subject, stamp))),
          { ordered: false },
        );
      } catch (error) {
        const duplicates = duplicateKeyPositions(error);
        if (duplicates === null) throw error;
        for (const position of duplicates) await this.enqueue(stage, fresh[position]!);
      }
    }
  }

  /**
   * The oldest claimable job (queued, or leased with a lease that ran out before now) is read, then
   * leased by one findOneAndUpdate whose filter is the state it was read in, so two workers can
   * never both win it; the loser reads again. A queued job's claim counts an attempt; an expired
   * lease's counts a lost lease instead, its holder's attempt passing to this claim (as SQLite does).
   * `stages` limits the claim to those stages (`relata worker`), `subjects` to those items' jobs (reindexFile).
   */
  async claim(owner: string, leaseMs: number, stages?: readonly PipelineStage[], subjects?: readonly string[]): Promise<JobRecord | null> {
    for (;;) {
      const clock = Date.now();
      const oldest = await this.nextClaimable(clock, stages, subjects);
      if (!oldest) return null;
      const expired = oldest.status === 'leased';
      const claimed = await this.jobs.findOneAndUpdate(
        this.jobs.filter(
          expired ? { id: oldest.id, status: 'leased', owner: oldest.owner, leaseExpiresAt: { $lt: clock } } : { id: oldest.id, status: 'queued' },
        ),
        {
          $set: { status: 'leased', owner, leaseExpiresAt: clock + leaseMs, updatedAt: now() },
          $inc: expired ? { lostLeases: 1 } : { attempts: 1 },
        },
        { returnDocument: 'after' },
      );
      if (claimed) return toJobRecord(claimed);
    }
  }

  /** The first stage with a claimable job wins; a claim per stage, each atomic on its own (a stage another worker empties meanwhile just yields to the next). */
  async claimFirst(owner: string, leaseMs: number, stagesInOrder: readonly PipelineStage[], subjects?: readonly string[]): Promise<JobRecord | null> {
    for (const stage of stagesInOrder) {
      const job = await this.claim(owner, leaseMs, [stage], subjects);
      if (job) return job;
    }
    return null;
  }

  async hasClaimableJob(stages: readonly PipelineStage[], subjects?: readonly string[]): Promise<boolean> {
    return (await this.nextClaimable(Date.now(), stages, subjects)) !== null;
  }

  /** The job `claim` would lease at `clock`: its id, status and holder. */
  private nextClaimable(clock: number, stages?: readonly PipelineStage[], subjects?: readonly string[]) {
    const ofStages = {
      ...(stages ? { stage: { $in: [...stages] } } : {}),
      ...(subjects ? { subject: { $in: [...subjects] } } : {}),
    };
    return this.jobs.findOne(
      this.jobs.filter({ $or: [{ status: 'queued' as const }, { status: 'leased' as const, leaseExpiresAt: { $lt: clock } }], ...ofStages }),
      { sort: { id: 1 }, projection: { id: 1, status: 1, owner: 1 } },
    );
  }

  async renew(jobId: number, owner: string, leaseMs: number): Promise<boolean> {
    const result = await this.jobs.updateOne(this.jobs.filter({ id: jobId, owner, status: 'leased' }), {
      $set: { leaseExpiresAt: Date.now() + leaseMs, updatedAt: now() },
    });
    return result.matchedCount === 1;
  }

  /** Done if the job is still this generation; queued again (fresh attempts) if it was re-armed while it ran. */
  async complete(job: JobRecord, owner: string): Promise<void> {
    const released = { owner: null, leaseExpiresAt: null, lastError: null, lostLeases: 0, updatedAt: now() };
    const done = await this.jobs.updateOne(this.jobs.filter({ id: job.id, owner, status: 'leased', generation: job.generation }), {
      $set: { status: 'done', ...released },
    });
    if (done.matchedCount === 1) return;
    await this.jobs.updateOne(this.jobs.filter({ id: job.id, owner, status: 'leased', generation: { $ne: job.generation } }), {
      $set: { status: 'queued', attempts: 0, ...released },
    });
  }

  /**
   * The job's state is read, the outcome decided as SQLite decides it, and written with that state
   * as the write's condition; if anything changed meanwhile (an enqueue re-armed it) it is read and
   * decided again. When the job gives up, its item is failed first (the hooks are idempotent): a
   * crash between the two leaves a leased job whose lease runs out, is claimed and gives up again.
   */
  async fail(job: JobRecord, owner: string, error: string, options: FailOptions): Promise<JobFailure> {
    for (;;) {
      const current = await this.jobs.findOne(this.jobs.filter({ id: job.id }));
      if (!current || current.owner !== owner || current.status !== 'leased') return { gaveUp: false, itemId: null };
      const rearmed = current.generation !== job.generation;
      const gaveUp = !rearmed && (options.permanent || current.attempts >= options.maxAttempts);
      let itemId: string | null = null;
      if (gaveUp) {
        // A first ingest that keeps failing has no item yet: it gets one, failed with the reason.
        itemId = job.stage === 'ingest' ? await this.items.failIngestPath(job.subject, error) : job.subject;
        if (options.failsItem !== false) await this.items.failItem(itemId, error);
      }
      const written = await this.jobs.updateOne(
        this.jobs.filter({ id: job.id, owner, status: 'leased', generation: current.generation, attempts: current.attempts }),
        {
          $set: {
            status: gaveUp ? 'failed' : 'queued',
            owner: null,
            leaseExpiresAt: null,
            lastError: error,
            updatedAt: now(),
            ...(rearmed ? { attempts: 0, lostLeases: 0 } : {}),
          },
        },
      );
      if (written.matchedCount === 1) return gaveUp ? { gaveUp: true, itemId } : { gaveUp: false, itemId: null };
    }
  }

  async releaseLeases(isDeadOwner: (owner: string) => boolean): Promise<number> {
    const leased = await this.jobs.find(this.jobs.filter({ status: 'leased' }), { projection: { id: 1, owner: 1 } }).toArray();
    let released = 0;
    for (const job of leased) {
      if (job.owner === null || !isDeadOwner(job.owner)) continue;
      // The attempt its claim took is given back (a leased job always holds one) and the loss counted.
      const result = await this.jobs.updateOne(this.jobs.filter({ id: job.id, owner: job.owner, status: 'leased', attempts: { $gt: 0 } }), {
        $set: { status: 'queued', owner: null, leaseExpiresAt: null, updatedAt: now() },
        $inc: { attempts: -1, lostLeases: 1 },
      });
      released += result.matchedCount;
    }
    return released;
  }

  async handBackLeases(owner: string): Promise<number> {
    const result = await this.jobs.updateMany(this.jobs.filter({ owner, status: 'leased', attempts: { $gt: 0 } }), {
      $set: { status: 'queued', owner: null, leaseExpiresAt: null, updatedAt: now() },
      $inc: { attempts: -1 },
    });
    return result.modifiedCount;
  }

  async handBack(job: JobRecord, owner: string): Promise<boolean> {
    // One conditional write: the attempt taken at claim is given back only while the lease is still ours.
    const result = await this.jobs.updateOne(this.jobs.filter({ id: job.id, owner, status: 'leased', attempts: { $gt: 0 } }), {
      $set: { status: 'queued', owner: null, leaseExpiresAt: null, updatedAt: now() },
      $inc: { attempts: -1 },
    });
    return result.matchedCount > 0;
  }

  async pendingJobs(subjects?: readonly string[]): Promise<number> {
    return this.jobs.countDocuments(
      this.jobs.filter({ status: { $in: ['queued', 'leased'] }, ...(subjects ? { subject: { $in: [...subjects] } } : {}) }),
    );
  }

  async jobCounts(): Promise<StageCounts[]> {
    const groups = await this.jobs
      .aggregate<{ _id: { stage: PipelineStage; status: JobStatus }; count: number }>([
        { $match: this.jobs.filter() },
        { $group: { _id: { stage: '$stage', status: '$status' }, count: { $sum: 1 } } },
      ])
      .toArray();
    return groups.map((group) => ({ stage: group._id.stage, status: group._id.status, count: group.count })).sort(compareStageCounts);
  }

  async leases(): Promise<LeaseView[]> {
    const clock = Date.now();
    const leased = await this.jobs.find(this.jobs.filter({ status: 'leased' }), { sort: { id: 1 } }).toArray();
    return leased.map((job) => ({
      jobId: job.id,
      stage: job.stage,
      subject: job.subject,
      owner: job.owner ?? '',
      expiresInMs: (job.leaseExpiresAt ?? clock) - clock,
    }));
  }

  async listJobs(): Promise<JobRecord[]> {
    return (await this.jobs.find(this.jobs.filter(), { sort: { id: 1 } }).toArray()).map(toJobRecord);
  }

  async dropJobsOf(subjects: readonly string[]): Promise<void> {
    if (subjects.length === 0) return;
    // A job's last error may quote the document (a parser's message); a job running now keeps its record.
    await this.jobs.deleteMany(this.jobs.filter({ subject: { $in: [...subjects] }, status: { $ne: 'leased' } }));
  }
}
