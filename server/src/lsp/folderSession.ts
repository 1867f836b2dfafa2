// One workspace folder as the language server sees it: its store, its initial indexing run and
// the watcher that keeps it current. Each folder of a multi-root workspace gets its own session
// (its own store and queue), so folders never see each other's documents.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseEmbeddingChoice } from '../embed/choice.ts';
import type { Embedder } from '../embed/types.ts';
import { queryEmbedder } from '../ranking/queryEmbedder.ts';
import { searchWorkspace } from '../ranking/search.ts';
import type { ThreadRelatedOptions, ThreadSearchOptions } from '../ranking/searchThreadProtocol.ts';
import { SearchThreads } from '../ranking/searchThreads.ts';
import { offerSearches, type SearchOffer } from '../searchSocket/offer.ts';
import { FileExcludedError, FolderIndex, type Progress } from '../engine/folderIndex.ts';
import { relatedTo } from '../engine/related.ts';
import { describeRetry, retryDelayMs, unreachableReason } from '../engine/storeRetry.ts';
import { isStoreUnreachable, isWorthRetrying } from '../store/transientFailure.ts';
import { defaultPipelineSettings, MEBIBYTE } from '../pipeline/settings.ts';
import type { Thresholds } from '../scoring/model.ts';
import { thresholdsFromEnv } from '../scoring/thresholds.ts';
import { defaultDataDir } from '../store/dataDir.ts';
import { describeLocation, type StoreLocation } from '../store/location.ts';
import { locationForFolder, storeChoice } from '../cli/storeFlags.ts';
import { StoreDamagedError } from '../store/storeErrors.ts';
import { checkStoreInThread } from '../store/sqlite/checkInThread.ts';
import { damageSummary } from '../store/sqlite/storeCheck.ts';
import { watchFolder, type FolderWatch } from '../workspace/watch.ts';
import type { FolderState, FolderStatus, FolderStore, FolderWork, ModelExtractionStatus, ServerSettings } from '../../../shared/protocol.ts';
import type { PipelineStage, RelatedView, SearchResponse } from '../../../shared/types.ts';
import type { StageCounts } from '../store/contract.ts';
import type { AnswerProvider } from '../answer/provider.ts';
import { describeModelProgress, everyFewSeconds, ModelExtractor } from '../extract/model/modelExtractor.ts';

export interface SessionEvents {
  /** State or counts changed; the server throttles what it sends. */
  onChange(session: FolderSession): void;
  onProgress(session: FolderSession, progress: Progress): void;
  /** Indexing finished a pass (initial run or a watcher batch): relationships may have changed. */
  onIndexed(session: FolderSession): void;
  log(message: string): void;
  /** The model the extract stage may use: null unless `relata.extraction.useModel` is on and an answers model is configured. */
  extractionModel?(): AnswerProvider | null;
}

/** Runs one folder's indexing at a time: two folders indexing at once would only halve each other's speed. */
export type IndexingQueue = <T>(work: () => Promise<T>) => Promise<T>;

export function serialQueue(): IndexingQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
}

export function dataDirFor(folder: string, settings: ServerSettings): string {
  const base = defaultDataDir(folder);
  return settings.dataLocation ? path.join(path.resolve(settings.dataLocation), path.basename(base)) : base;
}

/**
 * The folder's store: MongoDB + Qdrant when the environment says so (the extension sets it from
 * the user's settings and SecretStorage; the rules are the CLI's, without flags), else SQLite in
 * dataDirFor's directory.
 */
export function storeLocationFor(folder: string, settings: ServerSettings, env: NodeJS.ProcessEnv = process.env): StoreLocation {
  const choice = storeChoice({}, env);
  return choice.backend === 'sqlite' ? { backend: 'sqlite', dataDir: dataDirFor(folder, settings) } : locationForFolder(choice, folder);
}

/** A watcher batch for the log: "changed a.md, b.md; deleted c.md" (a file that is gone was deleted, not changed). */
export function describeBatch(paths: readonly string[], present: (relative: string) => boolean): string {
  const changed = paths.filter(present);
  const deleted = paths.filter((relative) => !present(relative));
  return [
    ...(changed.length > 0 ? [`changed ${changed.join(', ')}`] : []),
    ...(deleted.length > 0 ? [`deleted ${deleted.join(', ')}`] : []),
  ].join('; ');
}

