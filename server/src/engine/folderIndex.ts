// The engine's front door for one folder: open its store for a workspace, index it, watch it,
// and read back what was stored. The CLI and the language server are thin layers over this; it
// knows nothing about terminals or editors.

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PipelineStage } from '../../../shared/types.ts';
import { DEFAULT_EMBEDDING, embeddingChoiceFromEnv, LazyEmbedder, type EmbeddingChoice } from '../embed/choice.ts';
import type { BlobStore } from '../store/blobs.ts';
import { ALIAS_NAME_TYPES, findAliasCandidates } from '../discover/aliases.ts';
import type { RelationshipClassifier } from '../discover/classifier.ts';
import type { ModelDescriptor } from '../embed/types.ts';
import type { ModelExtractor } from '../extract/model/modelExtractor.ts';
import { extractionVersions } from '../extract/versions.ts';
import type { ItemRecord, WorkspaceStore } from '../store/contract.ts';
import { forgetDocuments } from '../store/forget.ts';
import { defaultDataDir } from '../store/dataDir.ts';
import { openStoreWithBlobs } from '../store/index.ts';
import { describeLocation, type StoreLocation } from '../store/location.ts';
import { defaultPipelineSettings, type PipelineSettings } from '../pipeline/settings.ts';
import type { StageContext } from '../pipeline/stages/index.ts';
import { currentDiscoveryBasis } from '../pipeline/stages/discover.ts';
import { rediscoverLinksToNewFiles } from '../discover/links/linksToNewFiles.ts';
import { DiscoveryLanes } from '../pipeline/threads/discoveryLanes.ts';
import { SharedGraph } from '../store/sqlite/sharedGraph.ts';
import { StageThreads } from '../pipeline/threads/stageThreads.ts';
import { Worker, type WorkerEvent } from '../pipeline/worker.ts';
import { dataDirOverlap } from '../workspace/folderBoundary.ts';
import { FolderRules } from '../workspace/folderRules.ts';
import { parserFor } from '../parse/registry.ts';
import { filesToRead } from '../workspace/checkedFiles.ts';
import { insideUnreadable, scanFolder } from '../workspace/scan.ts';
import { namingFullDisk } from './fullDisk.ts';
import { buildIndexReport, type IndexReport } from './report.ts';
import { defaultWorkspace } from './workspaceName.ts';

export interface FolderIndexOptions {
  folder: string;
  /** The SQLite data directory (default: the folder's own under the user's data home); see `location`. */
  dataDir?: string;
  /** Where the store is, SQLite or MongoDB + Qdrant; when given, `dataDir` is not used. */
  location?: StoreLocation;
  workspace?: string;
  settings?: Partial<PipelineSettings>;
  /** Default: RELATA_EMBEDDING_MODEL, else the offline default model. */
  embedding?: EmbeddingChoice;
  /** A language model's weak opinion on candidate pairs during discovery; none by default. */
  classifier?: RelationshipClassifier | null;
  /** The model stage of extraction, after the rules, on thin passages; none by default. */
  modelExtractor?: ModelExtractor | null;
  /**
   * Discover items in threads of their own (a SQLite store only; settings.discoveryLanes of them,
   * each item in one), so discovery never holds this thread's event loop: the language server's,
   * which reads every request. Off by default: a command line has nothing else to answer meanwhile.
   * With it, every connection of the process looks vectors up in one shared graph (`sharedGraph`).
   */
  discoveryThread?: boolean;
}

export interface Progress {
  done: number;
  pending: number;
  last?: WorkerEvent;
}

export interface RunOptions {
  onProgress?: (progress: Progress) => void;
  /** A job that failed for good in this run (no attempt left), as it happens. */
  onJobFailed?: (failure: Extract<WorkerEvent, { type: 'job-failed' }>) => void;
  signal?: AbortSignal;
  /**
   * Run ingest jobs only (`relata index --ingest-only`): the bytes are recorded and parse jobs
   * queued, and the later stages are left to `relata worker` processes, which need no folder.
   */
  ingestOnly?: boolean;
  /**
   * Run only the jobs of these subjects (a file's path, its item's id), ahead of the queue, and
   * wait for those another drain holds (reindexFile). Discovery then weighs only these items.
   */
  subjects?: readonly string[];
}

