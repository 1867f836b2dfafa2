// Temporary folders for tests, removed when the test ends.

import { copyFileSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';

export function tempDir(t: TestContext, prefix = 'relata-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes files given as { 'relative/path': contents } and returns the folder. */
export function writeFiles(folder: string, files: Record<string, string | Uint8Array>): string {
  for (const [relative, contents] of Object.entries(files)) {
    const target = path.join(folder, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, contents);
  }
  return folder;
}

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Copies these files of the demo folder (docs/demo), at the same relative paths, into `folder`, and returns it. */
export function copyDemoFiles(folder: string, relatives: readonly string[]): string {
  for (const relative of relatives) {
    mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, 'docs', 'demo', relative), path.join(folder, relative));
  }
  return folder;
}
export const EVAL_ROOT = path.resolve(REPO_ROOT, '..', 'shared', 'eval');
