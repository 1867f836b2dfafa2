import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { decodeHTML } from 'entities';
import { markdownParser } from '../../server/src/parse/markdown.ts';
import { EVAL_ROOT } from '../support/tempFolder.ts';
import { KNOWLEDGE_BASES_DIR, skipUnless } from './parse-eval.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

const NOTE = `---
title: Lending policy
tags: [loans]
---

# Loans

Rates are set **monthly** by the [credit committee](https://example.com) using \`rate_table\`.

## Fixed rates

- First item
- Second item
  continued here
  - Nested item
- [x] Done task

| Term | Rate |
|------|------|
| 10y  | 4.5% |
| 20y  | 5.1% |

\`\`\`sh
relata index .
\`\`\`

> Quoted advice
> on two lines

### Details

<aside class="pquote">
  Held in an <b>aside</b>, see [the blog](https://example.com/blog)
</aside>

# Appendix

Closing words.
`;

test('blocks follow the syntax tree with plain text, heading paths and line ranges', async () => {
  const doc = await markdownParser.parse(utf8(NOTE), 'policy.md');
  const summary = doc.blocks.map((b) => [b.kind, b.text, b.headingPath.join(' > '), b.location.start, b.location.end]);
  assert.deepEqual(summary, [
    ['heading', 'Loans', 'Loans', 6, 6],
    ['paragraph', 'Rates are set monthly by the credit committee using rate_table.', 'Loans', 8, 8],
    ['heading', 'Fixed rates', 'Loans > Fixed rates', 10, 10],
    ['list_item', 'First item', 'Loans > Fixed rates', 12, 12],
    ['list_item', 'Second item\ncontinued here', 'Loans > Fixed rates', 13, 14],
    ['list_item', 'Nested item', 'Loans > Fixed rates', 15, 15],
    ['list_item', '[x] Done task', 'Loans > Fixed rates', 16, 16],
    ['table_row', 'Term | Rate', 'Loans > Fixed rates', 18, 18],
    ['table_row', '10y | 4.5%', 'Loans > Fixed rates', 20, 20],
    ['table_row', '20y | 5.1%', 'Loans > Fixed rates', 21, 21],
    ['code', 'relata index .', 'Loans > Fixed rates', 23, 25],
    ['paragraph', 'Quoted advice\non two lines', 'Loans > Fixed rates', 27, 28],
    ['heading', 'Details', 'Loans > Fixed rates > Details', 30, 30],
    ['paragraph', 'Held in an aside, see the blog', 'Loans > Fixed rates > Details', 32, 34],
    ['heading', 'Appendix', 'Appendix', 36, 36],
    ['paragraph', 'Closing words.', 'Appendix', 38, 38],
  ]);
  assert.equal(doc.title, 'Lending policy');
  assert.deepEqual(
    doc.structure.headings.map((h) => [h.level, h.text, h.location.start]),
    [
      [1, 'Loans', 6],
      [2, 'Fixed rates', 10],
      [3, 'Details', 30],
      [1, 'Appendix', 36],
    ],
  );
  assert.deepEqual(doc.structure.tables, [{ rows: 3, columns: 2, location: { kind: 'lines', start: 18, end: 21 } }]);
  assert.equal(doc.text, doc.blocks.map((b) => b.text).join('\n\n'));
  assert.ok(!doc.text.includes('title: Lending policy'), 'front matter is not content');
});

test('a malformed front matter is ignored: the first h1 becomes the title', async () => {
  const doc = await markdownParser.parse(utf8('---\ntitle: [unclosed\n  : : :\n---\n\nIntro\n\n# Real title\n'), 'x.md');
  assert.equal(doc.title, 'Real title');
  assert.equal(doc.blocks[0]!.text, 'Intro');
});

test('no front matter title and no h1 means no title; an empty file is flagged little_text', async () => {
  const doc = await markdownParser.parse(utf8('## Only a subheading\n\ntext'), 'x.md');
  assert.equal(doc.title, null);
  const empty = await markdownParser.parse(utf8(''), 'empty.md');
  assert.deepEqual(empty.blocks, []);
  assert.deepEqual(empty.flags, ['little_text']);
});

test('heading paths pop back to the enclosing level', async () => {
  const doc = await markdownParser.parse(utf8('# A\n## B\n### C\n## D\ntext\n'), 'x.md');
  assert.deepEqual(doc.blocks.at(-1)!.headingPath, ['A', 'D']);
});

const guideEn = path.join(KNOWLEDGE_BASES_DIR, 'opensource-guide-en');

test('a front matter\'s title and values read as the page shows them: character references decoded', async () => {
  const doc = await markdownParser.parse(
    utf8('---\ntitle: M&eacute;tricas de c&oacute;digo abierto\ndescription: Medir el &#233;xito &amp; el &#xE9;xito\ntags: [c&oacute;digo]\nproject: "&nosuch; tal cual"\n---\n\nTexto con c&oacute;digo.\n'),
    'metricas.md',
  );
  assert.equal(doc.title, 'Métricas de código abierto');
  const values = Object.fromEntries(doc.metadata!.entries.map((entry) => [`${entry.key}:${entry.value}`, entry.text]));
  assert.equal(values['description:medir el éxito & el éxito'], 'Medir el éxito & el éxito');
  assert.equal(values['tags:código'], 'código');
  // A name HTML does not define stays as written.
  assert.equal(values['project:&nosuch; tal cual'], '&nosuch; tal cual');
  assert.equal(doc.blocks[0]!.text, 'Texto con código.');
});

