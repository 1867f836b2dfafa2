// The parsed-text view's layout and its position mapping (shared/parsedTextView.ts), and which
// files open in it (client/src/parsedText/parsedTextRoute.ts): pure, so tested without VS Code.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layOutParsedText, passageAt, type ParsedTextView } from '../../shared/parsedTextView.ts';
import { opensAsParsedText, parsedTextPath, relativeOfParsedTextPath } from '../../client/src/parsedText/parsedTextRoute.ts';

function view(over: Partial<ParsedTextView> = {}): ParsedTextView {
  return {
    path: 'decks/review.pptx',
    title: 'Crane review',
    status: 'indexed',
    reason: null,
    parserVersion: 'pptx@1',
    updatedAt: '2025-06-02T10:00:00.000Z',
    passages: [
      { location: { kind: 'pages', start: 1, end: 2 }, headingPath: ['Crane review'], text: 'Crane review\nQ2 2025' },
      { location: { kind: 'pages', start: 3, end: 3 }, headingPath: ['Costs'], text: 'Refurbishment by Harbourline\nCost 42,000 EUR\nNotes: ask finance' },
      { location: { kind: 'pages', start: 3, end: 3 }, headingPath: ['Costs'], text: 'Schedule: June\nThe kestrel nest delays the crane work' },
    ],
    passagesLeftOut: 0,
    hiddenCount: 0,
    truncated: null,
    ...over,
  };
}

const lineOf = (text: string) => {
  const lines = text.split('\n');
  return (line: number) => lines[line] ?? '';
};

test('the view names the file and lays each passage out under its location, slides said as slides', () => {
  const laidOut = layOutParsedText(view());
  const lines = laidOut.text.split('\n');
  assert.equal(lines[0], 'Parsed text of decks/review.pptx ("Crane review"), as Relata stored it.');
  assert.equal(lines[1], 'Read-only: "Open original" opens the file itself.');
  assert.equal(laidOut.passages.length, 3);
  assert.deepEqual(laidOut.passages.map((passage) => lines[passage.labelLine]), ['── slides 1-2 · Crane review ──', '── slide 3 · Costs ──', '── slide 3 · Costs ──']);
  const second = laidOut.passages[1]!;
  assert.deepEqual(lines.slice(second.startLine, second.endLine + 1), ['Refurbishment by Harbourline', 'Cost 42,000 EUR', 'Notes: ask finance']);
});

test('a sheet\'s rows are labelled with the sheet once, and text read by OCR says so with its confidence', () => {
  const laidOut = layOutParsedText(view({
    path: 'costs.xlsx',
    passages: [
      { location: { kind: 'rows', sheet: 'Budget', start: 2, end: 40 }, headingPath: ['Budget'], text: 'Sheet Budget, row 12: Supplier Harbourline; Cost 42,000 EUR' },
      { location: { kind: 'pages', start: 4, end: 4 }, headingPath: ['Page 4, read by OCR (91% confidence)'], text: 'scanned words' },
    ],
  }));
  assert.match(laidOut.text, /^── Budget, rows 2-40 ──$/m);
  assert.match(laidOut.text, /^── page 4 · read by OCR \(91% confidence\) ──$/m);
});

test('a label or title a crafted file fills with line breaks stays on one line, so no passage moves', () => {
  const laidOut = layOutParsedText(view({ title: 'a\nb\u2028c', passages: [{ location: { kind: 'rows', sheet: 'S\nheet', start: 1, end: 1 }, headingPath: ['x\r\ny'], text: 'one' }] }));
  const lines = laidOut.text.split('\n');
  assert.match(lines[0]!, /\("a b c"\)/);
  assert.equal(lines[laidOut.passages[0]!.startLine], 'one');
  assert.match(lines[laidOut.passages[0]!.labelLine]!, /^── S heet, row 1 · x y ──$/);
});

