import * as esbuild from 'esbuild';
await esbuild.build({
  entryPoints: { main: '.scratch-uselite/bundleMain.ts', useLiteWorker: 'server/src/embed/useLite/useLiteWorker.ts' },
  outdir: '.scratch-uselite/dist', bundle: true, platform: 'node', target: 'node20', format: 'esm', sourcemap: true,
  mainFields: ['module', 'main'], external: ['better-sqlite3', 'pdfjs-dist', 'pdfjs-dist/*', 'onnxruntime-node'],
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __relataCreateRequire } from 'node:module';\nconst require = __relataCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
