// The stage threads on their own: a parser's rejection keeps its reason, a thread stopped at its
// time limit is replaced, so the next job runs as usual, and chunking and extraction in a thread
// give exactly what they give on the main thread. Real parsers, real threads.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ParseError, ParseTimeoutError } from '../../server/src/parse/types.ts';
import { parseFile } from '../../server/src/parse/registry.ts';
import { passagesOf } from '../../server/src/pipeline/stages/chunk.ts';
import { extractionOf } from '../../server/src/pipeline/stages/extract.ts';
import { StageThreads, ThreadLimitError } from '../../server/src/pipeline/threads/stageThreads.ts';
import { longMarkdown, manyPagePdf } from '../support/hugeInputs.ts';

const NOTE = new TextEncoder().encode('# Crane inspection\n\nThe crane in bay four passed.\n');
const REPORT =
  '# Quarterly report\n\nAcme Holdings Ltd. paid $4.5 million to Dr. Jane Smith on 5 January 2024.\n\n' +
  '## Operations\n\nRevenue rose 12% in the third quarter. Write to jane.smith@example.com for the figures.\n\n' +
  longMarkdown(40_000);

// The time limit the two tests below stop a job at, measured here rather than fixed, since the job
// after the stopped one must finish within it at any load: twenty times what the note's parse
// takes on a thread that has just started (as the thread that replaces a stopped one has), and
// never under half a second. The stopped jobs take many seconds on an idle machine.
async function limitFromNote(): Promise<number> {
  const threads = new StageThreads({ lanes: 1, memoryMb: 256, timeoutMs: 10 * 60_000 });
  try {
    await assert.rejects(threads.parse(new Uint8Array(), 'empty.pdf')); // starts the thread
    const started = performance.now();
    await threads.parse(NOTE, 'note.md');
    return Math.max(500, Math.ceil((20 * (performance.now() - started)) / 100) * 100);
  } finally {
    await threads.close();
  }
}

const inSeconds = (ms: number) => String(ms / 1000).replace('.', '\\.');

test("a parser's rejection comes back as a ParseError with the parser's reason", async (t) => {
  const threads = new StageThreads({ lanes: 1, memoryMb: 256, timeoutMs: 60_000 });
  t.after(() => threads.close());
  await assert.rejects(threads.parse(new Uint8Array(), 'empty.pdf'), (error: unknown) => {
    assert.ok(error instanceof ParseError);
    assert.equal(error.message, 'empty file (0 bytes)');
    return true;
  });
  assert.equal((await threads.parse(NOTE, 'note.md')).title, 'Crane inspection', 'the same thread goes on');
});

test('a thread stopped at its time limit is replaced, and the next file is parsed', async (t) => {
  const timeoutMs = await limitFromNote();
  const threads = new StageThreads({ lanes: 1, memoryMb: 256, timeoutMs });
  t.after(() => threads.close());
  await assert.rejects(threads.parse(manyPagePdf(6000), 'long.pdf'), (error: unknown) => {
    assert.ok(error instanceof ParseTimeoutError);
    assert.match(error.message, new RegExp(`^took longer than ${inSeconds(timeoutMs)} s to parse`));
    return true;
  });
  assert.equal((await threads.parse(NOTE, 'note.md')).title, 'Crane inspection');
});

test('a file waiting for a lane is parsed once one frees up', async (t) => {
  const threads = new StageThreads({ lanes: 1, memoryMb: 256, timeoutMs: 60_000 });
  t.after(() => threads.close());
  const documents = await Promise.all(['a.md', 'b.md', 'c.md'].map((name) => threads.parse(NOTE, name)));
  assert.deepEqual(documents.map((document) => document.title), ['Crane inspection', 'Crane inspection', 'Crane inspection']);
});

test('chunking in a thread gives the same passages and ids as chunking here', async (t) => {
  const threads = new StageThreads({ lanes: 1, memoryMb: 256, timeoutMs: 60_000 });
  t.after(() => threads.close());
  const { blocks } = await parseFile(new TextEncoder().encode(REPORT), 'report.md');
  const chunks = await threads.chunk('alice', 'item-1', 'hash-1', blocks);
  assert.ok(chunks.length > 10, `a long report gives many passages (${chunks.length})`);
  assert.deepEqual(chunks, passagesOf('alice', 'item-1', 'hash-1', blocks));
});

test('extraction in a thread gives the same entities, claims and phrases as extracting here', async (t) => {
  const threads = new StageThreads({ lanes: 1, memoryMb: 256, timeoutMs: 60_000 });
  t.after(() => threads.close());
  const { blocks } = await parseFile(new TextEncoder().encode(REPORT), 'report.md');
  const chunks = passagesOf('alice', 'item-1', 'hash-1', blocks);
  const extraction = await threads.extract('Quarterly report', chunks);
  assert.ok(extraction.entities.length > 0 && extraction.claims.length > 0 && extraction.phrases.length > 0);
  assert.deepEqual(extraction, extractionOf('Quarterly report', chunks));
});

test('a chunk job stopped at its time limit fails with a ThreadLimitError naming the stage; the next job runs', async (t) => {
  const timeoutMs = await limitFromNote();
  const threads = new StageThreads({ lanes: 1, memoryMb: 512, timeoutMs });
  t.after(() => threads.close());
  const line = 'crane inspection report for the gantry in bay four '.repeat(600_000); // 30 MB on one line
  const blocks = [{ kind: 'paragraph' as const, text: line, headingPath: [], location: { kind: 'lines' as const, start: 1, end: 1 } }];
  await assert.rejects(threads.chunk('alice', 'item-1', 'hash-1', blocks), (error: unknown) => {
    assert.ok(error instanceof ThreadLimitError);
    assert.match(error.message, new RegExp(`^took longer than ${inSeconds(timeoutMs)} s to chunk; stopped`));
    return true;
  });
  assert.equal((await threads.parse(NOTE, 'note.md')).title, 'Crane inspection', 'a new thread took its place');
});

test('an extract job that exhausts the memory limit fails with a ThreadLimitError naming the stage', async (t) => {
  // 64 MB, not 32: a thread warms its extractors before it says it is ready, and that alone came
  // within a garbage collection of 32 MB (one start in three failed); 12,000 passages exceed 64 MB.
  const threads = new StageThreads({ lanes: 1, memoryMb: 64, timeoutMs: 30 * 60_000 });
  t.after(() => threads.close());
  const chunks = Array.from({ length: 12_000 }, (_, ordinal) => ({
    id: `chunk-${ordinal}`,
    text: `Unit ${ordinal} of Acme Holdings Ltd. paid $${ordinal}.5 million on 5 January 2024. `.repeat(60),
    headingPath: [],
  }));
  await assert.rejects(threads.extract('Ledger', chunks), (error: unknown) => {
    assert.ok(error instanceof ThreadLimitError);
    assert.match(error.message, /^exceeded 64 MB of memory while extracting; stopped/);
    return true;
  });
});
