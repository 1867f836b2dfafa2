// Runs several test files in one process, for scripts/run-tests.mjs: each file is imported in
// turn, and node:test runs the tests that every imported file registers, in order. Only files that
// touch no process-wide state are batched (the runner decides), so what one file sets up never
// reaches another's tests. A file that fails to load is reported as a failed test naming it, and
// the files after it still run.
//
//   node --import tsx --test-reporter=tap scripts/test-batch.mjs <file> …
import { test } from 'node:test';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) {
  try {
    await import(pathToFileURL(path.resolve(file)).href);
  } catch (error) {
    test(`${file} loads`, () => {
      throw error;
    });
  }
}