/** How often a drain of a file's jobs looks again for one that another drain of this store holds. */
const HELD_JOB_POLL_MS = 50;

const INGEST_ONLY: readonly PipelineStage[] = ['ingest'];

export interface ForgetReport {
  forgotten: { item_id: string; path: string }[];
  blobs_removed: number;
  /** False when another process reading the store kept its write-ahead log from being truncated. */
  log_truncated: boolean;
}

const ROOT_KEY = 'folder_root';

/** A single-file request for a path the folder's rules leave out; the message names the rule. */
export class FileExcludedError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} is not indexed: ${reason}`);
    this.name = 'FileExcludedError';
  }
}

export class FolderIndex {
  readonly folder: string;
  readonly location: StoreLocation;
  readonly store: WorkspaceStore;
  readonly rules: FolderRules;
  private readonly context: StageContext;
  /** Lease owners of this process's drains that failed part-way: nothing will finish their jobs. */
  private readonly abandonedOwners = new Set<string>();
  /**
   * The process's one vector graph (a SQLite store whose discovery has threads: the language
   * server's), which this index's connections, its discovery lanes and the search threads look
   * vectors up in; null where each connection keeps its own.
   */
  readonly sharedGraph: SharedGraph | null;

  private constructor(options: FolderIndexOptions, store: WorkspaceStore, blobs: BlobStore, location: StoreLocation, sharedGraph: SharedGraph | null) {
    this.folder = path.resolve(options.folder);
    this.location = location;
    this.store = store;
    this.sharedGraph = sharedGraph;
    this.context = stageContext(store, blobs, this.folder, options);
    if (options.discoveryThread && location.backend === 'sqlite') {
      this.context.discoveryLanes = new DiscoveryLanes({ location, workspace: store.workspace }, this.context.settings.discoveryLanes, sharedGraph);
    }
    this.rules = this.context.rules;
  }

  static async open(options: FolderIndexOptions): Promise<FolderIndex> {
    const folder = path.resolve(options.folder);
    const location: StoreLocation =
      options.location?.backend === 'mongodb-qdrant'
        ? options.location
        : {
            backend: 'sqlite',
            dataDir: path.resolve(options.location?.dataDir ?? options.dataDir ?? defaultDataDir(folder)),
            ...(options.location?.databaseFile ? { databaseFile: options.location.databaseFile } : {}),
          };
    if (location.backend === 'sqlite') {
      // Checked before the store is opened, so that nothing is written into the folder.
      const overlap = dataDirOverlap(folder, location.dataDir);
      if (overlap) throw new Error(overlap);
    }
    const workspace = options.workspace ?? defaultWorkspace();
    const sharedGraph = options.discoveryThread && location.backend === 'sqlite' ? new SharedGraph({ location, workspace }) : null;
    // A folder whose discovery runs off this thread has its WAL checkpoints run off it too.
    let opened: ReturnType<typeof openStoreWithBlobs>;
    try {
      opened = openStoreWithBlobs({
        location,
        workspace,
        checkpointInThread: options.discoveryThread,
        // Where discovery has threads of its own (the language server, whose searches and Related have
        // theirs too) this thread looks vectors up only for answers and agent tools: no copy of every
        // vector is kept for them, and a look-up while its graph catches up is not exact (it took 1.4 s
        // of this thread at 110,000 windows, when Related was answered here).
        holdVectors: !options.discoveryThread,
        exactWhileCatchingUp: !options.discoveryThread,
        sharedGraph: sharedGraph?.connect(),
      });
    } catch (error) {
      await sharedGraph?.close();
      throw error;
    }
    const { store, blobs } = opened;
    try {
      const recorded = await store.getMeta(ROOT_KEY);
      if (recorded && recorded !== folder) {
        throw new Error(
          location.backend === 'sqlite'
            ? `the data directory ${location.dataDir} holds the index of ${recorded}, not ${folder}; choose another --data directory`
            : `the folder key ${location.folder} on ${describeLocation(location)} holds the index of ${recorded}, not ${folder}; choose another --folder key`,
        );
      }
      if (!recorded) await store.setMeta(ROOT_KEY, folder);
    } catch (error) {
      await store.close().catch(() => undefined);
      await sharedGraph?.close();
      throw error;
    }
    return new FolderIndex(options, store, blobs, location, sharedGraph);
  }

  /** The SQLite store's data directory; a MongoDB + Qdrant store has none. */
  get dataDir(): string {
    if (this.location.backend !== 'sqlite') throw new Error(`the store on ${describeLocation(this.location)} has no data directory: it is not a SQLite store`);
    return this.location.dataDir;
  }

  get workspace(): string {
    return this.store.workspace;
  }

  /**
   * Bring the store in line with the folder: every file present is (re)ingested by hash, every
   * item whose file disappeared, or which the folder's rules now exclude, is tombstoned, and the
   * queue is drained.
   */
  async index(options: RunOptions = {}): Promise<IndexReport> {
    try {
      return await this.indexFolder(options);
    } catch (error) {
      throw await namingFullDisk(error, this.store, this.folder, this.location);
    }
  }

  private async indexFolder(options: RunOptions): Promise<IndexReport> {
    const started = performance.now();
    this.context.runStartedAt = new Date().toISOString();
    this.rules.forgetGitignores();
    const scan = await scanFolder(this.folder, this.rules);
    const scanned = scan.files;
    // Files untouched since ingest last read them are not read again (workspace/checkedFiles.ts).
    const toRead = await filesToRead(this.folder, scanned, await this.store.fileChecks(), {
      parserVersionOf: (file) => parserFor(file)?.version ?? null,
      maxFileBytes: this.context.settings.maxFileBytes,
    });
    await this.store.enqueueMany('ingest', toRead);
    const firstPass = await this.drain(options);
    // Deletions after additions: a file that moved has been claimed by its new path by now, so
    // only files that are really gone are tombstoned (and a rename costs no re-parse).
    const present = new Set(scanned);
    // A file in a folder that could not be listed was not seen, which is not the same as gone.
    const vanished = (await this.store.livePaths()).filter((known) => !present.has(known) && !insideUnreadable(known, scan.unreadable));
    let done = firstPass;
    const onProgress = options.onProgress;
    const continuing = (): RunOptions => ({
      ...options,
      onProgress: onProgress && ((progress) => onProgress({ ...progress, done: progress.done + done })),
    });
    if (vanished.length > 0) {
      await this.store.enqueueMany('ingest', vanished.sort());
      done += await this.drain(continuing());
    }
    if (!options.ingestOnly) await this.catchUp(continuing());
    return buildIndexReport(this.store, scan, performance.now() - started, (relative) => existsSync(path.join(this.folder, relative)));
  }

  /** Extraction and embedding for whatever lacks them, after the queue of a run is drained. */
  private async catchUp(options: RunOptions): Promise<void> {
    // Items extracted by older extractors (or never): extraction is cheap, so it runs before embedding.
    const stale = await this.store.itemsNeedingExtraction(extractionVersions(this.context.modelExtractor?.version));
    if (stale.length > 0) {
      await this.store.enqueueMany('extract', stale);
      await this.drain(options);
    }
    // Chunks without vectors from the configured model: never embedded, embedded while embedding
    // was off, or by another model (a model change re-embeds; old vectors stay until replaced).
    const model = await this.embeddingModel();
    if (model) {
      await this.store.enqueueMany('embed', await this.store.itemsNeedingVectors(model.id));
      await this.drain(options);
    }
  }

  /** Queue ingest for paths the watcher saw change (folder-relative); each batch is a run of its own. */
  async enqueuePaths(paths: readonly string[]): Promise<void> {
    this.context.runStartedAt = new Date().toISOString();
    await this.store.enqueueMany('ingest', paths);
  }

  /**
   * One watcher batch, queued and drained: paths still on disk first, then the ones that are
   * gone, as index() does, so a file that moved is claimed by its new path before its old one
   * is tombstoned (its identity, and its duplicates, stay with it). Idempotent: a batch that
   * failed part-way (a busy store) can simply be run again.
   */
  async indexChanges(paths: readonly string[], options: RunOptions = {}): Promise<void> {
    const present = paths.filter((relative) => existsSync(path.join(this.folder, relative)));
    const gone = paths.filter((relative) => !present.includes(relative));
    for (const group of [present, gone]) {
      if (group.length === 0) continue;
      await this.enqueuePaths(group);
      await this.drain(options);
    }
  }

  /**
   * One file read again now and, when its bytes are unchanged, parsed again (a newer limit or a
   * fixed cause may let it read better, or at all); then extraction, embedding and discovery, as
   * for any change. The item at the path afterwards, or null when the file is gone or never a
   * document. A path the folder's rules exclude is refused (FileExcludedError, naming the rule),
   * as a run would leave it out; anything stored under it is dropped first, as a run drops it.
   */
  async reindexFile(relativePath: string, options: RunOptions = {}): Promise<ItemRecord | null> {
    const excluded = this.rules.exclusionReason(relativePath);
    if (excluded !== null) {
      // Ingest treats an excluded path as gone, so an item stored there before leaves search.
      if (await this.store.getItemByPath(relativePath)) await this.indexChanges([relativePath], options);
      throw new FileExcludedError(relativePath, excluded);
    }
    const before = await this.store.getItemByPath(relativePath);
    // The file's own jobs only, ahead of whatever a run has queued: answered in seconds, not
    // when the folder's run ends (issue 33).
    await this.enqueuePaths([relativePath]);
    await this.drain({ ...options, subjects: [relativePath, ...(before ? [before.id] : [])] });
    const after = await this.store.getItemByPath(relativePath);
    if (!after || after.deletedAt || after.status === 'duplicate' || after.status === 'skipped' || !after.contentHash) return after;
    const itsJobs = { ...options, subjects: [after.id] };
    // Changed bytes were queued for parsing by the ingest just now; unchanged ones are queued here.
    if (before?.contentHash === after.contentHash) await this.store.enqueue('parse', after.id);
    await this.drain(itsJobs);
    await this.catchUpItem(after.id, itsJobs);
    return this.store.getItemByPath(relativePath);
  }

  /** catchUp for one item: its extraction and its vectors, if it lacks them. */
  private async catchUpItem(itemId: string, options: RunOptions): Promise<void> {
    if ((await this.store.itemsNeedingExtraction(extractionVersions(this.context.modelExtractor?.version))).includes(itemId)) {
      await this.store.enqueue('extract', itemId);
      await this.drain(options);
    }
    const model = await this.embeddingModel();
    if (model && (await this.store.itemsNeedingVectors(model.id)).includes(itemId)) {
      await this.store.enqueue('embed', itemId);
      await this.drain(options);
    }
  }

  /**
   * A person's choice of original among identical files: the copy at this folder-relative path
   * becomes the item that is parsed, searched and related, and the former original a duplicate
   * of it. Stored in the items themselves, and since no run displaces an established original,
   * re-indexing keeps it. Relationships stay with the item ids they were made for.
   */
  async chooseOriginal(relativePath: string, options: RunOptions = {}): Promise<{ itemId: string; formerOriginalId: string }> {
    const chosen = await this.store.chooseOriginal(relativePath);
    await this.drain(options);
    await this.catchUp(options);
    return chosen;
  }

  /**
   * Run queued jobs until none is left; leases of dead local indexers are handed back first.
   * Discovery is queued only once everything else is done, so each item is weighed against items
   * that are already extracted and embedded.
   */
  async drain(options: RunOptions = {}): Promise<number> {
    try {
      return await this.drainQueue(options);
    } catch (error) {
      throw await namingFullDisk(error, this.store, this.folder, this.location);
    }
  }

  private async drainQueue(options: RunOptions): Promise<number> {
    let done = 0;
    let extracted = 0;
    const report = options.onProgress && progressReports(this.store, options.onProgress);
    const worker = new Worker(this.context, {
      signal: options.signal,
      ...(options.ingestOnly ? { stages: INGEST_ONLY } : {}),
      ...(options.subjects ? { subjects: options.subjects } : {}),
      onEvent: (event) => {
        if (event.type === 'job-started') return;
        done += 1;
        if (event.type === 'job-finished' && event.job.stage === 'extract') extracted += 1;
        if (event.type === 'job-failed' && event.gaveUp) options.onJobFailed?.(event);
        report?.(done, event);
      },
    });
    await worker.reclaimDeadLeases();
    // A drain of this process that failed part-way (a busy store) may have left the job it was
    // running leased: handed back now, a retry runs it at once rather than after the lease expires.
    // Those workers claim nothing more, so once released they hold nothing.
    for (const owner of [...this.abandonedOwners]) {
      await this.store.handBackLeases(owner);
      this.abandonedOwners.delete(owner);
    }
    try {
      let processed = await this.runOwnJobs(worker, options);
      let previous = Infinity;
      // A file that arrived may be what an earlier file's link named: that file is discovered again.
      if (!options.signal?.aborted && !options.ingestOnly) await rediscoverLinksToNewFiles(this.store);
      // Discovery, like every stage after ingest, is the workers' to run after an ingest-only pass.
      while (!options.signal?.aborted && !options.ingestOnly) {
        const needing = await this.store.itemsNeedingDiscovery(await currentDiscoveryBasis(this.context));
        const undiscovered = options.subjects ? needing.filter((itemId) => options.subjects!.includes(itemId)) : needing;
        // Items whose discovery failed are left for the next run rather than retried in a loop.
        if (undiscovered.length === 0 || undiscovered.length >= previous) break;
        previous = undiscovered.length;
        await this.store.enqueueMany('discover', undiscovered);
        processed += await this.runOwnJobs(worker, options);
      }
      // Names that may be the same person, offered for review: a pass over the workspace's names,
      // so only after a run that extracted something new.
      if (extracted > 0) await this.store.proposeAliases(findAliasCandidates(await this.store.entitySummaries(ALIAS_NAME_TYPES)));
      // forgetDeleted: what this drain tombstoned (and any tombstone an interrupted run left) is
      // forgotten now, and the files scrubbed once for the lot.
      if (this.context.settings.forgetDeleted) {
        await this.forgetItems((await this.store.listItems({ includeDeleted: true })).filter((item) => item.deletedAt && !item.forgottenAt));
      }
      // Every passage this drain replaced is still counted by the lexical index's BM25 statistics.
      await this.store.refreshLexicalStatistics();
      return processed;
    } catch (error) {
      // Whatever the worker still holds goes back now, so a process that stops here (a full disk,
      // a busy store) leaves no lease behind; if the store cannot take even that, the next drain does.
      const released = await this.store.handBackLeases(worker.owner).then(
        () => true,
        () => false,
      );
      if (!released) this.abandonedOwners.add(worker.owner);
      throw error;
    }
  }

  /**
   * The worker run until idle; for a drain of some subjects, until none of their jobs is left,
   * waiting out one that another drain (the folder's run) holds under its lease.
   */
  private async runOwnJobs(worker: Worker, options: RunOptions): Promise<number> {
    let processed = await worker.runUntilIdle();
    while (options.subjects && !options.signal?.aborted && (await this.store.pendingJobs(options.subjects)) > 0) {
      await new Promise((resolve) => setTimeout(resolve, HELD_JOB_POLL_MS));
      processed += await worker.runUntilIdle();
    }
    return processed;
  }

  /**
   * Forget deleted documents: those at these folder-relative paths, or every deleted one. Their
   * text, passages, vectors, extracted facts and unshared bytes leave the store; the record that
   * they existed and the relationship history stay (see forgetItems in store/contract.ts). A path
   * whose file is still in the folder is refused before anything is forgotten.
   */
  async forget(paths: readonly string[] | 'all-deleted'): Promise<ForgetReport> {
    const all = await this.store.listItems({ includeDeleted: true });
    if (paths === 'all-deleted') return this.forgetItems(all.filter((item) => item.deletedAt && !item.forgottenAt));
    const chosen: ItemRecord[] = [];
    for (const relative of paths) {
      const atPath = all.filter((item) => item.path === relative);
      if (atPath.some((item) => !item.deletedAt) || existsSync(path.join(this.folder, relative))) {
        throw new Error(`${relative} is still in the folder; delete it first or exclude it`);
      }
      if (atPath.length === 0) throw new Error(`${relative}: no deleted item at this path in the index of ${this.folder}`);
      chosen.push(...atPath);
    }
    return this.forgetItems(chosen);
  }

  private async forgetItems(items: readonly ItemRecord[]): Promise<ForgetReport> {
    const result = await forgetDocuments(this.store, this.context.blobs, items.map((item) => item.id));
    const logTruncated = await this.store.scrubForgotten();
    return { forgotten: items.map((item) => ({ item_id: item.id, path: item.path })), blobs_removed: result.blobsRemoved, log_truncated: logTruncated };
  }

  /**
   * Recompute relationships under the current scoring model: of the items at these paths, or of
   * every item when none are given. Proposals update in place (the dedupe key), decisions stay.
   */
  async reprocess(paths: readonly string[] | null, options: RunOptions = {}): Promise<number> {
    let itemIds: string[] | null = null;
    if (paths) {
      itemIds = [];
      for (const relative of paths) {
        const item = await this.store.getItemByPath(relative);
        if (!item) throw new Error(`${relative}: no item at this path in the index; run \`relata index\` first`);
        itemIds.push(item.id);
      }
    }
    await this.store.resetDiscovery(itemIds);
    return this.drain(options);
  }

  /** The configured embedding model, loading it if needed; null when embedding is off or nothing is chunked yet. */
  async embeddingModel(): Promise<ModelDescriptor | null> {
    if (!this.context.embedder.enabled || (await this.store.countChunks()) === 0) return null;
    return (await this.context.embedder.get())?.descriptor ?? null;
  }

  /** The embedding model if it is loaded already (it is while anything is embedded), never loading it. */
  loadedEmbeddingModel(): ModelDescriptor | null {
    return this.context.embedder.descriptor;
  }

  async close(): Promise<void> {
    await this.context.threads.close();
    await this.context.discoveryLanes?.close();
    await this.context.embedder.close();
    await this.store.close();
    // Last: every connection that asks it has closed by now (the search threads before this index).
    await this.sharedGraph?.close();
  }
}

