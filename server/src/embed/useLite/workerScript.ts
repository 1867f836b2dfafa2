// How the embedder starts a USE-lite worker thread, in the two ways Relata runs:
//   - bundled (dist/): esbuild builds useLiteWorker.ts into dist/useLiteWorker.js, a sibling of
//     the bundle that contains this code, so it is found at new URL('./useLiteWorker.js',
//     import.meta.url);
//   - from source under tsx (tests, scripts): this file's URL ends in .ts. Node 20 does not apply
//     the parent's `--import tsx` hooks to a worker's entry point (it fails with "Unknown file
//     extension .ts"), so a small bootstrap registers tsx in the worker and then imports the .ts
//     entry.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export const BUNDLED_WORKER_FILE = 'useLiteWorker.js';

export function startUseLiteWorker(options: WorkerOptions = {}): Worker {
  if (import.meta.url.endsWith('.ts')) {
    const entry = new URL('./useLiteWorker.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const bootstrap =
      `import(${JSON.stringify(tsx)})` +
      `.then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
    return new Worker(bootstrap, { ...options, eval: true });
  }
  const bundled = new URL(`./${BUNDLED_WORKER_FILE}`, import.meta.url);
  if (!existsSync(fileURLToPath(bundled))) {
    throw new Error(
      `The USE-lite worker script is missing: expected ${fileURLToPath(bundled)} next to the bundle ` +
        '(built from server/src/embed/useLite/useLiteWorker.ts).',
    );
  }
  return new Worker(bundled, options);
}
