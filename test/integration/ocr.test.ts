// Scans and images in a real folder: their words are found by search, their passages say they were
// read by OCR, and the hostile ones (a 100-megapixel image, a 10,000-page image-only PDF) fail with
// their reason while the rest of the folder, e-mail and RTF included, is indexed. Real files from
// the evaluation set, real stage threads, real Tesseract, real SQLite.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { defaultPipelineSettings } from '../../server/src/pipeline/settings.ts';
import { blankPng, imageOnlyPdf } from '../support/imageInputs.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';
import { DOCUMENTS_MORE_DIR, skipUnless } from '../unit/parse-eval.ts';

const skip = skipUnless(DOCUMENTS_MORE_DIR);
const real = (relative: string) => new Uint8Array(fs.readFileSync(path.join(DOCUMENTS_MORE_DIR, relative)));

test('scanned words are found by search and labelled read by OCR; hostile images fail with their reason; the rest of the folder indexes', { skip, timeout: 10 * 60_000 }, async (t) => {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), {
    'scans/testOCR.png': real('png/testOCR.png'),
    'scans/testOCR.pdf': real('pdf/testOCR.pdf'),
    'scans/poster.png': blankPng(10_000, 10_000),
    'scans/archive.pdf': imageOnlyPdf(10_000),
    'mail/dinner.eml': real('eml/testRFC822_dkim.eml'),
    'notes/various.rtf': real('rtf/testRTFVarious.rtf'),
  });
  // The page cap is lowered so the 10,000-page scan meets it in seconds; the default is 50. What is
  // tested is the cap, not the time limit, which three pages of OCR exceeded at load 30: no limit.
  const settings = { parseTimeoutMs: 30 * 60_000, parserLimits: { ...defaultPipelineSettings().parserLimits, maxOcrPages: 3 } };
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'ocr', embedding: { kind: 'none' }, settings });
  t.after(() => index.close());
  const report = await index.index();
  const byPath = new Map(report.files.map((file) => [file.path, file]));

  for (const [file, word] of [['scans/testOCR.png', 'contains'], ['scans/testOCR.pdf', 'Happy']] as const) {
    assert.equal(byPath.get(file)?.status, 'indexed', file);
    assert.ok(byPath.get(file)?.flags.includes('read_by_ocr'), file);
    const item = await index.store.getItemByPath(file);
    const hits = await index.store.searchChunksLexical(word, 5);
    assert.ok(hits.some((hit) => hit.itemId === item?.id), `"${word}" finds ${file}`);
    const chunks = await index.store.listChunks(item!.id);
    assert.match(chunks[0]!.headingPath.join(' > '), /read by OCR \(\d+% confidence\)/i);
  }
  assert.equal(byPath.get('scans/poster.png')?.status, 'failed');
  assert.match(byPath.get('scans/poster.png')?.reason ?? '', /100 megapixels\) is over the 40-megapixel limit for OCR/);
  assert.equal(byPath.get('scans/archive.pdf')?.status, 'failed');
  assert.match(byPath.get('scans/archive.pdf')?.reason ?? '', /^no text: .*stopped at the cap of 3 pages read by OCR per file/);
  assert.equal(byPath.get('mail/dinner.eml')?.status, 'indexed');
  assert.equal(byPath.get('notes/various.rtf')?.status, 'indexed');
  assert.ok((await index.store.searchChunksLexical('hungry', 5)).length > 0, 'the e-mail body is searchable');
});
