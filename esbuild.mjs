// Bundles the `relata` command line (and, as later issues add them, the language server, the
// extension and the webviews). Type-checking is separate: `npm run typecheck` (tsc --noEmit).
// Native and self-locating packages stay external: better-sqlite3 loads a compiled addon, and
// pdfjs-dist finds its character maps and standard fonts inside its own package folder.

import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');

const external = ['better-sqlite3', 'pdfjs-dist', 'pdfjs-dist/*'];

/** @type {import('esbuild').BuildOptions} */
const cli = {
  entryPoints: { cli: 'server/src/cli/main.ts' },
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
