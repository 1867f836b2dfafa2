// Chunking and extraction cost only their own item, as parsing does: they run in the stage threads
// under the same memory and time limits, so the main thread keeps its event loop while a large text
// is chunked and extracted, and an item too costly to extract from fails with the reason while the
// rest of the folder is indexed. Real files (generated), real threads, real SQLite.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import type { PipelineSettings } from '../../server/src/pipeline/settings.ts';
import { longMarkdown } from '../support/hugeInputs.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const NOTE = '# Crane inspection\n\nThe crane in bay four passed its inspection on Monday.\n';

/** Plain paragraphs naming companies, people, sums and dates: extraction costs far more than parsing. */
function ledger(bytes: number): string {
  const paragraph =
    'Acme Holdings Ltd. paid $4.5 million to Dr. Jane Smith on 5 January 2024 for the gantry repairs. ' +
    'Revenue rose 12% in the third quarter, and Mr. John Doe of Harbour Cranes Inc. signed on 3 March 2024.\n\n';
  return paragraph.repeat(Math.ceil(bytes / paragraph.length));
}

async function openFolder(t: import('node:test').TestContext, files: Record<string, string>, settings: Partial<PipelineSettings> = {}) {
  const root = tempDir(t);
  const folder = writeFiles(path.join(root, 'folder'), files);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'alice', embedding: { kind: 'none' }, settings });
  t.after(() => index.close());
  return index;
}

// No stage may hit its time limit here (what is measured is the main thread's timers, not the
// limit); the default 60 s was exceeded by chunk + extract at load 20.
const NO_LIMIT = { parseTimeoutMs: 30 * 60_000 };

test('while a large text is chunked and extracted, the main thread keeps running its timers', async (t) => {
  const index = await openFolder(t, { 'log.md': longMarkdown(6_000_000) }, NO_LIMIT);
  let last = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, 10);
  const elapsed = { chunk: 0, extract: 0 };
  try {
    await index.index({
      onProgress: ({ last: event }) => {
        if (event?.type === 'job-finished' && (event.job.stage === 'chunk' || event.job.stage === 'extract')) {
          elapsed[event.job.stage] = event.elapsedMs;
        }
      },
    });
  } finally {
    clearInterval(ticker);
  }
  const item = await index.store.getItemByPath('log.md');
  assert.equal(item?.status, 'indexed');
  assert.ok((await index.store.listPhrases(item.id)).length > 0, 'the item was extracted');
  const threaded = elapsed.chunk + elapsed.extract;
  assert.ok(threaded > 1000, `chunking and extraction were slow enough to mean something (${threaded.toFixed(0)} ms)`);
  assert.ok(longestGap < threaded / 3, `the longest timer gap (${longestGap.toFixed(0)} ms) is far below chunk + extract (${threaded.toFixed(0)} ms)`);
  t.diagnostic(`chunk ${elapsed.chunk.toFixed(0)} ms, extract ${elapsed.extract.toFixed(0)} ms, longest timer gap ${longestGap.toFixed(0)} ms`);
});

test('an extraction that exceeds the time limit fails its item with that reason; the rest of the folder is indexed', async (t) => {
  // The limit must fall between what chunking and extracting the ledger take on this machine at this
  // load, so it is derived from an unlimited run of the same file: their geometric mean leaves each
  // stage a margin of √(extract / chunk), about 4.5× here, whichever way the load moves (a fixed
  // 2 s limit stopped the chunking instead at load 20).
  const text = ledger(1_200_000);
  const measured = { chunk: 0, extract: 0 };
  const baseline = await openFolder(t, { 'ledger.txt': text }, NO_LIMIT);
  await baseline.index({
    onProgress: ({ last: event }) => {
      if (event?.type === 'job-finished' && (event.job.stage === 'chunk' || event.job.stage === 'extract')) measured[event.job.stage] = event.elapsedMs;
    },
  });
  assert.ok(measured.extract > 4 * measured.chunk, `extracting costs far more than chunking (chunk ${measured.chunk.toFixed(0)} ms, extract ${measured.extract.toFixed(0)} ms)`);
  const limitMs = Math.max(1_000, Math.round(Math.sqrt(measured.chunk * measured.extract) / 100) * 100);
  t.diagnostic(`chunk ${measured.chunk.toFixed(0)} ms, extract ${measured.extract.toFixed(0)} ms: limit ${limitMs} ms`);

  const index = await openFolder(t, { 'ledger.txt': text, 'note.md': NOTE }, { parseTimeoutMs: limitMs });
  await index.index();
  const ledgerItem = await index.store.getItemByPath('ledger.txt');
  assert.equal(ledgerItem?.status, 'failed');
  assert.match(ledgerItem.reason ?? '', new RegExp(`^took longer than ${limitMs / 1000} s to extract; stopped`));
  assert.equal((await index.store.listChunks(ledgerItem.id)).length, 0, 'a failed item serves no passages');
  assert.equal((await index.store.getItemByPath('note.md'))?.status, 'indexed');
  const extractJob = (await index.store.listJobs()).find((job) => job.stage === 'extract' && job.subject === ledgerItem.id);
  assert.equal(extractJob?.attempts, 1, 'failed at once: the same bytes would fail the same way');
  // The next run leaves the unchanged file alone.
  await index.index();
  const again = await index.store.getItemByPath('ledger.txt');
  assert.equal(again?.status, 'failed');
  assert.equal(again.updatedAt, ledgerItem.updatedAt);
});
