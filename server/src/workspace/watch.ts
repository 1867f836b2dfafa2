// Keeps a folder's index current while the folder is open: the watch (nativeWatch.ts, or
// watchThread.ts's chokidar where it cannot start) reports additions, changes and deletions;
// they are debounced into batches of ingest jobs, and the queue is drained one batch at a time so
// that a burst of saves becomes one pass of work, not many. A pass that
// cannot reach the store (another process holds its write lock longer than the store waits) is
// kept, merged with what is seen meanwhile, and retried with backoff (engine/storeRetry.ts) until
// it succeeds or the watch is closed: no change is dropped. Links are not followed
// (workspace/folderBoundary.ts): a link is reported as itself, and ingest skips it.
//
// A watch sees a change only once it is set up, and settling into a large folder takes a while
// (chokidar, the fallback: 8-13 s for 40,000 files in one directory on two shared cores): a change
// made before then would be lost. So once the watch says it is ready, the folder is scanned once
// more and every file changed or added since the watch began (its mtime or ctime, which a move into the folder
// sets, is that late), and every stored file no longer there, is queued like a change. From
// `ready()` on, nothing goes unseen; the command line says "watching" only then.
//
// @parcel/watcher settles natively, off the event loop, so it runs on this thread; chokidar runs in
// a thread of its own (watchThread.ts): settling into 100,000 files was seconds of its work that on
// this thread kept the language server's first answers waiting.

import { realpathSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { FolderIndex, Progress } from '../engine/folderIndex.ts';
import { describeRetry, retryDelayMs } from '../engine/storeRetry.ts';
import { startWorkerThread } from '../embed/workerThread.ts';
import { insideUnreadable, scanFolder } from './scan.ts';
import { watchNatively, type WatchEvents } from './nativeWatch.ts';
import type { FolderWatcher, FromWatchThread, ToWatchThread, WatchThreadData } from './watchThreadProtocol.ts';

/**
 * How much earlier than the watch's start a file's time may read and still count as changed
 * since: the kernel stamps files from a clock coarser than Date.now() (a few milliseconds on
 * Linux). Kept small, because a file caught by it is read again: in the editor, files written
 * just before the folder was opened would otherwise be read twice at its first run. (A file
 * system that keeps times to 2 s, like FAT, can hide an edit made in the watch's first 2 s.)
 */
const FILE_TIME_SLACK_MS = 100;
/** Files looked at at once by the rescan. */
const RESCAN_LANES = 32;

export interface WatchOptions {
  debounceMs?: number;
  /** A pass starts over these paths (a retry's paths include what was seen while it waited). */
  onBatch?: (paths: string[]) => void;
  onProgress?: (progress: Progress) => void;
  /** A pass could not be queued or drained; its paths are kept and tried again after `delayMs`. */
  onRetry?: (retry: WatchRetry) => void;
  /** The watcher itself failed, or changes were still waiting when it was closed. */
  onError?: (error: Error) => void;
  /**
   * Since when (ms since the epoch) changes may have gone unseen: the start of the run that
   * brought the store up to date before the watch (default: when the watch starts).
   */
  changedSince?: number;
  /** The watcher: @parcel/watcher (nativeWatch.ts) by default, chokidar (watchThread.ts) where it cannot start or when asked. */
  watcher?: FolderWatcher;
}

export interface WatchRetry {
  error: Error;
  /** The paths kept for the retry. */
  paths: string[];
  delayMs: number;
  /** Failures in a row, 1 for the first. */
  failures: number;
  /** What to tell the person, e.g. "store busy, will retry in 2 s (database is locked)". */
  message: string;
}

export interface FolderWatch {
  /**
   * Resolves once the whole folder is watched and the changes made before that are queued:
   * from then on every change is seen (or once the watch is closed).
   */
  ready(): Promise<void>;
  /** Resolves when the watch is ready and every change seen so far has been processed (or the watch was closed). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export function watchFolder(index: FolderIndex, options: WatchOptions = {}): FolderWatch {
  const debounceMs = options.debounceMs ?? 300;
  const changedSince = options.changedSince ?? Date.now();
  // Every change seen and not yet processed: a pass takes its batch out and puts it back if it
  // fails, so a change leaves this set only once the store has it.
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | null = null;
  let failures = 0;
  let closed = false;

  const schedule = (delayMs: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  };

  const flush = () => {
    timer = undefined;
    if (closed || pass || pending.size === 0) return;
    const batch = [...pending].sort();
    pending.clear();
    options.onBatch?.(batch);
    pass = index
      .indexChanges(batch, { onProgress: options.onProgress })
      .then(
        () => {
          failures = 0;
        },
        (error: unknown) => {
          for (const relative of batch) pending.add(relative);
          failures += 1;
          const delayMs = retryDelayMs(failures - 1);
          const cause = error instanceof Error ? error : new Error(String(error));
          const paths = [...pending].sort();
          options.onRetry?.({ error: cause, paths, delayMs, failures, message: describeRetry(cause, delayMs) });
          if (!options.onRetry) options.onError?.(new Error(describeRetry(cause, delayMs)));
        },
      )
      .finally(() => {
        pass = null;
        // Changes seen during the pass, or the kept batch after the backoff.
        if (!closed && pending.size > 0) schedule(failures > 0 ? retryDelayMs(failures - 1) : debounceMs);
      });
  };

  // chokidar would take a folder given through a link for a link and not descend it, so it
  // watches the folder's real path; what it reports is mapped back to the folder as given.
  const realFolder = realpathSync(index.folder);
  const inFolder = (reported: string) => path.join(index.folder, path.relative(realFolder, reported));

  const note = (reported: string) => {
    const relative = index.rules.relative(inFolder(reported));
    if (path.posix.basename(relative) === '.gitignore') index.rules.forgetGitignore(path.posix.dirname(relative).replace(/^\.$/, ''));
    pending.add(relative);
    // While a failed batch waits out its backoff, a new change joins it rather than cutting the
    // wait short; while a pass runs, the change waits for the next one.
    if (failures === 0 && !pass) schedule(debounceMs);
  };

  // What changed before the watch was set up: files newer than it, stored files now gone.
  const rescan = async () => {
    const scan = await scanFolder(index.folder, index.rules);
    const files = [...scan.files];
    const changed: string[] = [];
    await Promise.all(
      Array.from({ length: RESCAN_LANES }, async () => {
        for (let relative = files.pop(); relative !== undefined; relative = files.pop()) {
          const stats = await lstat(path.join(index.folder, relative)).catch(() => null);
          if (!stats || Math.max(stats.mtimeMs, stats.ctimeMs) >= changedSince - FILE_TIME_SLACK_MS) changed.push(relative);
        }
      }),
    );
    const present = new Set(scan.files);
    const gone = (await index.store.livePaths()).filter((known) => !present.has(known) && !insideUnreadable(known, scan.unreadable));
    if (closed) return;
    for (const relative of [...changed, ...gone]) pending.add(relative);
    if (pending.size > 0 && failures === 0 && !pass) schedule(debounceMs);
  };
  let watcherReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    let once = false;
    watcherReady = () => {
      if (once) return;
      once = true;
      if (closed) return resolve();
      rescan().then(resolve, (error: unknown) => {
        options.onError?.(new Error(`the folder could not be scanned again once the watcher was ready, so changes made while it started may be missed until the next run: ${(error as Error).message}`));
        resolve();
      });
    };
  });
  // close() before ready: whoever waits for ready() is let go.
  let resolveClosing: () => void = () => undefined;
  const closing = new Promise<void>((resolve) => {
    resolveClosing = resolve;
  });

  const events: WatchEvents = { change: note, error: (message) => options.onError?.(new Error(message)) };
  // A watch that stops on its own sees no more changes: said, and whoever waits for ready() is let go.
  const stopped = (reason: string) => {
    if (closed) return;
    options.onError?.(new Error(`the folder's watch stopped (${reason}): changes are no longer seen until the folder is opened again`));
    watcherReady();
  };
  const inThread = () => watchInThread({ folder: index.folder, realFolder, exclude: index.rules.excludePatterns }, events, stopped);
  const source: Promise<StopWatch> = (
    options.watcher === 'chokidar'
      ? inThread()
      : watchNatively(realFolder, inFolder, index.rules, events).catch((error: unknown) => {
          events.error(`the native folder watcher could not start (${(error as Error).message}); watching with chokidar instead`);
          return inThread();
        })
  ).then((stop) => {
    watcherReady();
    return stop;
  });

  return {
    ready: () => Promise.race([ready, closing]),
    async settled() {
      await Promise.race([ready, closing]);
      while (!closed && (timer || pass || pending.size > 0)) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(debounceMs, 100)));
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      resolveClosing();
      if (timer) clearTimeout(timer);
      timer = undefined;
      await (await source)();
      await pass;
      if (pending.size > 0) {
        options.onError?.(
          new Error(`${pending.size} change(s) were not indexed before the watch stopped; the next \`relata index\` of the folder picks them up`),
        );
      }
    },
  };
}

/** What stops a watch, once it has stopped. */
type StopWatch = () => Promise<void>;

/**
 * chokidar's watch in a thread of its own (watchThread.ts); resolves once it watches the whole
 * folder. `stopped` hears of a thread that ends on its own.
 */
function watchInThread(workerData: WatchThreadData, events: WatchEvents, stopped: (reason: string) => void): Promise<StopWatch> {
  const watcher = startWorkerThread({ source: new URL('./watchThread.ts', import.meta.url), bundled: 'watchThread.js' }, { workerData });
  let closedByThread: () => void = () => undefined;
  const threadClosed = new Promise<void>((resolve) => (closedByThread = resolve));
  let readyNow: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (readyNow = resolve));
  watcher.on('message', (message: FromWatchThread) => {
    if (message.type === 'change') events.change(message.path);
    else if (message.type === 'ready') readyNow();
    else if (message.type === 'error') events.error(message.message);
    else closedByThread();
  });
  const ended = (reason: string) => {
    closedByThread();
    readyNow();
    stopped(reason);
  };
  watcher.on('error', (error) => ended(error.message));
  watcher.on('exit', (code) => ended(`its thread exited with code ${code}`));
  const stop: StopWatch = async () => {
    const request: ToWatchThread = { type: 'close' };
    watcher.postMessage(request);
    await threadClosed;
    await watcher.terminate();
  };
  return ready.then(() => stop);
}
