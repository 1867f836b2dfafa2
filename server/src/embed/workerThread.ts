// Starts a worker thread (an embedder's, a parser's) in the two ways Relata runs:
//   - bundled (dist/): esbuild builds each worker entry into its own file beside the bundle, so it
//     is found at new URL('./<name>.js', import.meta.url) of the bundled code;
//   - from source under tsx (tests, scripts): Node 20 does not apply the parent's `--import tsx`
//     hooks to a worker's entry point ("Unknown file extension .ts"), so a small bootstrap
//     registers tsx in the worker and then imports the .ts entry. That costs a thread about 1.4 s
//     of CPU more than its bundle (tsx resolves and loads every module of the thread's graph), so
//     the test runner, which builds dist/ from the same source first, names the bundles' folder in
//     RELATA_WORKER_BUNDLES and source code then starts the bundled entries from there.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export interface WorkerEntry {
  /** The entry's source file, as new URL('./x.ts', import.meta.url) in the module that starts it. */
  source: URL;
  /** The entry's file name in dist/, e.g. 'onnxWorker.js'. */
  bundled: string;
}

export function startWorkerThread(entry: WorkerEntry, options: WorkerOptions = {}): Worker {
  if (import.meta.url.endsWith('.ts')) {
    const bundles = process.env.RELATA_WORKER_BUNDLES;
    if (bundles) return new Worker(path.join(bundles, entry.bundled), options);
    const tsx = import.meta.resolve('tsx/esm/api');
    const bootstrap =
      `import(${JSON.stringify(tsx)})` +
      `.then(({ register }) => { register(); return import(${JSON.stringify(entry.source.href)}); })`;
    return new Worker(bootstrap, { ...options, eval: true });
  }
  const bundled = new URL(`./${entry.bundled}`, import.meta.url);
  if (!existsSync(fileURLToPath(bundled))) {
    throw new Error(
      `A worker script is missing: expected ${fileURLToPath(bundled)} next to the bundle ` +
        `(built from ${fileURLToPath(entry.source).replace(/^.*?(server[\\/]src)/, '$1')}).`,
    );
  }
  return new Worker(bundled, options);
}
