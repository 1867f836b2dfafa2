// Where the shared evaluation documents live, for parser tests that need real files. The folder
// sits next to the repository and is never copied into it; tests skip when it is absent.

import fs from 'node:fs';
import path from 'node:path';
import { EVAL_ROOT } from '../support/tempFolder.ts';

export const DOCUMENTS_DIR = path.join(EVAL_ROOT, 'documents');
/** Apache Tika's test documents (HTML, Office, e-mail, RTF, OCR images): the formats of issue 30. */
export const DOCUMENTS_MORE_DIR = path.join(EVAL_ROOT, 'documents-more');
export const KNOWLEDGE_BASES_DIR = path.join(EVAL_ROOT, 'knowledge-bases');

/** `false` when the folder exists, else a reason for node:test's `skip`. */
export function skipUnless(dir: string): false | string {
  return fs.existsSync(dir) ? false : `evaluation data not found at ${dir}`;
}

export function readDocument(relative: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(DOCUMENTS_DIR, relative)));
}

export function readMoreDocument(relative: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(DOCUMENTS_MORE_DIR, relative)));
}
