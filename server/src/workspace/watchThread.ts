// chokidar's watch of a folder, in a thread of its own: the fallback where @parcel/watcher cannot
// start (nativeWatch.ts), or when asked for (WatchOptions.watcher). Settling into a folder means reading every
// directory, lstat-ing every file, matching each against the folder's rules and opening a watch on
// it: at 100,000 files some 9 s of a thread's time when the language server starts, which on its
// main thread kept the editor's first search waiting as long (docs/PERFORMANCE.md, "A restart on
// 100,000 files"). Here it holds only this thread, at the pipeline's lower priority; what it sees
// (the real paths that changed, when it is ready, its errors) goes to watch.ts, which queues it.

import chokidar from 'chokidar';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadsPriority } from '../pipeline/threads/backgroundPriority.ts';
import { FolderRules } from './folderRules.ts';
import { watchErrorReporter } from './watchErrors.ts';
import type { FromWatchThread, ToWatchThread, WatchThreadData } from './watchThreadProtocol.ts';

if (parentPort === null) throw new Error('watchThread must run in a worker thread');
const port = parentPort;
const send = (message: FromWatchThread) => port.postMessage(message);

lowerThisThreadsPriority();
const { folder, realFolder, exclude } = workerData as WatchThreadData;
// The same rules as the index's (built from the same folder and patterns), kept here so that
// chokidar never asks across threads whether to descend a directory.
const rules = new FolderRules(folder, exclude);
const inFolder = (reported: string) => path.join(folder, path.relative(realFolder, reported));

const watcher = chokidar.watch(realFolder, {
  ignoreInitial: true,
  followSymlinks: false,
  awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 },
  ignored: (candidate, stats) => rules.isIgnored(inFolder(candidate), stats ? stats.isDirectory() : true),
});
for (const event of ['add', 'change', 'unlink', 'unlinkDir'] as const) {
  watcher.on(event, (reported: string | Error) => {
    if (typeof reported !== 'string') return;
    // A changed .gitignore changes what this thread ignores too (watch.ts forgets the index's copy).
    const relative = rules.relative(inFolder(reported));
    if (path.posix.basename(relative) === '.gitignore') rules.forgetGitignore(path.posix.dirname(relative).replace(/^\.$/, ''));
    send({ type: 'change', path: reported });
  });
}
watcher.once('ready', () => send({ type: 'ready' }));
const describeError = watchErrorReporter();
watcher.on('error', (error: unknown) => {
  const message = describeError(error);
  if (message !== null) send({ type: 'error', message });
});

port.on('message', (message: ToWatchThread) => {
  if (message.type !== 'close') return;
  watcher.close().then(
    () => send({ type: 'closed' }),
    () => send({ type: 'closed' }),
  );
});
