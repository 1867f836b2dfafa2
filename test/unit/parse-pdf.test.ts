import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { closeOcr } from '../../server/src/parse/ocr.ts';
import { createPdfParser, pdfParser } from '../../server/src/parse/pdf.ts';
import { ParseError, ParseTimeoutError } from '../../server/src/parse/types.ts';
import { DOCUMENTS_DIR, readDocument, skipUnless } from './parse-eval.ts';

const skip = skipUnless(DOCUMENTS_DIR);

async function failure(file: string): Promise<string> {
  try {
    await pdfParser.parse(readDocument(`pdf/${file}`), file);
  } catch (error) {
    assert.ok(error instanceof ParseError, `${file}: expected a ParseError, got ${String(error)}`);
    return error.message;
  }
  assert.fail(`${file}: expected the parse to fail`);
}

test('a PDF that needs a user password fails, saying so', { skip }, async () => {
  for (const file of [
    'encrypted-user-password-test.pdf',
    'encrypted-aes256-user-baz.pdf',
    'encrypted-rc4-40-user-baz.pdf',
    'encrypted-aes256-r6-usersecret.pdf',
  ]) {
    assert.equal(await failure(file), 'encrypted PDF: needs a password to open; Relata does not guess passwords');
  }
});

test('a PDF encrypted with an owner password only opens, with text, flagged encrypted_no_password', { skip }, async () => {
  const doc = await pdfParser.parse(readDocument('pdf/encrypted-owner-only-loan-rates.pdf'), 'x.pdf');
  assert.deepEqual(doc.flags, ['encrypted_no_password']);
  assert.equal(doc.title, 'Home Loan Interest Rates');
  assert.match(doc.text, /Interest Rate/i);
  assert.equal(doc.structure.pages, 2);
});

test('a scanned PDF with no text layer is read by OCR, flagged read_by_ocr, its pages located', { skip }, async () => {
  const doc = await pdfParser.parse(readDocument('pdf/scanned-image-only-2pp.pdf'), 'scanned-image-only-2pp.pdf');
  assert.ok(doc.flags.includes('read_by_ocr'));
  assert.ok(!doc.flags.includes('little_text'));
  assert.match(doc.text, /ACCESSORY KIT/);
  assert.equal(doc.structure.pages, 2);
  assert.deepEqual([...new Set(doc.blocks.map((block) => block.location.start))], [1, 2]);
});

after(closeOcr); // Tesseract's worker thread would keep the test process alive.

test('empty, truncated and malformed PDFs fail with a reason naming the problem', { skip }, async () => {
  assert.equal(await failure('malformed-empty-0-bytes.pdf'), 'empty file (0 bytes)');
  assert.match(await failure('malformed-truncated-federal-register-40pct.pdf'), /^truncated PDF: /);
  assert.match(await failure('malformed-invalid-xref.pdf'), /^(truncated|malformed) PDF: /);
});

test('not a PDF at all', async () => {
  await assert.rejects(pdfParser.parse(new TextEncoder().encode('hello, I am text'), 'fake.pdf'), {
    name: 'ParseError',
    message: 'not a PDF file: the %PDF header is missing',
  });
});

test('a two-column paper: page-located paragraphs, words rejoined across hyphenated line breaks', { skip }, async () => {
  const bytes = readDocument('pdf/paper-naacl06-two-column.pdf');
  const size = bytes.length;
  const doc = await pdfParser.parse(bytes, 'paper.pdf');
  assert.equal(bytes.length, size, "the caller's bytes are not consumed");
  assert.equal(doc.structure.pages, 8);
  assert.deepEqual(doc.flags, []);
  assert.ok(doc.blocks.length > 50);
  for (const block of doc.blocks) {
    assert.equal(block.kind, 'paragraph');
    assert.equal(block.location.kind, 'pages');
    assert.equal(block.location.start, block.location.end);
    assert.ok(block.location.start >= 1 && block.location.start <= 8);
    assert.notEqual(block.text.trim(), '');
  }
  assert.equal(doc.blocks[0]!.text, 'Preemptive Information Extraction using Unrestricted Relation Discovery');
  assert.match(doc.text, /Existing IE systems require/);
  assert.equal(doc.text, doc.blocks.map((b) => b.text).join('\n\n'));
  const pages = doc.blocks.map((b) => b.location.start);
  assert.deepEqual(pages, [...pages].sort((a, b) => a - b), 'blocks in page order');
});

test('a minimal PDF yields its text; metadata titles that are file names are not titles', { skip }, async () => {
  const simple = await pdfParser.parse(readDocument('pdf/minimal-simple1.pdf'), 'simple1.pdf');
  assert.match(simple.text, /Hello/);
  const scotus = await pdfParser.parse(readDocument('pdf/gov-scotus-transcript-p1.pdf'), 'x.pdf'); // Title "10811.exe"
  assert.equal(scotus.title, null);
  const agenda = await pdfParser.parse(readDocument('pdf/meeting-cupertino-usd-board-agenda-2016-04-06.pdf'), 'x.pdf');
  assert.equal(agenda.title, 'SPECIAL BOARD AGENDA 040616');
});

test('a parse that runs too long is abandoned with a ParseTimeoutError', { skip }, async () => {
  const slow = createPdfParser({ timeoutMs: 1 });
  await assert.rejects(slow.parse(readDocument('pdf/paper-tracemonkey-two-column.pdf'), 'x.pdf'), (error: unknown) => {
    assert.ok(error instanceof ParseTimeoutError);
    assert.ok(error instanceof ParseError);
    assert.match(error.message, /took longer than/);
    return true;
  });
  // The parser is still usable afterwards.
  const doc = await pdfParser.parse(readDocument('pdf/minimal-simple1.pdf'), 'x.pdf');
  assert.match(doc.text, /Hello/);
});
