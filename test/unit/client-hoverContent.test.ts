// The hover's Markdown: over a name Relata knows, the items that mention it; over the first line,
// the relationships with their type, strength and review status, and a contradiction's two
// figures; nothing over a plain word; links that only run Relata's open commands; document text
// escaped so a title cannot inject links, HTML or formatting.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RelatedResult } from '../../shared/protocol.ts';
import type { RelationshipView } from '../../shared/types.ts';
import { escapeMarkdown, hoverMarkdown, itemLines } from '../../client/src/hoverContent.ts';
import { localDateText } from '../../shared/decisionDate.ts';

const self = { item_id: 'i1', path: 'maintenance/gc2.md', title: 'GC-2 refurbishment' };
const other = { item_id: 'i2', path: 'finance/q2.md', title: 'Q2 budget' };

function relationship(status: RelationshipView['status'], to = other): RelationshipView {
  return {
    id: 'r1', from: self, to, type: 'contradicts', score: 0.72, score_version: 'relationship-score-v1', status, near_duplicate: false,
    signals: [], produced_by: 'discover@1', created_at: '', updated_at: '', decided_by: null, decided_at: null, note: null,
    changed_since_decision: null,
  };
}

const FIRST = { firstLine: true };
const related = (overrides: Partial<RelatedResult>): RelatedResult => ({ folder: 'file:///demo', item: self, relationships: [], mentions: [], ...overrides });

test('a relationship line says type, the other item, strength, and whether a person reviewed it', () => {
  const pending = hoverMarkdown(related({ relationships: [relationship('pending')] }), FIRST)!;
  assert.match(pending, /contradicts: \[Q2 budget\]\(command:relata\.openItem\?/);
  assert.match(pending, /strength 0\.72, suggested by analysis, not yet reviewed/);
  assert.match(pending, /not a probability/);
  assert.match(hoverMarkdown(related({ relationships: [relationship('confirmed')] }), FIRST)!, /strength 0\.72, confirmed/);
});

test('a rejected relationship whose evidence changed says so, escaped, beside its status', () => {
  const changed: RelationshipView = {
    ...relationship('rejected'),
    changed_since_decision: {
      decision: 'rejected',
      decided_by: 'ana',
      decided_at: '2026-12-01T10:00:00Z',
      note: 'coincidence',
      changes: ['type was supports, now contradicts'],
    },
  };
  const markdown = hoverMarkdown(related({ relationships: [changed] }), FIRST)!;
  assert.ok(
    markdown.includes(
      'rejected, evidence changed since you rejected it \\(rejected by ana on 2026\\-12\\-01, note: coincidence\\): type was supports, now contradicts · [why?]',
    ),
    markdown,
  );
  assert.doesNotMatch(hoverMarkdown(related({ relationships: [relationship('rejected')] }), FIRST)!, /changed since/);
});

test('links carry the folder and path as command arguments', () => {
  const markdown = hoverMarkdown(related({ relationships: [relationship('pending')] }), FIRST)!;
  const [, encoded] = markdown.match(/command:relata\.openItem\?([^)]+)\)/)!;
  assert.deepEqual(JSON.parse(decodeURIComponent(encoded!)), [{ folder: 'file:///demo', path: 'finance/q2.md' }]);
  assert.match(markdown, /command:relata\.openRelationship\?/);
});

test('over an entity mention, the other items that mention it are listed', () => {
  const markdown = hoverMarkdown(related({ mentions: [{ key: 'organisation:example ltd', surface: 'Example Ltd', type: 'organisation', items: [other] }] }), FIRST)!;
  assert.match(markdown, /\*\*Example Ltd\*\* \(organisation\) is also mentioned in: \[Q2 budget\]/);
});

test('nothing to say gives no hover', () => {
  assert.equal(hoverMarkdown(related({}), FIRST), null);
  assert.equal(hoverMarkdown(related({}), { firstLine: false }), null);
});

