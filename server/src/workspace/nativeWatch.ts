// The folder's watch by @parcel/watcher, the watcher VS Code itself uses: one native watch per
// directory, set up and read off the event loop by the module's own threads, so it runs on the
// thread that queues the changes (watch.ts). At 100,000 files in 15,000 folders it settles in about a
// second and holds some 40 MiB, where chokidar (watchThread.ts, now the fallback) held an inotify
// watch and its own state for every file: 116,000 watches, a 465 MiB heap and 9 s of settling
// (docs/PERFORMANCE.md, "A graph of principal components"). A native module registers once per
// process: loaded in a second thread it fails ("did not self-register"), so it lives here, on the
// thread that outlives every watch.

import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { FolderRules } from './folderRules.ts';
import { scanFolder } from './scan.ts';
import { watchErrorReporter } from './watchErrors.ts';

export interface WatchEvents {
  /** Something was added, changed or removed at this real path. */
  change(realPath: string): void;
  error(message: string): void;
}

/**
 * Watches `realFolder`, the real path of the folder `rules` are rooted at (`inFolder` maps a path
 * under it back to the folder as given); resolves once the whole folder is watched, with what stops
 * the watch. Rejects when @parcel/watcher cannot start here.
 */
export async function watchNatively(
  realFolder: string,
  inFolder: (realPath: string) => string,
  rules: FolderRules,
  events: WatchEvents,
): Promise<() => Promise<void>> {
  const parcel = await import('@parcel/watcher');
  const describeError = watchErrorReporter();
  const reportError = (error: unknown) => {
    const message = describeError(error);
    if (message !== null) events.error(message);
  };
  const changed = (reported: string, isDirectory: boolean) => {
    if (!rules.isIgnored(inFolder(reported), isDirectory)) events.change(reported);
  };
  // @parcel/watcher reports a directory that appears, not what it came with (a tree moved into the
  // folder, files written before its watch was added): those are found here.
  const reportContents = async (reported: string) => {
    if (rules.isIgnored(inFolder(reported), true)) return;
    try {
      for (const relative of (await scanFolder(inFolder(reported), rules)).files) changed(path.join(realFolder, relative), false);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') reportError(error);
    }
  };
  const subscription = await parcel.subscribe(
    realFolder,
    (error, found) => {
      if (error) {
        reportError(error);
        return;
      }
      for (const event of found) {
        // A removed path is looked up as a file: the rules that fit only directories leave out
        // nothing the store holds under it, and watch.ts reads what is gone from the store.
        const isDirectory = event.type !== 'delete' && (lstatSync(event.path, { throwIfNoEntry: false })?.isDirectory() ?? false);
        changed(event.path, isDirectory);
        if (isDirectory && event.type === 'create') void reportContents(event.path);
      }
    },
    // Never worth a watch (folderRules.ts DEFAULT_EXCLUDES); other folders the rules leave out are
    // watched, and what they report is dropped.
    { ignore: ['**/.git', '**/node_modules'] },
  );
  return () => subscription.unsubscribe();
}
