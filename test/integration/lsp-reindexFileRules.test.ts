// Every way into the index obeys the folder's rules: the editor's "Re-index this file"
// (`relata/reindexFile`) refuses a file that .gitignore, an exclude pattern or the built-in list
// leaves out, naming the rule, and nothing of it becomes searchable; a file that is still
// indexed is re-indexed as before. Run against `relata serve --stdio`.

import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ReindexFileRequest, SearchRequest } from '../../shared/protocol.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

test('relata/reindexFile refuses files the folder excludes, naming the rule, and none of them becomes searchable', { skip: needsBuild, timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    '.gitignore': 'private.md\n',
    'kept.md': '# Kept\n\nThe heron nests by the weir.\n',
    'private.md': '# Private\n\nThe heron password is osprey-gitignored.\n',
    'node_modules/pkg/readme.md': '# Package\n\nThe heron package osprey-builtin.\n',
    'drafts/plan.md': '# Draft\n\nThe heron draft osprey-excluded.\n',
  });
  const server = await startServer(t, {
    folder,
    workspace: 'rules',
    settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none', exclude: ['drafts/'] },
  });
  await server.watching();
  const reindex = async (relative: string) =>
    (await server.connection.sendRequest(ReindexFileRequest.type, { uri: pathToFileURL(path.join(folder, relative)).href })).outcome;

  assert.equal(await reindex('private.md'), 'not indexed: excluded by .gitignore ("private.md")');
  assert.equal(await reindex('node_modules/pkg/readme.md'), 'not indexed: excluded by Relata\'s built-in list ("node_modules/")');
  assert.equal(await reindex('drafts/plan.md'), 'not indexed: excluded by the exclude pattern "drafts/"');
  assert.match(await reindex('kept.md'), /^re-indexed/);

  const { folders } = await server.connection.sendRequest(SearchRequest.type, { query: 'heron osprey', limit: 10 });
  assert.deepEqual(folders[0]?.response?.results.map((result) => result.path), ['kept.md'], folders[0]?.error);
  assert.equal(await server.shutdown(), 0);
});
