// The house's shape, checked on every run: no import circle anywhere in the sources, and the store
// below the stages and front ends (scripts/import-circles.mjs, `npm run check:imports`). The check
// itself is proved on a small tree that breaks each rule, so a check that found nothing because it
// read nothing would fail here.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, tempDir, writeFiles } from '../support/tempFolder.ts';

const SCRIPT = path.join(REPO_ROOT, 'scripts', 'import-circles.mjs');

interface Findings {
  circles: { files: string[]; arrows: string[] }[];
  forbidden: string[];
}

function check(...args: string[]): { status: number | null; findings: Findings } {
  const run = spawnSync(process.execPath, [SCRIPT, '--json', ...args], { encoding: 'utf8' });
  assert.equal(run.stderr, '', 'the check writes no errors');
  return { status: run.status, findings: JSON.parse(run.stdout) as Findings };
}

test('the sources have no import circle and no import the layering forbids', () => {
  const { status, findings } = check();
  assert.deepEqual(findings, { circles: [], forbidden: [] });
  assert.equal(status, 0);
});

test('the check finds a circle, type-only and late imports included, and a store that imports a parser', (t) => {
  const root = tempDir(t);
  writeFiles(root, {
    'server/src/cli/command.ts': "import type { Flags } from './flags.ts';\nexport const a = 1;\n",
    'server/src/cli/flags.ts': "export type Flags = 1;\nexport const load = () => import('./command.ts');\n",
    'server/src/store/contract.ts': "import type { ParsedDocument } from '../parse/types.ts';\n",
    'server/src/parse/types.ts': 'export interface ParsedDocument { text: string }\n',
    'server/src/lsp/server.ts': "import { relataMcpServer } from '../mcp/mcpServer.ts';\n",
    'server/src/mcp/mcpServer.ts': 'export const relataMcpServer = 1;\n',
  });
  const { status, findings } = check('--root', root);
  assert.deepEqual(findings.circles, [
    {
      files: ['server/src/cli/command.ts', 'server/src/cli/flags.ts'],
      arrows: ['server/src/cli/command.ts -> server/src/cli/flags.ts', 'server/src/cli/flags.ts -> server/src/cli/command.ts'],
    },
  ]);
  assert.deepEqual(findings.forbidden, [
    'server/src/lsp/server.ts -> server/src/mcp/mcpServer.ts (server/src/lsp/ never imports server/src/mcp/)',
    'server/src/store/contract.ts -> server/src/parse/types.ts (server/src/store/ never imports server/src/parse/)',
  ]);
  assert.equal(status, 1);
});
