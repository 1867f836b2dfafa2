// Every way a Markdown document points at another file is read as a link, with its text, its kind
// and its line; text in code blocks, code spans, HTML comments and hidden HTML is not a link.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { docxParser } from '../../server/src/parse/docx.ts';
import { markdownDocument, markdownParser } from '../../server/src/parse/markdown.ts';
import { pdfParser } from '../../server/src/parse/pdf.ts';
import { makeDocx, makePdf, pdfText, wPara, wRun } from '../support/documentBuilders.ts';
import { MAX_LINKS_PER_DOCUMENT, type DocumentLink } from '../../server/src/parse/types.ts';

const links = (source: string): DocumentLink[] => markdownDocument(source).links ?? [];
const one = (source: string): Omit<DocumentLink, 'location'> & { line: number } => {
  const found = links(source);
  assert.equal(found.length, 1, JSON.stringify(found));
  const { location, ...rest } = found[0]!;
  return { ...rest, line: location.start };
};

test('an inline link keeps its target, its text and its line', () => {
  assert.deepEqual(one('# T\n\nSee [the build guide](../b/) here.'), { target: '../b/', text: 'the build guide', kind: 'inline', line: 3 });
});

test('a reference link takes its target from the definition, even one written after it', () => {
  assert.deepEqual(one('Read [tuples][tup] first.\n\n[tup]: ch03-02-data-types.html#the-tuple-type'), {
    target: 'ch03-02-data-types.html#the-tuple-type',
    text: 'tuples',
    kind: 'reference',
    line: 1,
  });
  assert.deepEqual(one('A [collapsed][] and nothing else.\n\n[collapsed]: ./c.md'), { target: './c.md', text: 'collapsed', kind: 'reference', line: 1 });
});

test('a definition nothing refers to is still a link, at its own line', () => {
  assert.deepEqual(one('Text.\n\n[unused]: unused.md'), { target: 'unused.md', text: 'unused', kind: 'definition', line: 3 });
});

test('an autolink is a link of its own kind', () => {
  assert.deepEqual(one('Go to <https://example.com/x>.'), { target: 'https://example.com/x', text: 'https://example.com/x', kind: 'autolink', line: 1 });
});

test('an <a href> written as HTML inside Markdown is a link, in a block and inline', () => {
  assert.equal(one('<div>\n<a href="guide.md">the guide</a>\n</div>').target, 'guide.md');
  assert.deepEqual(one("Text with <a href='inline.md'>inline</a> HTML.").target, 'inline.md');
});

test('wiki-links: a name, a name with a label, a name with a heading, each on its own line', () => {
  const found = links('First [[Build Guide]].\nThen [[Release Notes|the notes]]\nand [[Setup#Install]].');
  assert.deepEqual(
    found.map((link) => [link.target, link.text, link.kind, link.location.start]),
    [
      ['Build Guide', 'Build Guide', 'wiki', 1],
      ['Release Notes', 'the notes', 'wiki', 2],
      ['Setup#Install', 'Setup', 'wiki', 3],
    ],
  );
});

test('front-matter lists naming related files are links from the front matter', () => {
  const found = links('---\ntitle: A\nrelated:\n  - best-practices\n  - coc\nsee_also: b.md\nparent: index\nup: ../\ntags: [x]\n---\n\nBody.');
  assert.deepEqual(
    found.map((link) => [link.target, link.kind]),
    [
      ['best-practices', 'front_matter'],
      ['coc', 'front_matter'],
      ['b.md', 'front_matter'],
      ['index', 'front_matter'],
      ['../', 'front_matter'],
    ],
  );
  assert.equal(found[0]!.text, 'related: best-practices');
});

test('code blocks, code spans, HTML comments and hidden HTML are not links', () => {
  const source = [
    'Code `[x](span.md)` and `[[SpanWiki]]`.',
    '',
    '```',
    '[y](fenced.md) [[FencedWiki]] <a href="fenced.html">z</a>',
    '```',
    '',
    '    [z](indented.md)',
    '',
    '<!-- [c](comment.md) <a href="comment.html">c</a> -->',
    '',
    '<div hidden>',
    '',
    '[h](hidden.md)',
    '',
    '</div>',
  ].join('\n');
  assert.deepEqual(links(source), []);
});

test('images are pictures, not links to files', () => {
  assert.deepEqual(links('![a diagram](diagram.png)'), []);
});

test('a flood of links is capped and each target clipped', async () => {
  const source = Array.from({ length: MAX_LINKS_PER_DOCUMENT + 50 }, (_, i) => `[l${i}](f${i}.md)`).join('\n\n') + `\n\n[long](${'x'.repeat(2000)}.md)`;
  const document = await markdownParser.parse(new TextEncoder().encode(source), 'flood.md');
  assert.equal(document.links!.length, MAX_LINKS_PER_DOCUMENT);
  assert.ok(document.links!.every((link) => link.target.length <= 500));
});

test('the parser version changed with its output, so stores parse Markdown again', () => {
  assert.equal(markdownParser.version, 'markdown@5');
});

test('a Word hyperlink is a link at its paragraph; a link to a bookmark inside the document is not', async () => {
  const R_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
    `<Relationship Id="rId7" Type="${R_NS}/hyperlink" Target="../specs/build-guide.docx" TargetMode="External"/>` +
    '</Relationships>';
  const body =
    wPara(wRun('Introduction')) +
    wPara(wRun('See '), `<w:hyperlink xmlns:r="${R_NS}" r:id="rId7">${wRun('the build guide')}</w:hyperlink>`, wRun(' first.')) +
    wPara(`<w:hyperlink w:anchor="later">${wRun('below')}</w:hyperlink>`);
  const document = await docxParser.parse(await makeDocx(body, { extra: { 'word/_rels/document.xml.rels': rels } }), 'a.docx');
  assert.deepEqual(document.links, [{ target: '../specs/build-guide.docx', text: 'the build guide', kind: 'hyperlink', location: { kind: 'blocks', start: 2, end: 2 } }]);
  assert.equal(docxParser.version, 'docx@5');
});

test('a PDF link annotation to a file is a link on its page; a link inside the PDF is not', async () => {
  const annotations = [
    '<< /Type /Annot /Subtype /Link /Rect [72 700 300 720] /A << /S /URI /URI (../handbook/cranes.pdf) >> >>',
    '<< /Type /Annot /Subtype /Link /Rect [72 650 300 670] /A << /S /GoToR /F (budget.pdf) /D [0 /Fit] >> >>',
    '<< /Type /Annot /Subtype /Link /Rect [72 600 300 620] /Dest [0 /Fit] >>',
  ];
  const pdf = makePdf([pdfText('See the crane handbook and the budget.', 710)], 0, {}, annotations);
  const document = await pdfParser.parse(pdf, 'report.pdf');
  assert.deepEqual(
    (document.links ?? []).map((link) => [link.target, link.kind, link.location.kind, link.location.start]),
    [
      ['../handbook/cranes.pdf', 'annotation', 'pages', 1],
      ['budget.pdf', 'annotation', 'pages', 1],
    ],
  );
});
