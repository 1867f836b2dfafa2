// The rule that picks the original among identical files first seen together, read as its sentences.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareOriginals, hasCopyMarker } from '../../server/src/store/preferredOriginal.ts';

test('the names people give copies carry a copy marker, in any folder of the path', () => {
  for (const copy of ['Report - Copy.md', 'report copy.md', 'report (1).md', 'report_old.md', 'backup/report.md', 'archive/2025/report.md', 'Bericht Kopie.md', 'report.bak.md', 'Archived/report.md']) {
    assert.ok(hasCopyMarker(copy), copy);
  }
});

test('words that merely contain a marker are not copies', () => {
  for (const name of ['copyright.md', 'golden-rules.md', 'bold-plan.md', 'archivist-notes.md', 'report.md', 'notes/2025/q1.md']) {
    assert.ok(!hasCopyMarker(name), name);
  }
});

test('modification time first, then path length, then copy markers, then path order', () => {
  const at = (path: string, modifiedMs: number | null = 1000) => ({ path, modifiedMs });
  assert.ok(compareOriginals(at('archive/report.md', 1000), at('report.md', 60_000)) < 0, 'older wins over shorter');
  assert.ok(compareOriginals(at('archive/report.md', 1000), at('report.md', 2500)) > 0, 'written in one copy (within 2 s): the same time');
  assert.ok(compareOriginals(at('report.md'), at('archive/report.md')) < 0, 'shorter wins when times are equal');
  assert.ok(compareOriginals(at('main/a.md'), at('copy/a.md')) < 0, 'unmarked wins when lengths are equal');
  assert.ok(compareOriginals(at('a/plan.md'), at('b/plan.md')) < 0, 'path order last');
  assert.ok(compareOriginals(at('report.md', null), at('archive/report.md', 1)) < 0, 'an unknown time does not decide');
  assert.equal(compareOriginals(at('a.md'), at('a.md')), 0);
});
