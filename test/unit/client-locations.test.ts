import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeLocation, passageFocus } from '../../client/src/locations.ts';
import { namedWords } from '../../shared/queryWords.ts';

test('a slide deck passage is said as its slide, a PDF page as a page, a DOCX block as a paragraph', () => {
  assert.equal(describeLocation({ kind: 'pages', start: 4, end: 4 }, 'decks/Q3 review.pptx'), 'slide 4');
  assert.equal(describeLocation({ kind: 'pages', start: 2, end: 3 }, 'talk.odp'), 'slides 2-3');
  assert.equal(describeLocation({ kind: 'pages', start: 4, end: 4 }, 'report.pdf'), 'page 4');
  assert.equal(describeLocation({ kind: 'blocks', start: 7, end: 7 }, 'notes.docx'), 'paragraph 7');
  assert.equal(describeLocation({ kind: 'lines', start: 20, end: 20 }, 'costs.csv'), 'line 20');
});

test('a spreadsheet passage is said as its sheet and row range, wherever it is described', () => {
  assert.equal(describeLocation({ kind: 'rows', sheet: 'Costs', start: 2, end: 40 }, 'budget.xlsx'), 'Costs, rows 2-40');
  assert.equal(describeLocation({ kind: 'rows', sheet: 'Sheet1', start: 12, end: 12 }, 'budget.ods'), 'Sheet1, row 12');
});

test('an opened passage highlights its own lines and selects the query\u2019s words where most of them stand together, not the whole passage', () => {
  const file = [
    '# Q2 2025 capital budget review',
    '',
    'The budget covers several projects.',
    'The gantry crane was inspected in May.',
    'The gantry crane refurbishment cost EUR 51,500 in the end.',
    'Other lines follow.',
  ];
  const focus = passageFocus({ kind: 'lines', start: 3, end: 6 }, file.length, (line) => file[line]!, namedWords('gantry crane refurbishment cost'));
  assert.deepEqual(focus, { startLine: 2, endLine: 5, selection: { line: 4, start: 4, end: 35 } });
  assert.equal(file[4]!.slice(4, 35), 'gantry crane refurbishment cost');
});

test('on a long line (a Markdown paragraph) only the run of the query\u2019s words is selected, not the line from first word to last', () => {
  const paragraph = `A license tells people what they may do. ${'Filler words that say nothing in particular here. '.repeat(4)}Choosing an open source license is easy with choosealicense.com, and the license then applies.`;
  const focus = passageFocus({ kind: 'lines', start: 1, end: 1 }, 1, () => paragraph, namedWords('choosing an open source license'));
  const { start, end } = focus!.selection;
  assert.equal(paragraph.slice(start, end), 'Choosing an open source license');
});

test('without the query\u2019s words in the passage, the cursor goes to the passage\u2019s first line; a passage past a shortened file is cut to it', () => {
  const file = ['one', 'two', 'three'];
  assert.deepEqual(passageFocus({ kind: 'lines', start: 2, end: 9 }, file.length, (line) => file[line]!, ['zebra']), { startLine: 1, endLine: 2, selection: { line: 1, start: 0, end: 0 } });
  assert.equal(passageFocus({ kind: 'pages', start: 2, end: 2 }, 3, () => '', []), null, 'a page has no lines to highlight');
});
