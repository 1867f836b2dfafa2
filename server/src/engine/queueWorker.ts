// `relata worker`: the stages after ingest (parse, chunk, embed, extract, discover), run from a
// store's shared queue by a process that may be on another machine than the folder. Ingest alone
// reads the folder, so it stays with `relata index`; every later stage reads the stored bytes and
// the store. Several workers share the queue through its leases: a worker that dies has its jobs
// handed back when their leases expire, and one that is stopped finishes its running jobs first.
// What `FolderIndex.drain` does after its queue runs dry (queue discovery, propose aliases), a
// worker does whenever the shared queue is idle after work it did.

import type { ModelExtractor } from '../extract/model/modelExtractor.ts';
import type { PipelineStage } from '../../../shared/types.ts';
import { ALIAS_NAME_TYPES, findAliasCandidates } from '../discover/aliases.ts';
import type { EmbeddingChoice } from '../embed/choice.ts';
import { extractionVersions } from '../extract/versions.ts';
import type { PipelineSettings } from '../pipeline/settings.ts';
import { currentDiscoveryBasis } from '../pipeline/stages/discover.ts';
import { rediscoverLinksToNewFiles } from '../discover/links/linksToNewFiles.ts';
import type { StageContext } from '../pipeline/stages/index.ts';
import { Worker, type WorkerEvent } from '../pipeline/worker.ts';
import type { BlobStore } from '../store/blobs.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import { openStoreWithBlobs } from '../store/index.ts';
import { describeLocation, type StoreLocation } from '../store/location.ts';
import { stageContext } from './folderIndex.ts';
import { defaultWorkspace } from './workspaceName.ts';
import { isWorthRetrying } from '../store/transientFailure.ts';
import { describeRetry, retryDelayMs } from './storeRetry.ts';

/** Every stage but ingest, which must run where the files are. */
export const WORKER_STAGES: readonly PipelineStage[] = ['parse', 'chunk', 'embed', 'extract', 'discover'];

/** An idle worker looks at the queue again after this long, doubling while nothing comes, up to the cap. */
export const IDLE_POLL_FIRST_MS = 250;
export const IDLE_POLL_MAX_MS = 4_000;

export interface QueueWorkerOptions {
  location: StoreLocation;
  workspace?: string;
  settings?: Partial<PipelineSettings>;
  /** Default: RELATA_EMBEDDING_MODEL, else the offline default model. Workers of one folder should agree. */
  embedding?: EmbeddingChoice;
  /**
   * The model stage of extraction (`--extract-with-model`). Workers and the indexer of one folder
   * should agree: an item is extracted again by whoever finds it extracted otherwise.
   */
  modelExtractor?: ModelExtractor | null;
}

export interface QueueWorkerRun {
  /** Return once no job of the worker's stages is queued or leased by anyone, instead of waiting for more. */
  untilIdle?: boolean;
  /** Stop claiming; the jobs already running are finished, then run() returns. */
  signal?: AbortSignal;
  onEvent?: (event: WorkerEvent) => void;
  /** Nothing to do for now; said once each time the worker falls idle. */
  onIdle?: () => void;
  /** The store was busy or could not be reached: the work is kept and tried again after a wait. */
  onRetry?: (message: string) => void;
}

export interface WorkerTotals {
  /** Jobs finished, per stage. */
  done: Record<Exclude<PipelineStage, 'ingest'>, number>;
  /** Attempts that failed (some are retried). */
  failed: number;
  /** Jobs that failed for good. */
  gaveUp: number;
}

export class QueueWorker {
  readonly totals: WorkerTotals = { done: { parse: 0, chunk: 0, embed: 0, extract: 0, discover: 0 }, failed: 0, gaveUp: 0 };
  private readonly context: StageContext;
  private worker: Worker | null = null;
  /** Work other than discovery was done since discovery was last queued: items may be ready for it. */
  private needsDiscovery = true;
  private extractedSinceDiscovery = 0;

  private constructor(
    readonly location: StoreLocation,
    readonly store: WorkspaceStore,
    blobs: BlobStore,
    /** The indexed folder as its indexer recorded it: a name here, never read. */
    readonly root: string,
    options: QueueWorkerOptions,
  ) {
    this.context = stageContext(store, blobs, root, options);
    // The folder is on the indexer's machine: a stage reading it here would be a stage that cannot
    // run on a worker, so it fails loudly instead of reading whatever this machine has at that path.
    Object.defineProperty(this.context, 'folder', {
      get: () => {
        throw new Error(`a worker has no folder: only ingest reads ${root}, and it runs where the files are (relata index)`);
      },
    });
  }