test('a passage is found at its exact location; among passages at one location, the one holding most of the query\'s words', () => {
  const laidOut = layOutParsedText(view());
  const at = lineOf(laidOut.text);
  assert.equal(passageAt(laidOut, { kind: 'pages', start: 1, end: 2 }, at), laidOut.passages[0]);
  assert.equal(passageAt(laidOut, { kind: 'pages', start: 3, end: 3 }, at), laidOut.passages[1], 'the first without words');
  assert.equal(passageAt(laidOut, { kind: 'pages', start: 3, end: 3 }, at, ['kestrel', 'nest']), laidOut.passages[2]);
});

test('a location the file no longer has exactly finds the passage overlapping it, and one it does not have at all finds none', () => {
  const laidOut = layOutParsedText(view());
  const at = lineOf(laidOut.text);
  assert.equal(passageAt(laidOut, { kind: 'pages', start: 2, end: 2 }, at), laidOut.passages[0]);
  assert.equal(passageAt(laidOut, { kind: 'pages', start: 9, end: 9 }, at), null);
  assert.equal(passageAt(laidOut, { kind: 'rows', sheet: 'Costs', start: 1, end: 3 }, at), null, 'another kind of location never matches');
  const sheets = layOutParsedText(view({ passages: [
    { location: { kind: 'rows', sheet: 'A', start: 1, end: 10 }, headingPath: [], text: 'a' },
    { location: { kind: 'rows', sheet: 'B', start: 1, end: 10 }, headingPath: [], text: 'b' },
  ] }));
  assert.equal(passageAt(sheets, { kind: 'rows', sheet: 'B', start: 4, end: 4 }, lineOf(sheets.text)), sheets.passages[1], 'rows of the named sheet, not of the first');
});

test('a file not indexed says why, with no passages; hidden text, a cut and passages left out are named', () => {
  const failed = layOutParsedText(view({ status: 'failed', reason: 'inflates to 64 MB (zip bomb?)', passages: [] }));
  assert.match(failed.text, /^Not indexed \(failed: inflates to 64 MB \(zip bomb\?\)\)\.$/m);
  assert.deepEqual(failed.passages, []);
  const named = layOutParsedText(view({ hiddenCount: 2, truncated: 'read up to 200,000 cells', passagesLeftOut: 5 }));
  assert.match(named.text, /Hidden text left out of the passages: 2 pieces \(relata item decks\/review\.pptx lists them\)\./);
  assert.match(named.text, /Only part of the file was read: read up to 200,000 cells\./);
  assert.match(named.text, /… 5 more passages left out of this view/);
});

test('passages by line open in the file itself; slides, sheet rows, pages and paragraphs open in the parsed text', () => {
  assert.equal(opensAsParsedText('notes.md', { kind: 'lines', start: 3, end: 5 }), false);
  assert.equal(opensAsParsedText('data/table.csv', { kind: 'lines', start: 3, end: 5 }), false);
  assert.equal(opensAsParsedText('deck.pptx', { kind: 'pages', start: 3, end: 3 }), true);
  assert.equal(opensAsParsedText('costs.xlsx', { kind: 'rows', sheet: 'Costs', start: 2, end: 9 }), true);
  assert.equal(opensAsParsedText('mail/thread.eml', { kind: 'blocks', start: 4, end: 4 }), true);
  assert.equal(opensAsParsedText('report.PDF', null), true, 'a binary container without a passage too');
  assert.equal(opensAsParsedText('mail/thread.eml', null), false, 'a text file without a passage opens as itself');
  assert.equal(opensAsParsedText('scan.png', undefined), false, 'an image VS Code shows opens as itself');
  assert.equal(opensAsParsedText('folder.pdf/readme', undefined), false);
});

test('the view\'s URI path names the file and gives its folder-relative path back; anything else is no view', () => {
  assert.equal(parsedTextPath('office/testPPT.pptx'), '/office/testPPT.pptx (parsed text)');
  assert.equal(relativeOfParsedTextPath(parsedTextPath('office/testPPT.pptx')), 'office/testPPT.pptx');
  assert.equal(relativeOfParsedTextPath('/office/testPPT.pptx'), null);
  assert.equal(relativeOfParsedTextPath('/ (parsed text)'), null);
});