const WORK_OF_STAGE: Record<PipelineStage, keyof FolderWork> = {
  ingest: 'reading',
  parse: 'reading',
  chunk: 'reading',
  extract: 'extracting',
  embed: 'embedding',
  discover: 'relating',
};

/** Jobs waiting or running, counted by the kind of work a person would name. */
export function workByKind(counts: readonly StageCounts[]): FolderWork {
  const work: FolderWork = { reading: 0, extracting: 0, embedding: 0, relating: 0 };
  for (const { stage, status, count } of counts) {
    if (status === 'queued' || status === 'leased') work[WORK_OF_STAGE[stage]] += count;
  }
  return work;
}

/** Which store and where, for the status: never a password. */
export function describeStore(location: StoreLocation): Omit<FolderStore, 'unreachable'> {
  return { backend: location.backend, where: describeLocation(location) };
}

/** Discovery's thresholds: the environment's (or the design's defaults), overridden by the editor's settings. */
export function thresholdsFor(settings: ServerSettings): Thresholds {
  const overrides: Partial<Thresholds> = {};
  if (settings.minScore !== null) overrides.minScore = settings.minScore;
  if (settings.storeScore !== null) overrides.storeScore = settings.storeScore;
  return thresholdsFromEnv(process.env, overrides);
}

export class FolderSession {
  state: FolderState = 'opening';
  /** The model stage's progress while it runs this indexing; null otherwise. */
  private modelProgress: ModelExtractionStatus | null = null;
  reason: string | null = null;
  /** The store is damaged: from the quick check after open, or an error that met damage (storeErrors.ts). */
  damage: string | null = null;
  /** Why indexing is waiting (work kept for a retry, e.g. the store is busy), until it is done. */
  private waiting: string | null = null;
  /** The store's server did not answer the last time work needed it (its words), until work gets through. */
  private unreachable: string | null = null;
  index: FolderIndex | null = null;
  /** Where the folder's store is, once the environment has been read. */
  private location: StoreLocation | null = null;
  private watch: FolderWatch | null = null;
  private readonly stopping = new AbortController();
  private opened: Promise<FolderIndex | null> | null = null;
  /** The embedding model's id, known once the first run has loaded it. */
  private modelId: string | null = null;
  private searchEmbedder: Promise<Embedder | null> | null = null;
  /** The threads that answer this folder's searches beside indexing (a SQLite store's; others search here). */
  private searchThreads: SearchThreads | null = null;
  /** The socket `relata search` on this machine asks instead of loading the store itself, once offered. */
  private searchOffer: Promise<SearchOffer | null> | null = null;
  /** Whether the query model has embedded a text (is loaded), as far as the search socket knows. */
  private queryModel: 'cold' | 'loading' | 'warm' = 'cold';
  private queue: IndexingQueue | null = null;
  /** Aborted when the person pauses indexing: the pass under way stops between jobs. */
  private run = new AbortController();
  private paused = false;
  /** The full pass under way (the first run, Index now, a resume), if any. */
  private pass: Promise<void> | null = null;
  /** The watch whose batches are being followed (followWatcher). */
  private following: FolderWatch | null = null;

  constructor(
    readonly uri: string,
    readonly name: string,
    readonly folder: string,
    private readonly settings: ServerSettings,
    private readonly events: SessionEvents,
  ) {}

  /** Opens the store (requests can be answered from here on), then indexes in the background. */
  start(queue: IndexingQueue): Promise<FolderIndex | null> {
    this.queue = queue;
    this.opened ??= this.open();
    void this.opened.then((index) => index && this.indexInBackground(index, queue));
    return this.opened;
  }

  /** The embedder for queries (search, ask): the folder's model, loaded on the first query that needs it. */
  queryEmbedder(): Promise<Embedder | null> {
    this.searchEmbedder ??= queryEmbedder(parseEmbeddingChoice(this.settings.embeddingModel));
    return this.searchEmbedder;
  }

  /** A search of the folder's store with its query model, answered beside indexing; cancelled by the signal, even before it runs. */
  async search(index: FolderIndex, query: string, options: ThreadSearchOptions, signal?: AbortSignal): Promise<SearchResponse> {
    return this.searchWith(index, await this.queryEmbedder(), query, options, signal);
  }

