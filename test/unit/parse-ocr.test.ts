import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createImageParser, imageParser } from '../../server/src/parse/image.ts';
import { closeOcr } from '../../server/src/parse/ocr.ts';
import { createPdfParser } from '../../server/src/parse/pdf.ts';
import { parserFor } from '../../server/src/parse/registry.ts';
import { blankPng, imageOnlyPdf } from '../support/imageInputs.ts';
import { DOCUMENTS_MORE_DIR, readMoreDocument, skipUnless } from './parse-eval.ts';

const skip = skipUnless(DOCUMENTS_MORE_DIR);
after(closeOcr); // Tesseract's worker thread would keep the test process alive.

test('.png, .jpg and .tif files are read by OCR', () => {
  for (const name of ['scan.PNG', 'photo.jpg', 'photo.jpeg', 'fax.tif', 'fax.tiff']) assert.equal(parserFor(name), imageParser, name);
});

test('an image is read by OCR: its words, labelled read by OCR with their confidence, the item flagged read_by_ocr', { skip }, async () => {
  const doc = await imageParser.parse(readMoreDocument('png/testOCR.png'), 'testOCR.png');
  assert.equal(doc.text, 'This file contains some words.');
  assert.deepEqual(doc.flags, ['read_by_ocr']);
  assert.match(doc.blocks[0]!.headingPath[0]!, /^Read by OCR \(\d+% confidence\)$/);
  assert.match(doc.metadata?.entries.find((entry) => entry.label === 'OCR confidence')?.text ?? '', /^\d+%$/);
  const jpeg = await imageParser.parse(readMoreDocument('jpg/testOCR.jpg'), 'testOCR.jpg');
  assert.equal(jpeg.text, 'Apache Tika\nOCR Testing');
});

test('an image with no words fails saying so, never counts as indexed', { skip }, async () => {
  await assert.rejects(imageParser.parse(readMoreDocument('png/testPNG.png'), 'testPNG.png'), { name: 'ParseError', message: /^no text: OCR found no words in the image/ });
});

test('a 100-megapixel image fails at its header, naming its size and the cap, before any pixel is decoded', async () => {
  const huge = blankPng(10_000, 10_000);
  await assert.rejects(imageParser.parse(huge, 'poster.png'), {
    name: 'ParseError',
    message: 'image of 10,000 × 10,000 pixels (100 megapixels) is over the 40-megapixel limit for OCR; not read',
  });
});

test('a damaged image, or bytes that are no image, fail with the reason', { skip }, async () => {
  await assert.rejects(imageParser.parse(new TextEncoder().encode('not an image'), 'x.png'), { name: 'ParseError', message: /^not a readable image/ });
  await assert.rejects(imageParser.parse(readMoreDocument('jpg/testOCR_encode.jpg'), 'y.jpg'), { name: 'ParseError' });
});

test('with OCR off, an image fails saying that OCR is off and how to turn it on', { skip }, async () => {
  await assert.rejects(createImageParser({ ocr: false }).parse(readMoreDocument('png/testOCR.png'), 'testOCR.png'), {
    name: 'ParseError',
    message: /OCR is turned off \(relata index --no-ocr, or the relata\.index\.ocr setting\)/,
  });
});

test('a scanned PDF page is read by OCR: words found, page located, labelled with its confidence', { skip }, async () => {
  const doc = await createPdfParser().parse(readMoreDocument('pdf/testOCR.pdf'), 'testOCR.pdf');
  assert.match(doc.text, /Happy New Year 2003!/);
  assert.ok(doc.flags.includes('read_by_ocr'));
  assert.deepEqual(doc.blocks[0]!.location, { kind: 'pages', start: 1, end: 1 });
  assert.match(doc.blocks[0]!.headingPath[0]!, /^Page 1, read by OCR \(\d+% confidence\)$/);
});

test('a scanned PDF with OCR off fails saying its pages are images and OCR is off: never a plain success', { skip }, async () => {
  await assert.rejects(createPdfParser({ ocr: false }).parse(readMoreDocument('pdf/testOCR.pdf'), 'testOCR.pdf'), {
    name: 'ParseError',
    message: /^no text: the PDF's pages are images \(a scan\?\) and OCR is turned off/,
  });
});

test('a 10,000-page image-only PDF: OCR stops at the page cap and the file fails with the reason', async () => {
  const doc = imageOnlyPdf(10_000);
  await assert.rejects(createPdfParser({ maxOcrPages: 3 }).parse(new Uint8Array(doc), 'scan.pdf'), {
    name: 'ParseError',
    message: /^no text: the PDF's pages are images \(a scan\?\) and OCR found no words on the 3 pages it read; 1,997 of 2,000 pages without a text layer not read by OCR: stopped at the cap of 3 pages read by OCR per file/,
  });
});

test('the OCR label the parsers write is the one search results show beside the passage', async () => {
  const { ocrLabel, ocrLabelOf } = await import('../../shared/ocrLabel.ts');
  assert.equal(ocrLabelOf([ocrLabel(91, 3)]), 'read by OCR (91% confidence)');
  assert.equal(ocrLabelOf(['Introduction', ocrLabel(74)]), 'read by OCR (74% confidence)');
  assert.equal(ocrLabelOf(['Read by OCR (a chapter about scanners)']), null, 'a heading that merely mentions OCR is no label');
});
