// The metadata a document gives itself, read from real files of each format: Markdown front
// matter, a DOCX's core properties (docProps/core.xml), a PDF's document information. Keys are
// folded to one spelling, values case-folded for comparison and kept as written for display; a
// hostile front matter (huge, nested beyond the parser's stack, a "billion laughs" of aliases, a
// flood of values) gives a bounded result with a note, and the document is still read.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { docxParser } from '../../server/src/parse/docx.ts';
import { markdownParser } from '../../server/src/parse/markdown.ts';
import {
  countsAsSubject,
  MAX_FRONT_MATTER_ALIASES,
  MAX_FRONT_MATTER_CHARS,
  MAX_METADATA_ENTRIES,
  MAX_VALUES_PER_KEY,
  normaliseKey,
} from '../../server/src/parse/metadata.ts';
import { pdfParser } from '../../server/src/parse/pdf.ts';
import type { ParsedDocument } from '../../server/src/parse/types.ts';
import { escapeXml, makeDocx, makePdf, pdfText, wPara, wRun } from '../support/documentBuilders.ts';

const markdown = (text: string): Promise<ParsedDocument> => markdownParser.parse(new TextEncoder().encode(text), 'note.md');
const withFrontMatter = (yaml: string): string => `---\n${yaml}\n---\n\n# Crane note\n\nThe crane in bay four passed its inspection.\n`;
/** key: value pairs, as compared. */
const compared = (document: ParsedDocument): string[] => (document.metadata?.entries ?? []).map((entry) => `${entry.key}: ${entry.value}`);

/** The document was still read: its heading and paragraph are its blocks. */
function stillRead(document: ParsedDocument): void {
  assert.deepEqual(
    document.blocks.map((block) => block.text),
    ['Crane note', 'The crane in bay four passed its inspection.'],
  );
}

test('front matter: subject keys and others, values split where a key holds a list, as written for display and folded for comparison', async () => {
  const document = await markdown(
    withFrontMatter(
      [
        'title: GC-2 handover',
        'project: GC-2',
        'Client:  Larkspur   Logistics ',
        'tags: [Cranes, " Safety "]',
        'keywords: "audits; Cranes, lifting"',
        'author: Tomasz Wieczorek',
        'date: 2025-05-23',
        'draft: false',
        'image: /assets/cards/gc2.png',
        'order: 5',
        'budget: 4200',
      ].join('\n'),
    ),
  );
  assert.equal(document.title, 'GC-2 handover', 'the title is the title, not an entry');
  assert.deepEqual(compared(document), [
    'project: gc-2',
    'client: larkspur logistics',
    'tags: cranes',
    'tags: safety',
    'tags: audits',
    'tags: lifting',
    'author: tomasz wieczorek',
    'date: 2025-05-23',
    'budget: 4200',
  ], 'layout keys (draft, image, order) say how a page is rendered: not recorded');
  const client = document.metadata!.entries.find((entry) => entry.key === 'client')!;
  assert.deepEqual([client.label, client.text], ['Client', 'Larkspur Logistics'], 'the key and value as the person wrote them');
  assert.equal(document.metadata!.note, null);
  assert.ok(!document.flags.includes('metadata_left_out'));
  stillRead(document);
});

test('which keys are subject evidence: tags, subject, category, project, client, case…; not title, author, dates or layout', () => {
  for (const key of ['tags', 'subject', 'category', 'project', 'client', 'customer', 'case', 'matter', 'topic']) assert.ok(countsAsSubject(key), key);
  for (const key of ['title', 'author', 'date', 'layout', 'draft', 'slug', 'lang', 'budget']) assert.ok(!countsAsSubject(key), key);
  assert.equal(normaliseKey('Keywords'), 'tags');
  assert.equal(normaliseKey('Categories'), 'category');
  assert.equal(normaliseKey('Project Code'), 'project_code');
  assert.equal(normaliseKey('creator'), 'author');
  assert.equal(normaliseKey('x:y'), null, 'a key is a name, never holding the ":" that joins key and value');
  assert.equal(normaliseKey('!!!'), null);
  assert.equal(normaliseKey('constructor'), 'constructor', 'a key named like an object\'s own property is just a key');
  assert.equal(normaliseKey('__proto__'), '__proto__');
});

test('nested values are left out and said so; unknown YAML tags give their plain value, never code', async () => {
  const document = await markdown(withFrontMatter('project: GC-2\nclient: { name: Larkspur }\nrun: !!js/function "function () { return 1 }"\nsite: !include site.yaml'));
  assert.deepEqual(compared(document), ['project: gc-2', 'run: function () { return 1 }', 'site: site.yaml']);
  assert.match(document.metadata!.note!, /nested values under client are not read/);
  assert.ok(document.flags.includes('metadata_left_out'));
  stillRead(document);
});

