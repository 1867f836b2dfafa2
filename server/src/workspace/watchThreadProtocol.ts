// Messages between watch.ts and the thread that runs chokidar, the fallback watcher (watchThread.ts).

export interface WatchThreadData {
  /** The folder as given: the rules are rooted here. */
  folder: string;
  /** Its real path, which is watched (chokidar would not descend a folder given through a link). */
  realFolder: string;
  /** The configured exclude patterns (FolderRules). */
  exclude: readonly string[];
}

/** @parcel/watcher on the queueing thread (nativeWatch.ts), falling back to chokidar in this thread where it cannot start; or chokidar alone. */
export type FolderWatcher = 'native' | 'chokidar';

export type FromWatchThread =
  /** Something was added, changed or removed at this real path. */
  | { type: 'change'; path: string }
  /** The whole folder is watched. */
  | { type: 'ready' }
  | { type: 'error'; message: string }
  /** The watch is closed; the thread can end. */
  | { type: 'closed' };

export type ToWatchThread = { type: 'close' };