test('over a plain word (no name Relata knows, not the first line) there is no hover, whatever the item\u2019s relationships', () => {
  assert.equal(hoverMarkdown(related({ relationships: [relationship('pending')] }), { firstLine: false }), null);
  assert.ok(hoverMarkdown(related({ relationships: [relationship('pending')] }), FIRST), 'the same item has a hover on its first line');
});

test('over a name Relata knows, the hover is about that name, even where no other item mentions it, and not the item\u2019s relationships', () => {
  const mention = { key: 'person:ana lima', surface: 'Ana Lima', type: 'person', items: [], start: 4, end: 12 };
  const markdown = hoverMarkdown(related({ mentions: [mention], relationships: [relationship('pending')] }), { firstLine: false })!;
  assert.match(markdown, /\*\*Ana Lima\*\* \(person\): Relata found no other item that mentions it\./);
  assert.doesNotMatch(markdown, /related to/);
});

test('a name only the model found says so in the hover', () => {
  const mention = { key: 'organisation:larkspur logistics', surface: 'Larkspur Logistics', type: 'organisation', items: [other], byModel: true, start: 0, end: 18 };
  const markdown = hoverMarkdown(related({ mentions: [mention] }), { firstLine: false })!;
  assert.match(markdown, /\*\*Larkspur Logistics\*\* \(organisation, named by the model, not by a rule\) is also mentioned in/);
});

test('on the first line, a contradiction shows its two figures, each with the item that states it, this file\u2019s first', () => {
  const markdown = hoverMarkdown(
    related({
      relationships: [relationship('pending')],
      conflicts: {
        r1: [
          {
            subject: 'gantry crane refurbishment',
            attribute: 'cost',
            detail: 'The sources give different figures for cost: 42000 and 51500.',
            sides: [
              { item: other, value: '51500 EUR', text: 'Budgeted 51,500 EUR for the crane.' },
              { item: self, value: '42000 EUR', text: 'The refurbishment cost 42,000 EUR.' },
            ],
          },
        ],
      },
    }),
    FIRST,
  )!;
  assert.match(markdown, /- cost of gantry crane refurbishment: \*\*42000 EUR\*\* \(this file\) vs \*\*51500 EUR\*\* \(Q2 budget\)/);
});

test('the document\u2019s first line is its first line of text', () => {
  const firstTextLine = (count: number, lineText: (line: number) => string) => itemLines(count, lineText).last;
  const lines = ['', '   ', '# GC-2 refurbishment', 'Body'];
  assert.equal(firstTextLine(lines.length, (line) => lines[line]!), 2);
  assert.equal(firstTextLine(0, () => ''), 0);
  const withFrontMatter = ['---', 'title: GC-2', 'date: 2025-05-23', '---', '', '# GC-2 refurbishment', 'Body'];
  assert.equal(firstTextLine(withFrontMatter.length, (line) => withFrontMatter[line]!), 5, 'front matter is passed over to the title');
  const ruleOnly = ['---', 'no closing fence'];
  assert.equal(firstTextLine(ruleOnly.length, (line) => ruleOnly[line]!), 0, 'an unclosed fence is just the first line');
  assert.deepEqual(itemLines(withFrontMatter.length, (line) => withFrontMatter[line]!), { first: 0, last: 5 }, 'the front matter, where the metadata is written, speaks for the item too');
  assert.deepEqual(itemLines(lines.length, (line) => lines[line]!), { first: 2, last: 2 });
});

test('a decision date in a changed-since note reads in the user\u2019s locale, not as raw ISO', () => {
  const changed: RelationshipView = {
    ...relationship('rejected'),
    changed_since_decision: { decision: 'rejected', decided_by: 'ana', decided_at: '2026-12-01T10:00:00Z', note: null, changes: ['type was supports, now contradicts'] },
  };
  const dateText = localDateText('de-DE');
  const markdown = hoverMarkdown(related({ relationships: [changed] }), { firstLine: true, dateText })!;
  assert.ok(markdown.includes(escapeMarkdown(dateText('2026-12-01T10:00:00Z'))), markdown);
  assert.doesNotMatch(markdown, /2026\\-12\\-01/);
});

