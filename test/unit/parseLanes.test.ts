// The parse threads on their own: a parser's rejection keeps its reason, and a thread stopped at
// its time limit is replaced, so the next file is parsed as usual. Real parsers, real threads.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ParseLanes } from '../../server/src/pipeline/parseThreads/parseLanes.ts';
import { ParseError, ParseTimeoutError } from '../../server/src/parse/types.ts';
import { manyPagePdf } from '../support/hugeInputs.ts';

const NOTE = new TextEncoder().encode('# Crane inspection\n\nThe crane in bay four passed.\n');

test("a parser's rejection comes back as a ParseError with the parser's reason", async (t) => {
  const lanes = new ParseLanes({ lanes: 1, memoryMb: 256, timeoutMs: 60_000 });
  t.after(() => lanes.close());
  await assert.rejects(lanes.parse(new Uint8Array(), 'empty.pdf'), (error: unknown) => {
    assert.ok(error instanceof ParseError);
    assert.equal(error.message, 'empty file (0 bytes)');
    return true;
  });
  assert.equal((await lanes.parse(NOTE, 'note.md')).title, 'Crane inspection', 'the same thread goes on');
});

test('a thread stopped at its time limit is replaced, and the next file is parsed', async (t) => {
  const lanes = new ParseLanes({ lanes: 1, memoryMb: 256, timeoutMs: 500 });
  t.after(() => lanes.close());
  await assert.rejects(lanes.parse(manyPagePdf(6000), 'long.pdf'), (error: unknown) => {
    assert.ok(error instanceof ParseTimeoutError);
    assert.match(error.message, /^took longer than 0\.5 s to parse/);
    return true;
  });
  assert.equal((await lanes.parse(NOTE, 'note.md')).title, 'Crane inspection');
});

test('a file waiting for a lane is parsed once one frees up', async (t) => {
  const lanes = new ParseLanes({ lanes: 1, memoryMb: 256, timeoutMs: 60_000 });
  t.after(() => lanes.close());
  const documents = await Promise.all(['a.md', 'b.md', 'c.md'].map((name) => lanes.parse(NOTE, name)));
  assert.deepEqual(documents.map((document) => document.title), ['Crane inspection', 'Crane inspection', 'Crane inspection']);
});
