// The formats people keep (HTML, slides, spreadsheets, e-books, OpenDocument) through the whole
// pipeline, in the stage threads: hostile files of these formats fail with their reason, or are
// bounded, while the rest of the folder indexes; and every real file of these formats in
// documents-more ends indexed, or failed or skipped with a reason naming the problem.

import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';
import { EPUB_SKELETON, makeXlsx, zipBomb } from '../support/zipBuilders.ts';
import { DOCUMENTS_MORE_DIR, skipUnless } from '../unit/parse-eval.ts';

/** The documents-more folders of the formats these parsers read. */
const FORMAT_FOLDERS = ['html', 'pptx', 'odp', 'xlsx', 'ods', 'csv', 'epub', 'odt'];

/**
 * Caps on size are under test here, not the time limit (parseIsolation tests that): reading a
 * million-row CSV up to its cap took over the default minute of wall time at load 20 on two cores.
 */
const NO_TIME_LIMIT = { parseTimeoutMs: 30 * 60_000 };

async function openIndex(t: TestContext, folder: string): Promise<FolderIndex> {
  const index = await FolderIndex.open({ folder, dataDir: path.join(path.dirname(folder), 'data'), workspace: 'formats', embedding: { kind: 'none' }, settings: NO_TIME_LIMIT });
  t.after(() => index.close());
  return index;
}

test('zip bombs in Office and EPUB containers fail with their reason and a million-row CSV is bounded, while the rest of the folder indexes', { timeout: 15 * 60_000 }, async (t) => {
  const lines = ['Item,Cost'];
  for (let i = 1; i <= 1_000_000; i++) lines.push(`Item ${i},${i}`);
  const folder = writeFiles(path.join(tempDir(t), 'folder'), {
    'notes.md': '# Notes\n\nThe kestrel survey starts at dawn.\n',
    'costs.xlsx': await makeXlsx([{ name: 'Costs', rows: [['Supplier', 'Cost'], ['Harbourline Engineering Ltd', '42,000 EUR']] }], 'Crane costs'),
    'bomb.xlsx': await zipBomb({ 'xl/workbook.xml': '<workbook/>' }, 'xl/worksheets/sheet1.xml'),
    'bomb.pptx': await zipBomb({ 'ppt/presentation.xml': '<presentation/>' }, 'ppt/slides/slide1.xml'),
    'bomb.epub': await zipBomb(EPUB_SKELETON, 'OEBPS/c1.xhtml'),
    'huge.csv': lines.join('\n'),
  });
  const index = await openIndex(t, folder);
  const report = await index.index();
  const byPath = new Map(report.files.map((file) => [file.path, file]));
  for (const bomb of ['bomb.xlsx', 'bomb.pptx', 'bomb.epub']) {
    assert.equal(byPath.get(bomb)?.status, 'failed', bomb);
    assert.match(byPath.get(bomb)?.reason ?? '', /inflates from [\d,]+ bytes to 64 MB, more than 200 times its size \(zip bomb\?\)/, bomb);
  }
  assert.equal(byPath.get('huge.csv')?.status, 'indexed', byPath.get('huge.csv')?.reason ?? '');
  assert.ok(byPath.get('huge.csv')?.flags.includes('truncated'));
  assert.match(byPath.get('huge.csv')?.reason ?? '', /read up to 200,000 cells/);
  assert.equal(byPath.get('notes.md')?.status, 'indexed');
  assert.equal(byPath.get('costs.xlsx')?.status, 'indexed');
  assert.equal(byPath.get('costs.xlsx')?.parser_version, 'xlsx@2');

  // A spreadsheet's search result opens at its row's passage, which names the column headers.
  const response = await searchWorkspace(index.store, null, 'Harbourline', { limit: 5 });
  const hit = response.results.find((result) => result.path === 'costs.xlsx');
  assert.ok(hit, 'the workbook is found by a word of one of its rows');
  assert.equal(hit.title, 'Crane costs');
  assert.match(JSON.stringify(hit), /Supplier Harbourline Engineering Ltd; Cost 42,000 EUR/);
});

test('every documents-more file of these formats ends indexed, or failed or skipped with a reason naming the problem', { skip: skipUnless(DOCUMENTS_MORE_DIR), timeout: 600_000 }, async (t) => {
  const folder = path.join(tempDir(t), 'folder');
  mkdirSync(folder);
  for (const name of FORMAT_FOLDERS) {
    if (existsSync(path.join(DOCUMENTS_MORE_DIR, name))) cpSync(path.join(DOCUMENTS_MORE_DIR, name), path.join(folder, name), { recursive: true });
  }
  const expected = FORMAT_FOLDERS.flatMap((name) => readdirSync(path.join(folder, name)).map((file) => `${name}/${file}`));
  const index = await openIndex(t, folder);
  const report = await index.index();
  const byPath = new Map(report.files.map((file) => [file.path, file]));
  for (const file of expected) {
    const entry = byPath.get(file);
    assert.ok(entry, `${file} is in the report`);
    t.diagnostic(`${file.padEnd(60)} ${entry.status}${entry.reason ? `: ${entry.reason}` : ''}`);
    assert.ok(entry.status === 'indexed' || entry.status === 'failed' || entry.status === 'skipped' || entry.status === 'duplicate', `${file}: ${entry.status}`);
    if (entry.status === 'failed' || entry.status === 'skipped') {
      assert.ok((entry.reason ?? '').length > 10, `${file} says why: ${entry.reason}`);
      assert.doesNotMatch(entry.reason ?? '', /\n\s+at |undefined|\[object/, `${file}: the reason is words, not a stack`);
    }
  }
  const indexed = expected.filter((file) => byPath.get(file)?.status === 'indexed').length;
  t.diagnostic(`${indexed} of ${expected.length} indexed`);
  assert.ok(indexed >= expected.length - 12, `${indexed} of ${expected.length} indexed`);
});