test('document text is escaped: no injected links, HTML, images or emphasis', () => {
  const hostile = { item_id: 'i3', path: 'x/evil.md', title: '[click](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> **bold** `code`\n# heading' };
  const markdown = hoverMarkdown(related({ relationships: [relationship('pending', hostile)] }), FIRST)!;
  assert.ok(!markdown.includes('[click](command:workbench'), 'the title cannot form a link');
  assert.ok(!markdown.includes('<img'), 'no raw HTML');
  assert.ok(!markdown.includes('**bold**'), 'no emphasis from the title');
  assert.ok(!/\n# heading/.test(markdown), 'line breaks in a title are flattened');
  assert.match(markdown, /\\\[click\\\]\\\(command:workbench\\\.action\\\.terminal\\\.new\\\)/);
  assert.equal(escapeMarkdown('a_b*c'), 'a\\_b\\*c');
  assert.equal(escapeMarkdown('<b>&'), '&lt;b&gt;&amp;');
});

test('a relationship standing for the same one with the other item\u2019s copies names them on its line, escaped', () => {
  const once: RelationshipView = {
    ...relationship('pending'),
    also: [{ item_id: 'i3', path: 'drafts/q2_v2.md', kind: 'near_duplicate', similarity: 0.97 }],
  };
  const markdown = hoverMarkdown(related({ relationships: [once] }), FIRST)!;
  assert.equal(markdown.split('\n').filter((line) => line.startsWith('- ')).length, 1);
  assert.match(markdown, /\(also: drafts\/q2\\_v2\\\.md, near\\-duplicate, similarity 0\\\.97\) · \[why\?\]/);
});

test('on the first line the item\'s own metadata is shown, compared values first, escaped; elsewhere it is not', () => {
  const metadata = [
    { label: 'project', text: 'GC-2', compared: true },
    { label: 'tags', text: 'cranes', compared: true },
    { label: 'tags', text: '[safety](http://x)', compared: true },
    { label: 'author', text: 'Tom', compared: false },
  ];
  const markdown = hoverMarkdown(related({ metadata }), FIRST)!;
  assert.equal(markdown, `**Metadata:** ${escapeMarkdown('project: GC-2; tags: cranes, [safety](http://x) · also given, not used to relate files: author: Tom')}`);
  assert.doesNotMatch(markdown, /\]\(http/, 'a value cannot make a link');
  assert.equal(hoverMarkdown(related({ metadata }), { firstLine: false }), null);
  assert.equal(hoverMarkdown(related({ metadata: [] }), FIRST), null);
});

test('the title hover heads the relationships as this file\u2019s, never "related to" its own title', () => {
  const markdown = hoverMarkdown(related({ relationships: [relationship('pending')] }), FIRST)!;
  assert.match(markdown, /\*\*Relata: this file's relationships\*\*/);
  assert.doesNotMatch(markdown, /related to GC-2 refurbishment/);
});

test('a date-order relationship reads in plain words from this file\u2019s end: "happened after" when this file is the later one', () => {
  const later: RelationshipView = { ...relationship('pending'), type: 'occurred_before', from: other, to: self };
  const markdown = hoverMarkdown(related({ relationships: [later] }), FIRST)!;
  assert.match(markdown, /- happened after: \[Q2 budget\]/);
  assert.doesNotMatch(markdown, /occurred/);
});

test('on the first line the item’s language is named; elsewhere, and when it could not be told, it is not', () => {
  assert.match(hoverMarkdown(related({ language: 'de' }), FIRST) ?? '', /\*\*Language:\*\* German/);
  assert.equal(hoverMarkdown(related({ language: 'de' }), { firstLine: false }), null);
  assert.equal(hoverMarkdown(related({}), FIRST), null);
});