  private searchWith(index: FolderIndex, embedder: Embedder | null, query: string, options: ThreadSearchOptions, signal?: AbortSignal): Promise<SearchResponse> {
    if (this.searchThreads) return this.searchThreads.search(query, options, embedder, signal);
    return searchWorkspace(index.store, embedder, query, { ...options, signal });
  }

  /** Related for the item at a folder-relative path, answered beside indexing as searches are; RelatedItemError when it is no indexed item. */
  related(index: FolderIndex, relative: string, options: ThreadRelatedOptions, signal?: AbortSignal): Promise<RelatedView> {
    if (this.searchThreads) return this.searchThreads.related(relative, options, signal);
    return relatedTo(index.store, relative, options);
  }

  /** The folder's index once its store is open; null if it could not be opened. */
  ready(): Promise<FolderIndex | null> {
    return this.opened ?? Promise.resolve(null);
  }

  private async open(): Promise<FolderIndex | null> {
    try {
      const location = storeLocationFor(this.folder, this.settings);
      this.location = location;
      const index = await this.whenReachable(() =>
        FolderIndex.open({
          folder: this.folder,
          location,
          settings: {
            exclude: this.settings.exclude,
            maxFileBytes: this.settings.maxFileMb * MEBIBYTE,
            parserLimits: { ...defaultPipelineSettings().parserLimits, maxPages: this.settings.maxPdfPages, ocr: this.settings.ocr },
            forgetDeleted: this.settings.forgetDeleted,
            thresholds: thresholdsFor(this.settings),
          },
          embedding: parseEmbeddingChoice(this.settings.embeddingModel),
          modelExtractor: this.modelExtractor(),
          discoveryThread: true,
        }),
      );
      if (!index) return null;
      this.index = index;
      this.setState('indexing');
      // SQLite's own check of its file; a server-backed store has no file here to check.
      if (location.backend === 'sqlite') {
        void this.quickCheck(index, location.dataDir);
        this.searchThreads = new SearchThreads({ location, workspace: index.workspace }, index.sharedGraph);
      }
      this.searchOffer = this.offerSearches(index, location);
      return index;
    } catch (error) {
      this.noteDamage(error);
      this.fail(`could not open the index of ${this.folder}: ${(error as Error).message}`);
      return null;
    }
  }

  /** The model stage of extraction, when the user turned it on; its first failure and its counts go to the log. */
  private modelExtractor(): ModelExtractor | null {
    const provider = this.events.extractionModel?.() ?? null;
    const log = (line: string) => this.events.log(`${this.name}: ${line}`);
    const logLine = everyFewSeconds((progress) => log(describeModelProgress(progress)), 10_000);
    // The status bar's "time left" follows the calls more closely than the log does.
    const inStatus = everyFewSeconds(({ tally, estimatedMsLeft }) => {
      this.modelProgress = { calls: tally.calls, cached: tally.cached, msLeft: estimatedMsLeft };
      this.events.onChange(this);
    }, 2_000);
    return (
      provider &&
      new ModelExtractor(provider, {
        log,
        onProgress: (progress) => {
          logLine(progress);
          inStatus(progress);
        },
      })
    );
  }

  /**
   * A MongoDB or Qdrant server that does not answer is waited for, with the watcher's backoff and
   * the reason in the status, rather than taken for a broken folder. Null if the session closes first.
   */
  private async whenReachable(open: () => Promise<FolderIndex>): Promise<FolderIndex | null> {
    for (let failures = 0; ; failures += 1) {
      try {
        const index = await open();
        this.waiting = this.unreachable = null;
        return index;
      } catch (error) {
        if (this.stopping.signal.aborted) return null;
        if (!isStoreUnreachable(error)) throw error;
        this.waiting = describeRetry(error, retryDelayMs(failures));
        this.unreachable = unreachableReason(error);
        this.events.log(`${this.name}: ${this.waiting}`);
        this.events.onChange(this);
        await sleep(retryDelayMs(failures), undefined, { signal: this.stopping.signal }).catch(() => undefined);
      }
    }
  }

