// Temporary folders for tests, removed when the test ends.

import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
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
export const EVAL_ROOT = path.resolve(REPO_ROOT, '..', 'shared', 'eval');