  static async open(options: QueueWorkerOptions): Promise<QueueWorker> {
    const { location } = options;
    const { store, blobs } = await openStoreWithBlobs({ location, workspace: options.workspace ?? defaultWorkspace() });
    try {
      const root = await store.getMeta('folder_root');
      if (!root) {
        throw new Error(
          `nothing is indexed for workspace ${store.workspace} on ${describeLocation(location)}: run \`relata index <folder>\` ` +
            'with this store first (--ingest-only leaves the rest to workers)',
        );
      }
      return new QueueWorker(location, store, blobs, root, options);
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
  }

  /** This worker's lease owner (host/pid/random), once run() has started. */
  get owner(): string | null {
    return this.worker?.owner ?? null;
  }

  /**
   * Drain the queue's jobs of WORKER_STAGES until the signal aborts (or, with untilIdle, until
   * none is queued or leased). A store that is busy or unreachable is waited out with growing
   * pauses; any other error ends the run.
   */
  async run(options: QueueWorkerRun = {}): Promise<WorkerTotals> {
    const { signal } = options;
    const worker = new Worker(this.context, { signal, stages: WORKER_STAGES, onEvent: (event) => this.count(event, options.onEvent) });
    this.worker = worker;
    let caughtUp = false;
    let polls = 0;
    let failures = 0;
    while (!signal?.aborted) {
      try {
        // Leases of local processes that died (a killed worker on this machine) come back at once;
        // those of other machines when they expire.
        await worker.reclaimDeadLeases();
        if ((await worker.runUntilIdle()) > 0) {
          polls = 0;
          failures = 0;
          continue;
        }
        failures = 0;
        if (signal?.aborted) break;
        // Only while no other worker holds a job of these stages: an item it is extracting or
        // embedding would look unfinished, and queuing it again would run it twice.
        if (!(await this.othersAtWork())) {
          // Once per run, as `relata index` does: items extracted by older extractors, and chunks
          // without vectors from this worker's model (a model change re-embeds).
          if (!caughtUp) {
            caughtUp = true;
            if ((await this.catchUp()) > 0) continue;
          }
          if (this.needsDiscovery && (await this.queueDiscovery()) > 0) continue;
          if (options.untilIdle) break;
        }
        if (polls === 0) options.onIdle?.();
        await pause(Math.min(IDLE_POLL_MAX_MS, IDLE_POLL_FIRST_MS * 2 ** polls), signal);
        polls += 1;
      } catch (error) {
        if (!isWorthRetrying(error)) throw error;
        // Whatever this worker held when the store failed is handed back now, not at lease expiry.
        await this.handBack().catch(() => 0);
        const delayMs = retryDelayMs(failures);
        failures += 1;
        options.onRetry?.(describeRetry(error, delayMs));
        await pause(delayMs, signal);
      }
    }
    return this.totals;
  }

  /** Return this worker's leases to the queue at once (a stop that cannot wait for running jobs). */
  async handBack(): Promise<number> {
    const owner = this.worker?.owner;
    return owner ? this.store.handBackLeases(owner) : 0;
  }

  async close(): Promise<void> {
    await this.context.threads.close();
    await this.context.embedder.close();
    await this.store.close();
  }

  private count(event: WorkerEvent, forward?: (event: WorkerEvent) => void): void {
    if (event.type !== 'job-started') {
      const stage = event.job.stage;
      if (stage !== 'discover') this.needsDiscovery = true;
      if (event.type === 'job-finished' && stage !== 'ingest') this.totals.done[stage] += 1;
      if (event.type === 'job-finished' && stage === 'extract') this.extractedSinceDiscovery += 1;
      if (event.type === 'job-failed') {
        this.totals.failed += 1;
        if (event.gaveUp) this.totals.gaveUp += 1;
      }
    }
    forward?.(event);
  }

  /** A job of the worker's stages is leased (to another worker): what it finishes may queue more. */
  private async othersAtWork(): Promise<boolean> {
    return (await this.store.leases()).some((lease) => WORKER_STAGES.includes(lease.stage));
  }

  private async catchUp(): Promise<number> {
    const { store, embedder } = this.context;
    const stale = await store.itemsNeedingExtraction(extractionVersions(this.context.modelExtractor?.version));
    await store.enqueueMany('extract', stale);
    let queued = stale.length;
    const model = embedder.enabled && (await store.countChunks()) > 0 ? (await embedder.get())?.descriptor : null;
    if (model) {
      const unembedded = await store.itemsNeedingVectors(model.id);
      await store.enqueueMany('embed', unembedded);
      queued += unembedded.length;
    }
    return queued;
  }

  /**
   * Discovery for the items ready for it, queued when no job of the worker's stages is left, so
   * each item is weighed against items already extracted and embedded (as FolderIndex.drain
   * does). Only after other work: an item whose discovery failed waits for the next change
   * rather than being queued again at every poll. Two workers falling idle together may both
   * queue the same items; a job queued twice runs again, which its idempotence makes harmless.
   */
  private async queueDiscovery(): Promise<number> {
    const { store } = this.context;
    this.needsDiscovery = false;
    if (this.extractedSinceDiscovery > 0) {
      this.extractedSinceDiscovery = 0;
      await store.proposeAliases(findAliasCandidates(await store.entitySummaries(ALIAS_NAME_TYPES)));
    }
    // A file that arrived may be what an earlier file's link named: that file is discovered again.
    await rediscoverLinksToNewFiles(store);
    const undiscovered = await store.itemsNeedingDiscovery(await currentDiscoveryBasis(this.context));
    await store.enqueueMany('discover', undiscovered);
    return undiscovered.length;
  }
}

/** Wait, or less if the signal aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
