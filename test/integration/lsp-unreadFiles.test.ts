// A scanned PDF almost nothing was read from is not counted as indexed: a real language-server
// folder session over a real folder (a scan whose text layer holds only its page numbers, and a
// note), whose status counts the scan apart, as "unread", and the note as indexed. (A scan with no
// text at all fails with its reason, "no text: … a scan?", and is counted as failed.)

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FolderSession, serialQueue } from '../../server/src/lsp/folderSession.ts';
import { DEFAULT_SERVER_SETTINGS } from '../../server/src/lsp/server.ts';
import { isUnread } from '../../shared/unreadFiles.ts';
import { eventually } from '../support/eventually.ts';
import { makePdf, pdfText } from '../support/documentBuilders.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

test('a scan with no text read is counted apart from the indexed files in the folder status', async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), { 'notes.md': '# Notes\n\nThe crane was inspected on Monday.\n' });
  writeFileSync(path.join(folder, 'scan.pdf'), makePdf([pdfText('1', 40), pdfText('2', 40)]));
  const settings = { ...DEFAULT_SERVER_SETTINGS, dataLocation: path.join(root, 'data'), embeddingModel: 'none' };
  const session = new FolderSession('file:///folder', 'folder', folder, settings, {
    onChange: () => undefined,
    onProgress: () => undefined,
    onIndexed: () => undefined,
    log: () => undefined,
  });
  t.after(() => session.close());
  const index = await session.start(serialQueue());
  assert.ok(index, session.reason ?? 'the folder did not open');
  await eventually(async () => session.state === 'watching', 'the first run finishes', 120_000);
  await eventually(async () => (await index.store.getItemByPath('scan.pdf'))?.status !== 'pending', 'the scan is read', 120_000);
  const scan = await index.store.getItemByPath('scan.pdf');
  assert.ok(scan && isUnread(scan), `the scan: ${scan?.status} ${scan?.flags.join(',')}`);
  const { items } = await session.status();
  assert.equal(items.indexed, 1, 'only the note is indexed');
  assert.equal(items.unread, 1, 'the scan is counted apart');
});
