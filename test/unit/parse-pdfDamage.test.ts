// A PDF that cannot be opened is named for what is wrong with it: cut off (fetch or copy it again)
// or a damaged cross-reference table (repair it); a broken table alone, with sound objects, costs
// nothing, because pdf.js rebuilds it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pdfParser } from '../../server/src/parse/pdf.ts';
import { ParseError } from '../../server/src/parse/types.ts';
import { makePdf, pdfText } from '../support/documentBuilders.ts';
import { DOCUMENTS_DIR, readDocument, skipUnless } from './parse-eval.ts';

const sound = () => Buffer.from(makePdf([pdfText('Crane inspection schedule', 700)])).toString('latin1');
const pdf = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
/** The table's entries replaced by junk; startxref still points at the table. */
const withJunkTable = (text: string) => text.replace(/xref\n0 \d+\n[\s\S]*?trailer/, 'xref\n0 9\nnot an entry at all\ntrailer');
/** Every object's header broken, so nothing can be recovered by scanning the file for objects. */
const withBrokenObjects = (text: string) => text.replace(/ 0 obj\n/g, ' 0 ob\n');

async function failure(bytes: Uint8Array): Promise<string> {
  try {
    await pdfParser.parse(bytes, 'damaged.pdf');
  } catch (error) {
    assert.ok(error instanceof ParseError, `expected a ParseError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected the parse to fail');
}

test('a complete PDF whose cross-reference table is junk is still read: pdf.js rebuilds the table from the objects', async () => {
  const document = await pdfParser.parse(pdf(withJunkTable(sound())), 'junk-table.pdf');
  assert.match(document.text, /Crane inspection schedule/);
});

test('a complete PDF with a junk cross-reference table and unrecoverable objects is damaged, not truncated', async () => {
  const reason = await failure(pdf(withBrokenObjects(withJunkTable(sound()))));
  assert.match(reason, /^damaged PDF: invalid cross-reference table \(/);
  assert.doesNotMatch(reason, /truncated/);
});

test('a cross-reference offset past the end of a complete file is named as such', async () => {
  const text = withBrokenObjects(sound()).replace(/startxref\n\d+/, 'startxref\n99999999');
  assert.match(await failure(pdf(text)), /^damaged PDF: invalid cross-reference table \(startxref points to byte 99,999,999, past the end of the [\d,]+-byte file\)/);
});

test('a PDF cut off before its end-of-file marker is truncated', async () => {
  const text = sound();
  assert.equal(await failure(pdf(text.slice(0, Math.floor(text.length * 0.4)))), 'truncated PDF: the file ends before its end-of-file marker (incomplete download or copy?)');
});

test('the evaluation PDFs: the cut-off download and the linearized file cut to a sixth are both truncated, with the figures', { skip: skipUnless(DOCUMENTS_DIR) }, async () => {
  assert.match(await failure(readDocument('pdf/malformed-truncated-federal-register-40pct.pdf')), /^truncated PDF: the file ends before its end-of-file marker/);
  // Its linearization header declares 101,946 bytes and its first trailer points at byte 101,358
  // for the main table: the table is not invalid, it is missing, because the file was cut off.
  assert.equal(
    await failure(readDocument('pdf/malformed-invalid-xref.pdf')),
    'truncated PDF: the file has 17,109 of the 101,946 bytes it declares, so the cross-reference table at its end is missing (incomplete download or copy?)',
  );
});