  /** Watches the folder and runs a full pass; nothing while indexing is paused (resume starts it). */
  private indexInBackground(index: FolderIndex, queue: IndexingQueue): Promise<void> {
    if (this.paused || this.stopping.signal.aborted) return Promise.resolve();
    // Watch first: a file saved while the pass is under way is queued, not missed.
    if (!this.watch) this.watch = this.watchChanges(index);
    return this.fullPass(index, queue);
  }

  private watchChanges(index: FolderIndex): FolderWatch {
    return watchFolder(index, {
      onProgress: (progress) => this.events.onProgress(this, progress),
      onBatch: (paths) => {
        this.events.log(`${this.name}: ${describeBatch(paths, (relative) => existsSync(path.join(this.folder, relative)))}`);
        this.setState('indexing');
      },
      onRetry: (retry) =>
        this.waitFor(`${retry.message} (${retry.paths.length} change${retry.paths.length === 1 ? '' : 's'} kept)`, retry.error),
      onError: (error) => this.events.log(`${this.name}: watch error: ${error.message}`),
    });
  }

  /** The folder scanned and brought up to date; one pass at a time (a second request joins the first). */
  private fullPass(index: FolderIndex, queue: IndexingQueue): Promise<void> {
    this.pass ??= this.runFullPass(index, queue, this.run.signal).finally(() => {
      this.pass = null;
    });
    return this.pass;
  }

  private async runFullPass(index: FolderIndex, queue: IndexingQueue, paused: AbortSignal): Promise<void> {
    const signal = AbortSignal.any([this.stopping.signal, paused]);
    try {
      this.setState('indexing');
      // A store busy with another process's write is waited out, not taken for a broken folder:
      // the run is tried again with the watcher's backoff (out of the queue, so other folders go on).
      for (let failures = 0; ; failures += 1) {
        try {
          await queue(() => this.firstRun(index, signal));
          break;
        } catch (error) {
          if (signal.aborted || !isWorthRetrying(error)) throw error;
          const delayMs = retryDelayMs(failures);
          this.waitFor(describeRetry(error, delayMs), error);
          await sleep(delayMs, undefined, { signal });
        }
      }
      this.waiting = this.unreachable = null;
      if (signal.aborted) return;
      this.modelId = (await index.embeddingModel())?.id ?? null;
      this.setState('watching');
      this.events.onIndexed(this);
      if (this.watch) void this.followWatcher(this.watch);
    } catch (error) {
      this.noteDamage(error);
      if (!signal.aborted) this.fail(`indexing ${this.folder} failed: ${(error as Error).message}`);
    }
  }

