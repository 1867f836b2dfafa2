import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeLocation } from '../../client/src/locations.ts';

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