test('a title of thousands of character references is decoded, an undefined name kept as written', async () => {
  const many = '&eacute;&#233;&amp;&bogus;'.repeat(1100); // under the front matter's 32 KiB
  const doc = await markdownParser.parse(utf8(`---\ntitle: "${many}"\n---\n`), 'many.md');
  // A title is cut to its first 200 characters (document.ts): those read as the page shows them.
  assert.ok(doc.title!.startsWith('éé&&bogus;'.repeat(19)), doc.title!.slice(0, 60));
  assert.ok(!doc.title!.includes('&eacute;') && !doc.title!.includes('&#233;'));
});

const guideEs = path.join(EVAL_ROOT, 'languages', 'opensource-guide-es');

test('a Spanish guide whose title is written with references gets its title in words', { skip: skipUnless(guideEs) }, async () => {
  const doc = await markdownParser.parse(new Uint8Array(fs.readFileSync(path.join(guideEs, 'metrics.md'))), 'metrics.md');
  assert.equal(doc.title, 'Métricas de código abierto');
});

test('a knowledge-base article: front-matter title, heading paths, line ranges', { skip: skipUnless(guideEn) }, async () => {
  const file = path.join(guideEn, 'best-practices.md');
  const doc = await markdownParser.parse(new Uint8Array(fs.readFileSync(file)), 'best-practices.md');
  assert.equal(doc.title, 'Best Practices for Maintainers');
  const vision = doc.blocks.find((b) => b.kind === 'heading' && b.text === "Write down your project's vision");
  assert.ok(vision);
  assert.deepEqual(vision.headingPath, ['Documenting your processes', "Write down your project's vision"]);
  const lines = fs.readFileSync(file, 'utf8').split(/\r\n|\n|\r/);
  assert.equal(lines[vision.location.start - 1], "### Write down your project's vision");
  const slate = doc.blocks.find((b) => b.text.includes('feature request for Slate.'));
  assert.ok(slate, 'link text is kept, its URL dropped');
  assert.ok(lines[slate.location.start - 1]!.includes('[Slate](https://github.com/lord/slate)'));
});

// Every Markdown data set under ../shared/eval: the guides in English and German, the same guides in
// seven more languages (Japanese, Chinese and Korean write no spaces), and the linked docs.
const MARKDOWN_SETS = [KNOWLEDGE_BASES_DIR, path.join(EVAL_ROOT, 'languages'), path.join(EVAL_ROOT, 'linked-docs')].filter((dir) => fs.existsSync(dir));
const wordSegments = new Intl.Segmenter(undefined, { granularity: 'word' });

test('every Markdown article of the evaluation data: each block\'s words are found in its line range', { skip: skipUnless(KNOWLEDGE_BASES_DIR) }, async () => {
  let checked = 0;
  for (const set of MARKDOWN_SETS) {
    for (const name of markdownFiles(set)) {
      const file = path.join(set, name);
      const raw = fs.readFileSync(file, 'utf8');
      const doc = await markdownParser.parse(new Uint8Array(fs.readFileSync(file)), path.basename(name));
      if (/^---\r?\n/.test(raw)) assert.ok(doc.title, `${name} has a front-matter title`);
      const lines = raw.split(/\r\n|\n|\r/);
      for (const block of doc.blocks) {
        assert.equal(block.location.kind, 'lines');
        assert.ok(block.location.start <= block.location.end);
        // Any well-formed file must hold, whatever its language or markup: a word may be written
        // with character references (`c&oacute;digo`), emphasis or an escape inside it, broken
        // across lines, or run on from a link's text or an HTML element in a language without
        // spaces, so words are looked for among the range's letters and digits, as written or
        // without link destinations and tags.
        const source = decodeHTML(lines.slice(block.location.start - 1, block.location.end).join('\n'));
        const readings = [letters(source), letters(source.replace(/\]\([^)]*\)/g, '').replace(/<[^>]*>/g, ''))];
        for (const word of words(block.text)) {
          assert.ok(readings.some((reading) => reading.includes(word)), `${name}: "${word}" not in lines ${block.location.start}-${block.location.end}`);
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 1000, `checked ${checked} blocks`);
});

function markdownFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith('.md')).sort();
}

/** The words of a text (a dictionary segmentation where words are not spaced), letters and digits only. */
function words(text: string): string[] {
  return [...wordSegments.segment(text)].filter((s) => s.isWordLike).map((s) => letters(s.segment)).filter((word) => /\p{L}{2}/u.test(word));
}

function letters(text: string): string {
  return text.replace(/[^\p{L}\p{N}]+/gu, '');
}