  private async firstRun(index: FolderIndex, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    const started = performance.now();
    const report = await index.index({
      signal,
      onProgress: (progress) => this.events.onProgress(this, progress),
    });
    this.events.log(
      `${this.name}: ${report.items.indexed} indexed, ${report.items.failed} failed, ${report.items.skipped} skipped, ` +
        `${report.items.duplicates} duplicate${report.items.duplicates === 1 ? '' : 's'} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }

  /** Index now: the folder scanned again and brought up to date (a paused folder is resumed). */
  async indexNow(): Promise<string> {
    if (this.state === 'failed') return `not indexed: ${this.reason}`;
    if (this.paused) return this.resume();
    const index = await this.ready();
    if (!index || !this.queue) return `not indexed: ${this.reason ?? 'the index is not open yet'}`;
    if (this.pass) return 'already indexing: the pass under way brings the folder up to date';
    void this.indexInBackground(index, this.queue);
    return 'indexing: the folder is scanned again and brought up to date';
  }

  /** Nothing is indexed until resume: the pass under way stops after its current step and the watcher stops. */
  async pause(): Promise<string> {
    if (this.state === 'failed') return `not indexed: ${this.reason}`;
    if (this.paused) return 'already paused';
    this.paused = true;
    this.run.abort();
    const watch = this.watch;
    this.watch = null;
    await watch?.close();
    await this.pass?.catch(() => undefined);
    this.state = 'paused';
    this.events.log(`${this.name}: indexing paused`);
    this.events.onChange(this);
    return 'paused: nothing is indexed until you resume; changes made meanwhile are picked up then';
  }

  /** Indexing goes on: a full pass picks up whatever changed while paused, and the watcher starts again. */
  async resume(): Promise<string> {
    if (!this.paused) return this.state === 'failed' ? `not indexed: ${this.reason}` : 'not paused';
    this.paused = false;
    this.run = new AbortController();
    this.state = this.index ? 'indexing' : 'opening';
    this.events.log(`${this.name}: indexing resumed`);
    this.events.onChange(this);
    // Not open yet: start() runs the pass once the store is open.
    if (this.index && this.queue) void this.indexInBackground(this.index, this.queue);
    return 'resumed: the folder is scanned again and brought up to date';
  }

  /** One file read and parsed again now; answers once it is done, with what became of it. */
  async reindexFile(relativePath: string): Promise<string> {
    if (this.paused) return 'indexing is paused: run "Relata: Resume Indexing" first';
    const index = await this.ready();
    if (!index) return `not indexed: ${this.reason ?? 'the index is not open yet'}`;
    this.setState('indexing');
    try {
      const item = await index.reindexFile(relativePath, { onProgress: (progress) => this.events.onProgress(this, progress) }).catch((error: unknown) => {
        if (error instanceof FileExcludedError) return error;
        throw error;
      });
      if (item instanceof FileExcludedError) return `not indexed: ${item.reason}`;
      if (!item || item.deletedAt) return 'not in the index: the file is gone, or not a document Relata reads';
      const title = item.title ? ` as “${item.title}”` : '';
      return item.status === 'indexed' ? `re-indexed${title}` : `${item.status}${item.reason ? `: ${item.reason}` : ''}`;
    } finally {
      if (!this.pass && !this.paused && this.state === 'indexing') this.setState('watching');
      this.events.onIndexed(this);
    }
  }

  /** Where the folder's store is, once the environment has been read. */
  storeLocation(): StoreLocation | null {
    return this.location;
  }

  /** Work is kept for a retry: logged, and shown in the status until the work is done. */
  private waitFor(message: string, error: unknown): void {
    this.waiting = message;
    this.unreachable = isStoreUnreachable(error) ? unreachableReason(error) : null;
    this.events.log(`${this.name}: ${message}`);
    this.setState('indexing');
  }

  /** After each batch of this watch settles, say so once: the status goes back to watching. One loop per watch. */
  private async followWatcher(watch: FolderWatch): Promise<void> {
    if (this.following === watch) return;
    this.following = watch;
    try {
      while (this.watch === watch && !this.stopping.signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        // A full pass says when it is done itself.
        if (this.state !== 'indexing' || this.watch !== watch || this.pass) continue;
        await watch.settled();
        if (this.stopping.signal.aborted || this.watch !== watch || this.pass) continue;
        this.waiting = this.unreachable = null;
        this.setState('watching');
        this.events.onIndexed(this);
      }
    } finally {
      if (this.following === watch) this.following = null;
    }
  }

  async status(): Promise<FolderStatus> {
    const base: FolderStatus = {
      folder: this.uri,
      name: this.name,
      state: this.state,
      reason: this.reason ?? this.waiting,
      items: { indexed: 0, failed: 0, skipped: 0, duplicate: 0, pending: 0, unread: 0 },
      chunks: 0,
      queueDepth: 0,
      work: { reading: 0, extracting: 0, embedding: 0, relating: 0 },
      embeddingModel: null,
      embeddedChunks: 0,
      damage: this.damage,
      store: this.location && { ...describeStore(this.location), unreachable: this.unreachable },
      modelExtraction: this.state === 'indexing' ? this.modelProgress : null,
    };
    const index = this.index;
    if (!index) return base;
    try {
      // Counted by the store: listing every item at each status tick held the event loop for
      // 0.3-0.4 s at 2,000 files (bench:lsp's profile), and would for seconds at 100,000.
      const items = await index.store.countItemsByState();
      // During the first run the model is named as soon as it is loaded, so what it has embedded is counted as it goes.
      const modelId = this.modelId ?? index.loadedEmbeddingModel()?.id ?? null;
      const usage = modelId ? (await index.store.modelUsage()).find((model) => model.id === modelId) : undefined;
      const configured = this.settings.embeddingModel || 'default';
      return {
        ...base,
        items,
        chunks: await index.store.countChunks(),
        queueDepth: await index.store.pendingJobs(),
        work: workByKind(await index.store.jobCounts()),
        embeddingModel: modelId ?? (configured === 'none' ? null : configured),
        embeddedChunks: usage?.chunks ?? 0,
      };
    } catch (error) {
      // A server that went away leaves the counts unknown, not the whole report unsent.
      if (!isStoreUnreachable(error) || !base.store) throw error;
      return { ...base, store: { ...base.store, unreachable: unreachableReason(error) } };
    }
  }

  /**
   * SQLite's quick check of the store, once it is open: linear in the file (0.8-0.9 s for 3,000
   * items, a 58 MB file, on two loaded cores; docs/ARCHITECTURE.md "Damage found and named"), so it
   * runs in a thread of its own and the server answers meanwhile. Blobs and vectors are left to
   * `relata check`: hashing every file at each start would cost more than indexing.
   */
  private async quickCheck(index: FolderIndex, dataDir: string): Promise<void> {
    if (this.stopping.signal.aborted) return;
    try {
      const report = await checkStoreInThread({ dataDir, workspace: index.workspace, quick: true, blobs: false, vectors: false });
      const damage = damageSummary(report);
      this.events.log(`${this.name}: quick check of the store in ${report.elapsed_ms} ms: ${damage ?? 'ok'}`);
      if (damage) {
        this.damage = damage;
        this.events.onChange(this);
      }
    } catch (error) {
      this.events.log(`${this.name}: the store's quick check could not run: ${(error as Error).message}`);
    }
  }

