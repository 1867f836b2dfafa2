import assert from 'node:assert/strict';
import { test } from 'node:test';
import { docxParser } from '../../server/src/parse/docx.ts';
import { ParseError } from '../../server/src/parse/types.ts';
import { DOCUMENTS_DIR, readDocument, skipUnless } from './parse-eval.ts';
import { makeDocx, wPara, wRun } from '../support/documentBuilders.ts';

const skip = skipUnless(DOCUMENTS_DIR);
const parse = (file: string) => docxParser.parse(readDocument(`docx/${file}`), file);

async function failure(bytes: Uint8Array): Promise<string> {
  try {
    await docxParser.parse(bytes, 'x.docx');
  } catch (error) {
    assert.ok(error instanceof ParseError, `expected a ParseError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected the parse to fail');
}

test('table rows become table_row blocks with cells joined by " | ", located by block ordinal', { skip }, async () => {
  const doc = await parse('tables.docx');
  assert.deepEqual(
    doc.blocks.map((b) => [b.kind, b.text, b.location]),
    [
      ['paragraph', 'Above', { kind: 'blocks', start: 1, end: 1 }],
      ['table_row', 'Top left | Top right', { kind: 'blocks', start: 2, end: 2 }],
      ['table_row', 'Bottom left | Bottom right', { kind: 'blocks', start: 3, end: 3 }],
      ['paragraph', 'Below', { kind: 'blocks', start: 4, end: 4 }],
    ],
  );
  assert.deepEqual(doc.structure.tables, [{ rows: 2, columns: 2, location: { kind: 'blocks', start: 2, end: 3 } }]);
  assert.deepEqual(doc.flags, []);
});

test('footnotes, endnotes and comments are kept as paragraphs, without note markers', { skip }, async () => {
  for (const file of ['footnotes.docx', 'endnotes.docx', 'comments.docx']) {
    const doc = await parse(file);
    assert.deepEqual(
      doc.blocks.map((b) => [b.kind, b.text]),
      [
        ['paragraph', 'Ouch.'],
        ['paragraph', 'A tachyon walks into a bar.'],
        ['paragraph', 'Fin.'],
      ],
      file,
    );
  }
});

test('headings set the title and heading paths; list items are their own blocks', { skip }, async () => {
  const doc = await parse('track-changes-test.docx');
  assert.equal(doc.title, 'Track Changes Test');
  assert.deepEqual(doc.structure.headings, [{ level: 1, text: 'Track Changes Test', location: { kind: 'blocks', start: 1, end: 1 } }]);
  assert.ok(doc.blocks.every((b) => b.headingPath[0] === 'Track Changes Test'));
  assert.deepEqual(
    doc.blocks.filter((b) => b.kind === 'list_item').map((b) => b.text),
    ['Point one', 'Point three', 'One', 'Three'],
  );
  doc.blocks.forEach((b, i) => assert.deepEqual(b.location, { kind: 'blocks', start: i + 1, end: i + 1 }));
  const list = await parse('simple-list.docx');
  assert.deepEqual(list.blocks.map((b) => [b.kind, b.text]), [['list_item', 'Apple'], ['list_item', 'Banana']]);
});

test('a valid DOCX with no text is indexed, flagged little_text', { skip }, async () => {
  const doc = await parse('empty.docx');
  assert.deepEqual(doc.blocks, []);
  assert.deepEqual(doc.flags, ['little_text']);
  assert.equal(doc.title, null);
});

test('files that are not readable DOCX fail with a reason naming the problem', { skip }, async () => {
  assert.equal(
    await failure(readDocument('docx/malformed-empty-zip-renamed.docx')),
    'not a DOCX file: word/document.xml is missing (the ZIP archive holds no Word document)',
  );
  assert.match(await failure(readDocument('docx/malformed-truncated-tables.docx')), /^truncated DOCX: /);
});

test('not a ZIP, empty, or an OLE container (password-protected DOCX)', async () => {
  assert.equal(await failure(new TextEncoder().encode('plain text')), 'not a DOCX file: the file is not a valid ZIP archive');
  assert.equal(await failure(new Uint8Array()), 'empty file (0 bytes)');
  assert.match(await failure(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])), /OLE compound file/);
  assert.match(await failure(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])), /^(truncated|malformed) DOCX: /);
});

/** Paragraph styles as Word writes them in styles.xml: an id the paragraphs point at, and the name mammoth maps. */
const PARAGRAPH_STYLES = ['Title', 'Heading 1', 'Heading 2']
  .map((name) => `<w:style w:type="paragraph" w:styleId="${name.replace(' ', '')}"><w:name w:val="${name}"/></w:style>`)
  .join('');
const styled = (style: string, text: string) => `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr>${wRun(text)}</w:p>`;
const titleOf = async (body: string) => (await docxParser.parse(await makeDocx(body, { styles: PARAGRAPH_STYLES }), 'report.docx')).title;

test('a DOCX is titled by its own first heading: Heading 1, the Title style, or the heading it opens with', async () => {
  assert.equal(await titleOf(styled('Heading2', 'Quarterly supplier review') + wPara(wRun('Prepared by procurement.'))), 'Quarterly supplier review');
  assert.equal(await titleOf(styled('Title', 'Lease of Unit 4') + styled('Heading2', 'Parties') + wPara(wRun('Landlord and tenant.'))), 'Lease of Unit 4');
  assert.equal(
    await titleOf(styled('Heading2', 'Confidential') + styled('Heading1', 'Master services agreement') + wPara(wRun('Terms.'))),
    'Master services agreement',
    'a top-level heading outranks a smaller one above it',
  );
  assert.equal(await titleOf(wPara(wRun('Minutes, taken by Sam.')) + styled('Heading2', 'Actions')), null, 'no own title: the file name stands in');
});
