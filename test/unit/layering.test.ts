// The engine must run without an editor: only the language-server adapter (server/src/lsp) may
// import vscode-languageserver, and nothing under server/ may import vscode.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/tempFolder.ts';

const SERVER = path.join(REPO_ROOT, 'server', 'src');
const IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g;

function sourceFiles(): string[] {
  return readdirSync(SERVER, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test('the engine imports neither vscode nor vscode-languageserver', () => {
  const files = sourceFiles();
  assert.ok(files.length > 10, 'found the engine sources');
  const offenders: string[] = [];
  for (const file of files) {
    const inAdapter = path.relative(SERVER, file).startsWith(`lsp${path.sep}`);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const editorApi = specifier === 'vscode' || (!inAdapter && specifier!.startsWith('vscode-languageserver'));
      if (editorApi) offenders.push(`${path.relative(REPO_ROOT, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(offenders, []);
});