/** How often a drain counts its queue for the progress reports (the count of the last look is reported meanwhile). */
const PENDING_RECOUNT_MS = 250;

/**
 * One progress report per finished job, in order. The queue is counted at most every
 * PENDING_RECOUNT_MS: a count reads every waiting job, and made after each of the tens of
 * thousands of jobs of a large folder's run it was a tenth of the language server's main thread
 * while it restarted on 10,000 notes (docs/PERFORMANCE.md), and grows with the folder twice over.
 */
function progressReports(store: WorkspaceStore, onProgress: (progress: Progress) => void): (done: number, last: WorkerEvent) => void {
  let counted = { pending: 0, at: -Infinity };
  let reports: Promise<void> = Promise.resolve();
  return (done, last) => {
    reports = reports.then(async () => {
      if (performance.now() - counted.at >= PENDING_RECOUNT_MS) counted = { pending: await store.pendingJobs(), at: performance.now() };
      onProgress({ done, pending: counted.pending, last });
    });
  };
}

/**
 * What the stages run with: the store and its blobs, the folder (read by ingest alone), the
 * settings, the embedding model and the stage threads. Shared by the folder's index and by a
 * `relata worker`, whose folder is elsewhere.
 */
export function stageContext(
  store: WorkspaceStore,
  blobs: BlobStore,
  folder: string,
  options: Pick<FolderIndexOptions, 'settings' | 'embedding' | 'classifier' | 'modelExtractor'>,
): StageContext {
  const settings = { ...defaultPipelineSettings(), ...options.settings };
  return {
    store,
    blobs,
    folder,
    rules: new FolderRules(folder, settings.exclude),
    settings,
    embedder: new LazyEmbedder(options.embedding ?? (process.env.RELATA_EMBEDDING_MODEL ? embeddingChoiceFromEnv() : DEFAULT_EMBEDDING)),
    threads: new StageThreads({
      lanes: settings.parseLanes,
      memoryMb: settings.parseMemoryMb,
      timeoutMs: settings.parseTimeoutMs,
      parser: settings.parserLimits,
    }),
    classifier: options.classifier ?? null,
    modelExtractor: options.modelExtractor ?? null,
  };
}
