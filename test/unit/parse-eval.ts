// Where the shared evaluation documents live, for parser tests that need real files. The folder
// sits next to the repository and is never copied into it; tests skip when it is absent.

import fs from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export const EVAL_DIR = path.resolve(repoRoot, '../shared/eval');
export const DOCUMENTS_DIR = path.join(EVAL_DIR, 'documents');
export const KNOWLEDGE_BASES_DIR = path.join(EVAL_DIR, 'knowledge-bases');

/** `false` when the folder exists, else a reason for node:test's `skip`. */
export function skipUnless(dir: string): false | string {
  return fs.existsSync(dir) ? false : `evaluation data not found at ${dir}`;
}

export function readDocument(relative: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(DOCUMENTS_DIR, relative)));
}
