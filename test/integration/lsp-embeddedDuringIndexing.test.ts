// The folder's status during its first index counts the chunks embedded so far (issue 32): it
// reported 0 embedded until the whole first run was over, so a person watching a large folder index
// saw no embedding progress for the better part of an hour. Uses the default embedding model, which
// ships with the package, through `relata serve --stdio`.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const TOPICS = ['crane inspection', 'boiler maintenance', 'forklift training', 'roof repair', 'pump overhaul', 'fire drill'];

test('the folder status counts what is embedded while the first index runs, not 0 until it ends', { skip: needsBuild, timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t);
  const notes: Record<string, string> = {};
  for (let n = 0; n < 24; n += 1) {
    const topic = TOPICS[n % TOPICS.length]!;
    notes[`notes/${n}.md`] = `# ${topic} report ${n}\n\nExample Ltd carried out the ${topic} at site ${n} in May 2025. The ${topic} found ${n % 4} issues, fixed by the team of site ${n}.\n`;
  }
  const folder = writeFiles(path.join(root, 'folder'), notes);
  const server = await startServer(t, { folder, workspace: 'embedded-count', settings: { dataLocation: path.join(root, 'data') } });
  await server.watching();

  const reports = server.statuses.map((report) => report.folders[0]!).filter((status) => status !== undefined);
  const indexing = reports.filter((status) => status.state === 'indexing');
  const final = reports.at(-1)!;
  assert.ok(final.embeddedChunks > 0 && final.embeddedChunks === final.chunks, `every chunk embedded at the end: ${final.embeddedChunks} of ${final.chunks}`);
  const counted = indexing.filter((status) => status.embeddedChunks > 0);
  assert.ok(counted.length > 0, `a report during the first index counts embedded chunks: ${indexing.map((status) => status.embeddedChunks).join(', ')}`);
  assert.ok(counted.every((status) => status.embeddingModel === final.embeddingModel), 'the model named while indexing is the one named after');
  const counts = indexing.map((status) => status.embeddedChunks);
  assert.deepEqual(counts, [...counts].sort((a, b) => a - b), 'the count only grows while the folder indexes');
});
