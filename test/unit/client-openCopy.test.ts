// A copy in the editor: the hover says it is identical to its original, and a search result for
// that original opens the copy the person has open.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hoverMarkdown } from '../../client/src/hoverContent.ts';
import { pathToOpen } from '../../client/src/openCopy.ts';
import type { ItemResult } from '../../shared/protocol.ts';

const FOLDER = 'file:///w/demo';

test('the hover on a copy\u2019s first line says which file it is identical to, even with nothing else to show', () => {
  const copy = {
    folder: FOLDER,
    item: { item_id: 'i1', path: 'report.md', title: 'Report' },
    identicalCopy: 'archive/report.md',
    relationships: [],
    mentions: [],
  };
  assert.match(hoverMarkdown(copy, { firstLine: true }) ?? '', /this file is identical to \[report\\\.md\]\(command:relata\.openItem/);
  assert.equal(hoverMarkdown(copy, { firstLine: false }), null, 'not repeated over every word of the copy');
  assert.equal(hoverMarkdown({ folder: FOLDER, item: { item_id: 'i1', path: 'report.md', title: 'Report' }, relationships: [], mentions: [] }, { firstLine: true }), null);
});

test('a search result for the original of the open copy opens the copy; any other result opens its own path', () => {
  const open = { folder: FOLDER, item: { id: 'i1', path: 'report.md', identicalCopy: 'archive/report.md' } } as unknown as ItemResult;
  assert.equal(pathToOpen(FOLDER, 'i1', 'report.md', open), 'archive/report.md');
  assert.equal(pathToOpen(FOLDER, 'i2', 'budget.md', open), 'budget.md');
  assert.equal(pathToOpen('file:///w/other', 'i1', 'report.md', open), 'report.md');
  assert.equal(pathToOpen(FOLDER, 'i1', 'report.md', null), 'report.md');
  const notACopy = { folder: FOLDER, item: { id: 'i1', path: 'report.md' } } as unknown as ItemResult;
  assert.equal(pathToOpen(FOLDER, 'i1', 'report.md', notACopy), 'report.md');
});
