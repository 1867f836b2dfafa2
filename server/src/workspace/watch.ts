// Keeps a folder's index current while the folder is open: chokidar reports additions, changes
// and deletions; they are debounced into batches of ingest jobs, and the queue is drained one
// batch at a time so that a burst of saves becomes one pass of work, not many. Links are not
// followed (workspace/folderBoundary.ts): a link is reported as itself, and ingest skips it.

import chokidar, { type FSWatcher } from 'chokidar';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { FolderIndex, Progress } from '../engine/folderIndex.ts';

export interface WatchOptions {
  debounceMs?: number;
  onBatch?: (paths: string[]) => void;
  onProgress?: (progress: Progress) => void;
  onError?: (error: Error) => void;
}

export interface FolderWatch {
  /** Resolves when every change seen so far has been processed. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export function watchFolder(index: FolderIndex, options: WatchOptions = {}): FolderWatch {
  const debounceMs = options.debounceMs ?? 300;
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const flush = () => {
    timer = undefined;
    const batch = [...changed].sort();
    changed.clear();
    if (batch.length === 0) return;
    options.onBatch?.(batch);
    running = running
      .then(async () => {
        await index.enqueuePaths(batch);
        await index.drain({ onProgress: options.onProgress });
      })
      .catch((error: Error) => options.onError?.(error));
  };

  // chokidar would take a folder given through a link for a link and not descend it, so it
  // watches the folder's real path; what it reports is mapped back to the folder as given.
  const realFolder = realpathSync(index.folder);
  const inFolder = (reported: string) => path.join(index.folder, path.relative(realFolder, reported));

  const note = (reported: string) => {
    const relative = index.rules.relative(inFolder(reported));
    if (path.posix.basename(relative) === '.gitignore') index.rules.forgetGitignore(path.posix.dirname(relative).replace(/^\.$/, ''));
    changed.add(relative);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };

  const watcher: FSWatcher = chokidar.watch(realFolder, {
    ignoreInitial: true,
    followSymlinks: false,
    awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 },
    ignored: (candidate, stats) => index.rules.isIgnored(inFolder(candidate), stats ? stats.isDirectory() : true),
  });
  for (const event of ['add', 'change', 'unlink', 'unlinkDir'] as const) {
    watcher.on(event, (absolute: string | Error) => {
      if (typeof absolute === 'string') note(absolute);
    });
  }
  watcher.on('error', (error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error))));

  return {
    async settled() {
      while (timer || changed.size > 0) {
        await new Promise((resolve) => setTimeout(resolve, debounceMs));
      }
      await running;
    },
    async close() {
      if (timer) clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
