// One hostile file must not exhaust the machine: a DOCX that inflates far beyond its size is
// refused before (or while) it inflates, with a reason; a PDF with more pages than the cap is
// read up to the cap, flagged, and says how much was left out.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDocxParser } from '../../server/src/parse/docx.ts';
import { createPdfParser } from '../../server/src/parse/pdf.ts';
import { parseFile } from '../../server/src/parse/registry.ts';
import { ParseError } from '../../server/src/parse/types.ts';
import { makeDocx, makePdf, pdfText, wPara, wRun } from '../support/documentBuilders.ts';

const MB = 1024 * 1024;

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ParseError, `expected a ParseError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected the parse to fail');
}

/** Rewrites the uncompressed size that the ZIP's local and central headers declare for one entry. */
function declareSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const bytes = new Uint8Array(zip);
  const view = new DataView(bytes.buffer);
  const encoded = new TextEncoder().encode(name);
  for (let at = 0; at + 46 < bytes.length; at++) {
    const signature = view.getUint32(at, true);
    const nameAt = signature === 0x04034b50 ? at + 30 : signature === 0x02014b50 ? at + 46 : -1;
    if (nameAt < 0 || !encoded.every((byte, i) => bytes[nameAt + i] === byte)) continue;
    view.setUint32(signature === 0x04034b50 ? at + 22 : at + 24, size, true);
  }
  return bytes;
}

test('a DOCX whose entries declare more than the inflation cap fails before inflating, naming it a zip bomb', async () => {
  const bomb = await makeDocx(wPara(wRun('Hello.')), { extra: { 'word/media/filler.bin': new Uint8Array(50 * MB) } });
  assert.ok(bomb.length < MB, `the bomb is small (${bomb.length} bytes)`);
  const started = performance.now();
  const message = await failure(createDocxParser({ maxInflatedBytes: 200 * MB }).parse(bomb, 'bomb.docx'));
  assert.match(message, /word\/media\/filler\.bin inflates from [\d,]+ bytes to 50 MB, more than 200 times its size \(zip bomb\?\)/);
  assert.ok(performance.now() - started < 1000, 'refused without inflating');
});

test('a DOCX over the total inflation cap fails with the cap in the reason', async () => {
  const text = Array.from({ length: 40_000 }, (_, i) => `Paragraph ${i} of a long but honest report.`);
  const large = await makeDocx(text.map((line) => wPara(wRun(line))).join(''));
  const message = await failure(createDocxParser({ maxInflatedBytes: 1 * MB }).parse(large, 'large.docx'));
  assert.match(message, /^DOCX inflates to more than 1 MB \(its ZIP entries declare \d+ MB; zip bomb\?\)$/);
  const doc = await createDocxParser().parse(large, 'large.docx');
  assert.equal(doc.blocks.length, 40_000, 'the default cap reads it');
});

test('a DOCX part that inflates past what its header declares (a lying header) is stopped while inflating', async () => {
  const body = wPara(wRun('x'.repeat(4 * MB)));
  const lying = declareSize(await makeDocx(body), 'word/document.xml', 1000);
  const message = await failure(createDocxParser().parse(lying, 'lying.docx'));
  assert.match(message, /^malformed DOCX: part word\/document\.xml inflates to more than the 1,000 bytes its ZIP header declares/);
});

test('a PDF with more pages than the cap is indexed up to the cap and flagged truncated, saying how much', async () => {
  const pdf = makePdf([pdfText('First page text.', 700), pdfText('Every other page says this.', 700)], 10);
  const doc = await createPdfParser({ maxPages: 5 }).parse(pdf, 'long.pdf');
  assert.equal(doc.structure.pages, 12);
  assert.deepEqual([...new Set(doc.blocks.map((block) => block.location.start))], [1, 2, 3, 4, 5]);
  assert.equal(doc.truncated, 'only the first 5 of 12 pages were indexed');
  assert.ok(doc.flags.includes('truncated'));
  assert.equal((await parseFile(pdf, 'dir/long.pdf', { maxPages: 5 })).truncated, doc.truncated, 'parseFile passes the limits on');
  const whole = await createPdfParser({ maxPages: 12 }).parse(pdf, 'long.pdf');
  assert.equal(whole.truncated, null);
  assert.ok(!whole.flags.includes('truncated'));
});
