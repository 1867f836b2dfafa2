// The watch of a folder, in a thread of its own, at the pipeline's lower priority; what it sees
// (the real paths that changed, when it is ready, its errors) goes to watch.ts, which queues it.
//
// @parcel/watcher (the watcher VS Code itself uses) watches each directory once, natively: at
// 100,000 files in 15,000 folders it settles in about a second and holds some 40 MiB. chokidar,
// which watched the folder until issue 32, holds an inotify watch and its own state for every file:
// 116,000 watches and a 465 MiB heap in this thread at 100,000 notes, 9 s to settle, and on a system
// whose limit on watches is lower than the folder's files, the files past it unwatched
// (docs/PERFORMANCE.md, "A graph of principal components"). chokidar stays the fallback where
// @parcel/watcher has no binary for the platform or cannot start.

import chokidar from 'chokidar';
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadsPriority } from '../pipeline/threads/backgroundPriority.ts';
import { FolderRules } from './folderRules.ts';
import { scanFolder } from './scan.ts';
import { watchErrorReporter } from './watchErrors.ts';
import type { FromWatchThread, ToWatchThread, WatchThreadData } from './watchThreadProtocol.ts';

if (parentPort === null) throw new Error('watchThread must run in a worker thread');
const port = parentPort;
const send = (message: FromWatchThread) => port.postMessage(message);

lowerThisThreadsPriority();
const { folder, realFolder, exclude, watcher: wanted } = workerData as WatchThreadData;
// The same rules as the index's (built from the same folder and patterns), kept here so that
// what the folder's rules leave out is never reported.
const rules = new FolderRules(folder, exclude);
const inFolder = (reported: string) => path.join(folder, path.relative(realFolder, reported));
const describeError = watchErrorReporter();
const reportError = (error: unknown) => {
  const message = describeError(error);
  if (message !== null) send({ type: 'error', message });
};

/** A path the watcher saw change: reported unless the rules leave it out. */
function changed(reported: string, isDirectory: boolean): void {
  if (rules.isIgnored(inFolder(reported), isDirectory)) return;
  // A changed .gitignore changes what this thread ignores too (watch.ts forgets the index's copy).
  const relative = rules.relative(inFolder(reported));
  if (path.posix.basename(relative) === '.gitignore') rules.forgetGitignore(path.posix.dirname(relative).replace(/^\.$/, ''));
  send({ type: 'change', path: reported });
}

/** Stops the watch. */
type Close = () => Promise<void>;

async function watchNatively(): Promise<Close> {
  const parcel = await import('@parcel/watcher');
  const subscription = await parcel.subscribe(
    realFolder,
    (error, events) => {
      if (error) {
        reportError(error);
        return;
      }
      for (const event of events) {
        // A removed path is looked up as a file: the rules that only fit directories leave out
        // nothing the store holds under it, and watch.ts reads what is gone from the store.
        const isDirectory = event.type !== 'delete' && (lstatSync(event.path, { throwIfNoEntry: false })?.isDirectory() ?? false);
        changed(event.path, isDirectory);
        if (isDirectory && event.type === 'create') void reportContents(event.path);
      }
    },
    // Never worth a watch (folderRules.ts DEFAULT_EXCLUDES); other folders the rules leave out are
    // watched, and what they report is dropped above.
    { ignore: ['**/.git', '**/node_modules'] },
  );
  return () => subscription.unsubscribe();
}

/**
 * The files of a directory that appeared: @parcel/watcher reports the directory alone, not what was
 * in it when it came (a tree moved into the folder, or files written before its watch was added).
 */
async function reportContents(reported: string): Promise<void> {
  const inside = inFolder(reported);
  if (rules.isIgnored(inside, true)) return;
  try {
    for (const relative of (await scanFolder(inside, rules)).files) changed(path.join(realFolder, relative), false);
  } catch (error) {
    // Gone again, or unreadable: what it held is read from the store's side (watch.ts).
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') reportError(error);
  }
}

async function watchWithChokidar(): Promise<Close> {
  const watcher = chokidar.watch(realFolder, {
    ignoreInitial: true,
    followSymlinks: false,
    awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 },
    ignored: (candidate, stats) => rules.isIgnored(inFolder(candidate), stats ? stats.isDirectory() : true),
  });
  for (const event of ['add', 'change', 'unlink'] as const) {
    watcher.on(event, (reported: string | Error) => typeof reported === 'string' && changed(reported, false));
  }
  watcher.on('unlinkDir', (reported: string | Error) => typeof reported === 'string' && changed(reported, true));
  watcher.on('error', reportError);
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return () => watcher.close();
}

async function start(): Promise<Close> {
  if (wanted === 'chokidar') return watchWithChokidar();
  try {
    return await watchNatively();
  } catch (error) {
    send({ type: 'error', message: `the native folder watcher could not start (${error instanceof Error ? error.message : String(error)}); watching with chokidar instead` });
    return watchWithChokidar();
  }
}

const started = start();
started.then(
  () => send({ type: 'ready' }),
  (error: unknown) => {
    reportError(error);
    send({ type: 'ready' });
  },
);

port.on('message', (message: ToWatchThread) => {
  if (message.type !== 'close') return;
  started
    .then((close) => close())
    .catch(() => undefined)
    .finally(() => send({ type: 'closed' }));
});
