import assert from 'node:assert/strict';
import { test } from 'node:test';
import { odpParser } from '../../server/src/parse/odp.ts';
import { pptxParser } from '../../server/src/parse/pptx.ts';
import { parseFile } from '../../server/src/parse/registry.ts';
import { ParseError } from '../../server/src/parse/types.ts';
import { makeZip, zipBomb } from '../support/zipBuilders.ts';
import { DOCUMENTS_MORE_DIR, readMoreDocument, skipUnless } from './parse-eval.ts';

const skip = skipUnless(DOCUMENTS_MORE_DIR);

test('a PPTX deck reads as one section per slide: title, text boxes, table rows and labelled speaker notes, located by slide number', { skip }, async () => {
  const doc = await parseFile(readMoreDocument('pptx/testPPT_various2.pptx'), 'testPPT_various2.pptx');
  assert.equal(doc.title, 'This is some content');
  assert.deepEqual(doc.metadata?.entries.map((entry) => [entry.key, entry.text]), [['author', 'Allison, Timothy B.']]);
  assert.equal(doc.structure.pages, 10);
  const slide2 = doc.blocks.filter((block) => block.location.start === 2);
  assert.deepEqual(
    slide2.map((block) => [block.kind, block.text, block.headingPath]),
    [
      ['heading', 'Slide2Header', ['Slide2Header']],
      ['paragraph', 'FirstBullet\nSecondBullet\ntika_hyperlink', ['Slide2Header']],
      ['paragraph', 'Slide2TextBox', ['Slide2Header']],
      ['table_row', 'R1c1 | R1c2 | r1c3', ['Slide2Header']],
      ['table_row', 'r2c1 |  | lucene_hyperlink', ['Slide2Header']],
      ['paragraph', 'Speaker notes: NotesForSlide2', ['Slide2Header']],
    ],
  );
  assert.ok(slide2.every((block) => block.location.kind === 'pages' && block.location.end === 2));
  assert.deepEqual(doc.structure.tables, [{ rows: 2, columns: 3, location: { kind: 'pages', start: 2, end: 2 } }]);
  assert.deepEqual(doc.links?.map((link) => [link.target, link.text, link.location.start]), [
    ['http://tika.apache.org/', 'tika_hyperlink', 2],
    ['http://lucene.apache.org/', 'lucene_hyperlink', 2],
  ]);
});

test('a hidden PPTX slide is left out of the passages and reported at its slide number', { skip }, async () => {
  const doc = await parseFile(readMoreDocument('pptx/testPPT_various2.pptx'), 'testPPT_various2.pptx');
  assert.deepEqual(doc.hidden?.map((finding) => [finding.kind, finding.text, finding.location]), [['hidden_slide', 'Slide 9: This slide is hidden', { kind: 'pages', start: 9, end: 9 }]]);
  assert.doesNotMatch(doc.text, /This slide is hidden/);
  assert.ok(!doc.blocks.some((block) => block.location.start === 9));
  assert.ok(doc.flags.includes('hidden_text'));
});

test('an ODP deck gives each slide its title as a section, located by slide number', { skip }, async () => {
  const doc = await parseFile(readMoreDocument('odp/testODP_NPE.odp'), 'testODP_NPE.odp');
  assert.equal(doc.title, 'Medicine and Health Care');
  assert.deepEqual(doc.metadata?.entries.map((entry) => [entry.key, entry.text]), [['author', 'Alan S. Berger']]);
  assert.deepEqual(doc.structure.headings.slice(0, 3).map((heading) => [heading.text, heading.location]), [
    ['Medicine and Health Care', { kind: 'pages', start: 1, end: 1 }],
    ['A Look Ahead', { kind: 'pages', start: 2, end: 2 }],
    ['Culture, Society, and Health: Definitions', { kind: 'pages', start: 3, end: 3 }],
  ]);
  assert.match(doc.blocks.find((block) => block.headingPath[0] === 'A Look Ahead' && block.kind === 'paragraph')?.text ?? '', /^What does sociology contribute/);
});

const ODP_CONTENT = `<?xml version="1.0"?>
<office:document-content xmlns:office="o" xmlns:draw="d" xmlns:presentation="p" xmlns:style="s" xmlns:text="t" xmlns:svg="v" xmlns:xlink="x">
<office:automatic-styles><style:style style:name="hid" style:family="drawing-page"><style:drawing-page-properties presentation:visibility="hidden"/></style:style></office:automatic-styles>
<office:body><office:presentation>
<draw:page draw:name="p1">
  <draw:frame svg:x="2cm" svg:y="12cm"><draw:text-box><text:p>Lower box</text:p></draw:text-box></draw:frame>
  <draw:frame presentation:class="title" svg:x="2cm" svg:y="1cm"><draw:text-box><text:p>Crane hire</text:p></draw:text-box></draw:frame>
  <draw:frame svg:x="2cm" svg:y="5cm"><draw:text-box><text:p>Upper box <text:a xlink:href="https://cranes.example">GC-2</text:a></text:p></draw:text-box></draw:frame>
  <presentation:notes><draw:frame><draw:text-box><text:p>Mention the permit.</text:p></draw:text-box></draw:frame></presentation:notes>
</draw:page>
<draw:page draw:name="p2" draw:style-name="hid"><draw:frame presentation:class="title"><draw:text-box><text:p>Secret slide</text:p></draw:text-box></draw:frame></draw:page>
</office:presentation></office:body></office:document-content>`;

test('ODP text boxes are read top to bottom whatever their order in the file; a hidden slide is reported', async () => {
  const doc = await odpParser.parse(await makeZip({ mimetype: 'application/vnd.oasis.opendocument.presentation', 'content.xml': ODP_CONTENT }), 'deck.odp');
  assert.deepEqual(doc.blocks.map((block) => [block.kind, block.text]), [
    ['heading', 'Crane hire'],
    ['paragraph', 'Upper box GC-2'],
    ['paragraph', 'Lower box'],
    ['paragraph', 'Speaker notes: Mention the permit.'],
  ]);
  assert.deepEqual(doc.hidden?.map((finding) => [finding.kind, finding.text, finding.location.start]), [['hidden_slide', 'Slide 2: Secret slide', 2]]);
  assert.deepEqual(doc.links?.map((link) => link.target), ['https://cranes.example']);
});

test('a zip bomb in a PPTX or an ODP fails with its reason before anything inflates', async () => {
  for (const [parser, format, part] of [
    [pptxParser, 'PPTX', 'ppt/slides/slide1.xml'],
    [odpParser, 'ODP', 'content.xml'],
  ] as const) {
    const bytes = await zipBomb({ mimetype: 'x' }, part);
    await assert.rejects(parser.parse(bytes, `bomb.${format.toLowerCase()}`), (error: Error) => error instanceof ParseError && new RegExp(`^${format} part ${part.replace(/\./g, '\\.')} inflates from .* \\(zip bomb\\?\\)$`).test(error.message));
  }
});

test('a password-protected PPTX is refused, saying so', { skip }, async () => {
  await assert.rejects(parseFile(readMoreDocument('pptx/testPPT_protected_passtika.pptx'), 'p.pptx'), /^ParseError: not a PPTX file: this is an OLE compound file, either a password-protected PPTX/);
});
