// Messages between watch.ts and the thread that runs chokidar (watchThread.ts).

export interface WatchThreadData {
  /** The folder as given: the rules are rooted here. */
  folder: string;
  /** Its real path, which chokidar watches (a folder given through a link would not be descended). */
  realFolder: string;
  /** The configured exclude patterns (FolderRules). */
  exclude: readonly string[];
}

export type FromWatchThread =
  /** Something was added, changed or removed at this real path. */
  | { type: 'change'; path: string }
  /** chokidar watches the whole folder. */
  | { type: 'ready' }
  | { type: 'error'; message: string }
  /** The watch is closed; the thread can end. */
  | { type: 'closed' };

export type ToWatchThread = { type: 'close' };