test('hostile front matter gives a bounded result with a note, and the document is still read', async (t) => {
  await t.test('larger than the cap: not read at all', async () => {
    const huge = await markdown(withFrontMatter(`project: GC-2\nfiller: "${'x'.repeat(MAX_FRONT_MATTER_CHARS)}"`));
    assert.deepEqual(compared(huge), []);
    assert.equal(huge.metadata!.note, `front matter over ${MAX_FRONT_MATTER_CHARS / 1024} KiB not read`);
    assert.ok(huge.flags.includes('metadata_left_out'));
    stillRead(huge);
  });

  await t.test('nested beyond the parser\'s stack', async () => {
    const depth = 10_000;
    const deep = await markdown(withFrontMatter(`tags: ${'['.repeat(depth)}${']'.repeat(depth)}`));
    assert.deepEqual(compared(deep), []);
    assert.equal(deep.metadata!.note, 'front matter not read: nested too deeply');
    stillRead(deep);
  });

  await t.test('a billion laughs: aliases expanding exponentially', async () => {
    const lines = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let level = 1; level < 10; level += 1) {
      const name = String.fromCharCode(97 + level);
      const previous = String.fromCharCode(96 + level);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
    }
    const laughs = await markdown(withFrontMatter(`project: GC-2\n${lines.join('\n')}`));
    assert.deepEqual(compared(laughs), []);
    assert.equal(laughs.metadata!.note, `front matter not read: more than ${MAX_FRONT_MATTER_ALIASES} aliases expanded`);
    stillRead(laughs);
  });

  await t.test('a flood of values: capped per key and per document', async () => {
    const tags = Array.from({ length: 500 }, (_, n) => `tag${n}`).join(', ');
    const keys = Array.from({ length: 100 }, (_, n) => `key${n}: value ${n}`).join('\n');
    const flood = await markdown(withFrontMatter(`tags: "${tags}"\n${keys}\nproject: "${'long '.repeat(40)}"`));
    const entries = flood.metadata!.entries;
    assert.equal(entries.length, MAX_METADATA_ENTRIES);
    assert.equal(entries.filter((entry) => entry.key === 'tags').length, MAX_VALUES_PER_KEY);
    assert.match(flood.metadata!.note!, /more values left out \(at most 40, 20 per key\)/);
    assert.match(flood.metadata!.note!, /a project value over 120 characters/, 'a compared value is a name or code: a long one is left out');
    stillRead(flood);
  });

  await t.test('a long value only shown (a description) is cut, not left out, and nothing is flagged for it', async () => {
    const described = await markdown(withFrontMatter(`description: "${'A sentence about the guide. '.repeat(8)}"\nproject: GC-2`));
    const description = described.metadata!.entries.find((entry) => entry.key === 'description');
    assert.equal(description?.text.length, 120);
    assert.match(description!.text, /^A sentence about the guide\..*…$/);
    assert.equal(described.metadata!.note, null);
    assert.ok(!described.flags.includes('metadata_left_out'));
  });

  await t.test('malformed YAML', async () => {
    const broken = await markdown(withFrontMatter('project: [GC-2'));
    assert.deepEqual(compared(broken), []);
    assert.equal(broken.metadata!.note, 'front matter not read: not valid YAML');
    assert.equal(broken.title, 'Crane note', 'the first heading is the title');
  });
});

test('DOCX core properties: subject, keywords (a list), category and the author, as Word writes them', async () => {
  const core =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">' +
    '<dc:title>Supplier review</dc:title>' +
    `<dc:subject>${escapeXml('Example Ltd & partners')}</dc:subject>` +
    '<cp:keywords>suppliers; GC-2, audits</cp:keywords>' +
    '<cp:category>Procurement</cp:category>' +
    '<dc:creator>Priya Raman</dc:creator>' +
    '</cp:coreProperties>';
  const bytes = await makeDocx(wPara(wRun('The supplier review found two open actions.')), { extra: { 'docProps/core.xml': core } });
  const document = await docxParser.parse(bytes, 'review.docx');
  assert.deepEqual(
    document.metadata!.entries.map((entry) => [entry.label, entry.text, entry.key]),
    [
      ['subject', 'Example Ltd & partners', 'subject'],
      ['keywords', 'suppliers', 'tags'],
      ['keywords', 'GC-2', 'tags'],
      ['keywords', 'audits', 'tags'],
      ['category', 'Procurement', 'category'],
      ['author', 'Priya Raman', 'author'],
    ],
  );
  assert.equal(docxParser.version, 'docx@5');

  // Elements named like an object's own properties are not properties of the document.
  const odd = core.replace('<cp:category>', '<cp:constructor>x</cp:constructor><cp:toString>y</cp:toString><cp:category>');
  const oddDocument = await docxParser.parse(await makeDocx(wPara(wRun('Odd properties.')), { extra: { 'docProps/core.xml': odd } }), 'odd.docx');
  assert.equal(oddDocument.metadata!.entries.length, 6);

  const without = await docxParser.parse(await makeDocx(wPara(wRun('No properties part.'))), 'plain.docx');
  assert.deepEqual(without.metadata, { entries: [], note: null });
});

test('PDF document information: Subject, Keywords (a list) and Author; the Title stays the title', async () => {
  const bytes = makePdf([pdfText('Site safety inspection, third quarter.', 700)], 0, {
    Title: 'Site safety inspection Q3',
    Subject: 'Northgate site safety',
    Keywords: 'inspection; GC-2, Bay 4',
    Author: 'Amara Osei',
  });
  const document = await pdfParser.parse(bytes, 'inspection.pdf');
  assert.equal(document.title, 'Site safety inspection Q3');
  assert.deepEqual(
    document.metadata!.entries.map((entry) => `${entry.label}=${entry.text} (${entry.key}: ${entry.value})`),
    [
      'Subject=Northgate site safety (subject: northgate site safety)',
      'Keywords=inspection (tags: inspection)',
      'Keywords=GC-2 (tags: gc-2)',
      'Keywords=Bay 4 (tags: bay 4)',
      'Author=Amara Osei (author: amara osei)',
    ],
  );
  assert.equal(pdfParser.version, 'pdf@4');
});