  /**
   * Answers `relata search` from the command line with this session's store and query model
   * (searchSocket/offer.ts): the same search the command would run, for the same store only.
   */
  private offerSearches(index: FolderIndex, location: StoreLocation): Promise<SearchOffer | null> {
    return offerSearches({
      identity: { location, workspace: index.workspace, embedding: parseEmbeddingChoice(this.settings.embeddingModel) },
      search: async (request) =>
        this.searchWith(index, await this.warmQueryEmbedder(), request.query, {
          limit: request.limit,
          rankVersion: request.rankVersion,
          confirmedOnly: request.expansion.confirmedOnly,
          // The asker's environment's settings, as its own search would read them.
          expansion: { maxSeeds: request.expansion.maxSeeds, minScore: request.expansion.minScore },
        }),
      log: (message) => this.events.log(`${this.name}: ${message}`),
    }).catch((error: unknown) => {
      this.events.log(`${this.name}: the search socket could not be offered: ${(error as Error).message}`);
      return null;
    });
  }

  /**
   * The query embedder once its model is loaded. The command line waits at most 2 s for an answer
   * and would rather search itself than wait for a load: so the first ask starts the load and is
   * refused at once, and the command searches in its own process; the next asks are answered.
   */
  private async warmQueryEmbedder(): Promise<Embedder | null> {
    if (this.queryModel === 'warm' || parseEmbeddingChoice(this.settings.embeddingModel).kind === 'none') return this.queryEmbedder();
    if (this.queryModel === 'cold') {
      this.queryModel = 'loading';
      this.queryEmbedder()
        .then((embedder) => embedder?.embed(['ready']))
        .then(
          () => void (this.queryModel = 'warm'),
          () => void (this.queryModel = 'cold'),
        );
    }
    throw new Error('the query model is still loading');
  }

  private noteDamage(error: unknown): void {
    if (error instanceof StoreDamagedError) {
      this.damage = error.message;
      this.events.onChange(this);
    }
  }

  private setState(state: FolderState): void {
    if (this.state === 'failed' || this.paused) return;
    this.state = state;
    if (state !== 'indexing') this.modelProgress = null;
    this.events.onChange(this);
  }

  private fail(reason: string): void {
    this.state = 'failed';
    this.reason = reason;
    this.events.log(`${this.name}: ${reason}`);
    this.events.onChange(this);
  }

  async close(): Promise<void> {
    this.stopping.abort();
    const watch = this.watch;
    this.watch = null;
    await watch?.close().catch(() => undefined);
    const index = await this.opened?.catch(() => null);
    // Offered once the store opened; withdrawn before the model and the store close under a search.
    await (await this.searchOffer)?.close();
    await this.searchThreads?.close();
    await (await this.searchEmbedder?.catch(() => null))?.close();
    await index?.close().catch(() => undefined);
  }
}
