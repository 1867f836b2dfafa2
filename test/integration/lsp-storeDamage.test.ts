// The language server checks the store when it opens a folder, after answering initialize, and
// reports damage in `relata/status` (which the status bar renders): a store whose page of one
// table was overwritten still opens and indexes, and its status names the store and the remedy.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { dataDirFor } from '../../server/src/lsp/folderSession.ts';
import { CLI, needsBuild, startServer } from '../support/languageServer.ts';
import { damageMiddlePage } from '../support/storeDamage.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

test('relata serve reports a damaged store in its status, found by the quick check at open', { skip: needsBuild, timeout: 180_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    'crane.md': '# Gantry crane GC-2\n\nExample Ltd refurbished the crane in May 2025 for EUR 42,000.\n',
    'notes/call.txt': 'Call with Example Ltd about the invoice.\n',
  });
  const settings = { dataLocation: path.join(root, 'data'), embeddingModel: 'none' };
  const dataDir = dataDirFor(folder, { dataLocation: settings.dataLocation } as Parameters<typeof dataDirFor>[1]);
  const indexed = spawnSync(process.execPath, [CLI, 'index', folder, '--data', dataDir, '--embedding-model', 'none'], {
    encoding: 'utf8',
    env: { ...process.env, RELATA_WORKSPACE: 'lsp-damage' },
  });
  assert.equal(indexed.status, 0, indexed.stderr);
  // A table that indexing without vectors never reads: only the check can find this damage.
  const damaged = damageMiddlePage(path.join(dataDir, 'relata.sqlite'), 'vector_removals');

  const server = await startServer(t, { folder, workspace: 'lsp-damage', settings });
  await server.watching();
  const deadline = Date.now() + 30_000;
  while (!server.statuses.some((report) => report.folders[0]?.damage) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const damage = server.statuses.map((report) => report.folders[0]?.damage).find(Boolean);
  assert.ok(damage, `a status reports the damage:\n${server.stderr()}`);
  assert.ok(damage.startsWith(`${path.join(dataDir, 'relata.sqlite')}: the store is damaged (`), damage);
  assert.ok(damage.includes(damaged.owner), `names ${damaged.owner}: ${damage}`);
  assert.match(damage, /Run `relata check` to see what, or rebuild it from the folder with `relata index --rebuild`/);
  assert.equal(await server.shutdown(), 0);
});
