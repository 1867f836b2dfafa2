// Bundles the `relata` command line (and, as later issues add them, the language server, the
// extension and the webviews). Type-checking is separate: `npm run typecheck` (tsc --noEmit).
// Native and self-locating packages stay external: better-sqlite3, sqlite-vec and
// onnxruntime-node load compiled binaries; pdfjs-dist finds its character maps and fonts, and
// USE-lite's packages their weights and .wasm files, inside their own package folders. Embedder
// worker threads are entries of their own, written beside cli.js where the embedders look.

import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');

const external = [
  'better-sqlite3',
  'sqlite-vec',
  'onnxruntime-node',
  'pdfjs-dist',
  'pdfjs-dist/*',
  '@energetic-ai/*',
];

/** @type {import('esbuild').BuildOptions} */
const cli = {
  entryPoints: {
    cli: 'server/src/cli/main.ts',
    useLiteWorker: 'server/src/embed/useLite/useLiteWorker.ts',
    onnxWorker: 'server/src/embed/onnx/onnxWorker.ts',
  },
  outdir: 'dist',
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

if (watch) {
  const context = await esbuild.context(cli);
  await context.watch();
} else {
  await esbuild.build(cli);
}
