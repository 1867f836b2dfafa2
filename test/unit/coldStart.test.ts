// compromise unpacks its word list when it is evaluated (~0.2 s), and a `relata search` that
// paid for it started 0.2 s later for nothing: only the extractors read it, and they load it on
// first use (extract/words.ts). These tests keep it that way: nothing the command line imports
// may import compromise, and a search that reads no word's class never loads it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as esbuild from 'esbuild';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

/** The `relata` executable (dist/cli.js) and the command line it loads (dist/relata.js). */
const ENTRIES = ['server/src/cli/launch.ts', 'server/src/cli/main.ts'];
const isCompromise = (specifier: string) => specifier === 'compromise' || specifier.startsWith('compromise/');

test('the command line bundle reaches compromise only through a call, never through an import', async () => {
  // Packages stay external, so the graph is Relata's own modules and what each asks for, and how.
  const { metafile } = await esbuild.build({
    entryPoints: ENTRIES.map((entry) => path.join(REPO_ROOT, entry)),
    outdir: 'out',
    absWorkingDir: REPO_ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  // A command is imported when it runs (cli/main.ts): what it imports is evaluated then, before
  // its first line, so a command's dynamic import counts here as a static one.
  const evaluatedAtStart = new Set(ENTRIES);
  const queue = [...ENTRIES];
  const importers: string[] = [];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const edge of metafile.inputs[file]?.imports ?? []) {
      if (edge.kind !== 'import-statement' && !(edge.kind === 'dynamic-import' && file === 'server/src/cli/main.ts')) continue;
      if (isCompromise(edge.path)) importers.push(file);
      else if (!edge.external && !evaluatedAtStart.has(edge.path)) {
        evaluatedAtStart.add(edge.path);
        queue.push(edge.path);
      }
    }
  }
  assert.ok(evaluatedAtStart.has('server/src/extract/words.ts'), 'the extractors are in the command line graph (else this test proves nothing)');
  assert.deepEqual(importers, [], 'modules that import compromise when the command line starts');
  const loaders = Object.entries(metafile.inputs)
    .filter(([, input]) => input.imports.some((edge) => isCompromise(edge.path) && edge.kind === 'require-call'))
    .map(([file]) => file);
  assert.deepEqual(loaders, ['server/src/extract/words.ts'], 'compromise is loaded by one call, in extract/words.ts');
});

/** Runs the command line from source, and reports whether compromise was loaded by the time it exited. */
function relataFromSource(args: string[], report: string): { code: number | null; stderr: string; compromiseLoaded: boolean } {
  const hook =
    "import { createRequire } from 'node:module'; import { writeFileSync } from 'node:fs';" +
    "process.on('exit', () => writeFileSync(process.env.RELATA_TEST_REPORT, String(Object.keys(createRequire(process.argv[1]).cache).some((file) => /[\\\\/]node_modules[\\\\/]compromise[\\\\/]/.test(file)))));";
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', `data:text/javascript,${encodeURIComponent(hook)}`, 'server/src/cli/main.ts', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, RELATA_WORKSPACE: 'cold-start-test', RELATA_TEST_REPORT: report },
  });
  return { code: run.status, stderr: run.stderr, compromiseLoaded: readFileSync(report, 'utf8') === 'true' };
}

test('a search that reads no word class never loads compromise; one whose query needs it does', { timeout: 120_000 }, (t) => {
  const folder = writeFiles(tempDir(t), { 'crane.md': '# GC-2\n\nThe GC-2 refurbishment cost EUR 42,000, quoted by Example Ltd.\n' });
  const data = tempDir(t);
  const report = path.join(tempDir(t), 'report');
  const indexed = relataFromSource(['index', folder, '--data', data, '--embedding-model', 'none'], report);
  assert.equal(indexed.code, 0, indexed.stderr);

  const plain = relataFromSource(['search', 'GC-2 refurbishment cost', '--data', data, '--embedding-model', 'none'], report);
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.compromiseLoaded, false, 'compromise was loaded by a search that reads no word class');

  // The entity path reads the query as the extractor reads a passage: whether "Later" opens the
  // sentence or the name is for compromise's word list to say, so it is loaded then, and the
  // query's keys are what they always were.
  const named = relataFromSource(['search', 'Later Example Ltd', '--data', data, '--embedding-model', 'none'], report);
  assert.equal(named.code, 0, named.stderr);
  assert.equal(named.compromiseLoaded, true, 'the check above would notice compromise being loaded');
});
