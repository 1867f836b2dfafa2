// Bundles the `relata` command line (which is also the language server: `relata serve --stdio`),
// the VS Code extension (CommonJS, `vscode` external, dist/extension.cjs) and the webviews (one
// browser script each, plus their stylesheet, in dist/webview/). Type-checking is separate:
// `npm run typecheck` (tsc --noEmit, once for Node code and once for the webviews' DOM code).
// Native and self-locating packages stay external: better-sqlite3, sqlite-vec, hnswlib-node and
// onnxruntime-node load compiled binaries; pdfjs-dist finds its character maps and fonts, and
// USE-lite's packages their weights and .wasm files, inside their own package folders. Embedder
// and stage worker threads are entries of their own, written beside cli.js where their starters look.
// dist/cli.js, the executable, is a small launcher (server/src/cli/launch.ts) that first offers a
// search to a language server with the same store open, else starts the search's query model
// before it loads the command line itself, dist/relata.js. The command line and the threads are
// split: each command is imported when it runs (cli/main.ts), and code shared by several entries
// or commands is written once in a chunk (dist/chunk-*.js), so a process compiles only what it runs.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');

const external = [
  'better-sqlite3',
  'sqlite-vec',
  'onnxruntime-node',
  'pdfjs-dist',
  'pdfjs-dist/*',
  // Tesseract starts its own worker thread from its package folder and reads the English model from
  // its data package; pdf.js draws scanned pages for OCR on @napi-rs/canvas, a compiled binary.
  'tesseract.js',
  '@tesseract.js-data/*',
  '@napi-rs/canvas',
  '@energetic-ai/*',
  'node-llama-cpp',
  'hnswlib-node',
  // The folder watcher's native binary comes in a package of its platform's (@parcel/watcher-linux-x64-glibc, …).
  '@parcel/watcher',
  // The MongoDB + Qdrant backend's clients are loaded only when that backend is chosen, so the
  // default (SQLite) start-up never pays for them.
  'mongodb',
  '@qdrant/js-client-rest',
];

/** @type {import('esbuild').BuildOptions} */
const cli = {
  entryPoints: {
    cli: 'server/src/cli/launch.ts',
    relata: 'server/src/cli/main.ts',
    useLiteWorker: 'server/src/embed/useLite/useLiteWorker.ts',
    onnxWorker: 'server/src/embed/onnx/onnxWorker.ts',
    stageThread: 'server/src/pipeline/threads/stageThread.ts',
    storeCheckThread: 'server/src/store/sqlite/storeCheckThread.ts',
    walCheckpointThread: 'server/src/store/sqlite/walCheckpointThread.ts',
    searchThread: 'server/src/ranking/searchThread.ts',
    discoveryThread: 'server/src/pipeline/threads/discoveryThread.ts',
    watchThread: 'server/src/workspace/watchThread.ts',
    sharedGraphThread: 'server/src/store/sqlite/sharedGraphThread.ts',
  },
  outdir: 'dist',
  splitting: true,
  // Chunks sit beside the entries: worker threads are started from whichever chunk holds their
  // starter, by new URL('./<entry>.js', import.meta.url) (embed/workerThread.ts).
  chunkNames: 'chunk-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  // Prefer ES module builds: some packages' UMD "main" (jsonc-parser) hides requires from the bundler.
  mainFields: ['module', 'main'],
  external,
  banner: {
    // Bundled CommonJS dependencies call require(); give them one in the ESM output.
    js: "#!/usr/bin/env node\nimport { createRequire as __relataCreateRequire } from 'node:module';\nconst require = __relataCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

/** @type {import('esbuild').BuildOptions} */
const extension = {
  entryPoints: { extension: 'client/src/extension.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external: ['vscode'],
  logLevel: 'warning',
};

/** @type {import('esbuild').BuildOptions} */
const webviews = {
  entryPoints: {
    relationship: 'webview-ui/src/relationship.ts',
    ask: 'webview-ui/src/ask.ts',
    scoring: 'webview-ui/src/scoring.ts',
    graph: 'webview-ui/src/graph.ts',
    webview: 'webview-ui/src/webview.css',
  },
  outdir: 'dist/webview',
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  format: 'iife',
  sourcemap: false,
  logLevel: 'warning',
};

const bundles = [cli, extension, webviews];
// Chunk names carry a hash of their content: without this, every build would leave the last
// build's chunks behind (and the extension package would carry them).
const staleChunks = existsSync('dist') ? readdirSync('dist').filter((name) => /^chunk-\w+\.js(\.map)?$/.test(name)) : [];
for (const name of staleChunks) rmSync(`dist/${name}`);
if (watch) {
  for (const options of bundles) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(bundles.map((options) => esbuild.build(options)));
}
