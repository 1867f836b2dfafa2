// A huge Markdown file is parsed in sections cut before headings (parse/markdownSections.ts), so
// the parser's memory is bounded by a section; the document is the same as parsing it whole.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownDocument, markdownParser } from '../../server/src/parse/markdown.ts';
import { markdownSections, SECTIONED_ABOVE_CHARS, SECTION_CHARS } from '../../server/src/parse/markdownSections.ts';
import { largeDocument } from '../support/largeDocuments.ts';

/** Generated Markdown with the constructs a cut must respect: fenced code holding "#" lines, lists, a table, front matter. */
function document(bytes: number): string {
  const fence = '```sh\n# not a heading: a shell comment\nmake all\n\n## nor this\n```';
  const table = '| crane | bay |\n| --- | --- |\n| GC-2 | 4 |';
  const body = largeDocument(bytes, 'markdown', 9)
    .split('\n\n')
    .map((part, n) => (n % 40 === 7 ? `${part}\n\n${fence}` : n % 55 === 9 ? `${part}\n\n${table}` : part))
    .join('\n\n');
  return `---\ntitle: Crane log\n---\n\n${body}\n`;
}

test('a text up to the threshold is one section; a larger one is cut before headings, never inside code', () => {
  const small = document(50_000);
  assert.deepEqual(markdownSections(small), [{ text: small, lineOffset: 0 }]);

  const source = document(300_000);
  const sections = markdownSections(source, 100_000, 20_000);
  assert.ok(sections.length >= 10, `${sections.length} sections`);
  assert.equal(sections.map((section) => section.text).join(''), source, 'the sections are the text, in order');
  let line = 0;
  for (const [n, section] of sections.entries()) {
    assert.equal(section.lineOffset, line);
    line += section.text.split('\n').length - 1;
    if (n > 0) assert.match(section.text, /^#{1,6} /, 'a section starts at a heading');
    if (n < sections.length - 1) assert.ok(section.text.length >= 20_000 && section.text.length < 40_000, `section ${n}: ${section.text.length}`);
    const fences = section.text.match(/^```/gm)?.length ?? 0;
    assert.equal(fences % 2, 0, `section ${n} does not cut a code block`);
  }
});

test('parsing in sections gives the same document as parsing whole', async () => {
  const source = document(300_000);
  const whole = markdownDocument(source, [{ text: source, lineOffset: 0 }]);
  const sectioned = markdownDocument(source, markdownSections(source, 100_000, 20_000));
  assert.ok(whole.blocks.length > 500 && whole.structure.tables.length > 0);
  assert.equal(sectioned.title, 'Crane log');
  assert.deepEqual(sectioned, whole);
  // And the parser uses the whole text for a file of ordinary size.
  assert.deepEqual(await markdownParser.parse(new TextEncoder().encode(source), 'log.md'), whole);
});

test('a file over the threshold is parsed in sections of bounded size, with the whole file’s line numbers', async () => {
  const source = document(SECTIONED_ABOVE_CHARS + 200_000);
  const sections = markdownSections(source);
  assert.ok(sections.length >= 4);
  for (const section of sections) assert.ok(section.text.length < SECTION_CHARS + 20_000, `a section of ${section.text.length}`);
  const parsed = await markdownParser.parse(new TextEncoder().encode(source), 'log.md');
  const lines = source.split('\n');
  // A heading's block says the line it is on, in the whole file.
  const headings = parsed.blocks.filter((block) => block.kind === 'heading');
  assert.ok(headings.length > 1_000);
  for (const block of headings.filter((_, n) => n % 97 === 0)) {
    assert.equal(block.location.kind, 'lines');
    if (block.location.kind !== 'lines') continue;
    assert.match(lines[block.location.start - 1]!, /^#{1,6} /);
    assert.equal(lines[block.location.start - 1]!.replace(/^#{1,6} /, ''), block.text);
  }
});
