// `relata related <path>` from the built CLI on docs/demo (embedding none): the JSON keeps its
// documented shape (the eval harness reads it), the text names each number for what it is,
// --only-unlinked and --limit work, and a bad path or limit is refused with the reason.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const DEMO = path.join(REPO_ROOT, 'docs', 'demo');
const REPORT = path.join(DEMO, 'maintenance', 'gantry-crane-gc2-refurbishment-report.md');

const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, RELATA_WORKSPACE: 'related-cli' } });

test('relata related lists relationships, then content neighbours, in a stable JSON shape and in words', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
  timeout: 5 * 60_000,
}, (t) => {
  const data = tempDir(t);
  assert.equal(run(['index', DEMO, '--data', data, '--embedding-model', 'none']).status, 0);

  const json = run(['related', REPORT, '--data', data, '--json', '--limit', '5']);
  assert.equal(json.status, 0, json.stderr);
  const view = JSON.parse(json.stdout);
  assert.deepEqual(Object.keys(view).sort(), ['entries', 'item', 'notes', 'similarity_label']);
  assert.equal(view.item.path, 'maintenance/gantry-crane-gc2-refurbishment-report.md');
  assert.ok(view.entries.length > 0 && view.entries.length <= 5);
  for (const entry of view.entries) {
    assert.deepEqual(Object.keys(entry).sort(), ['item', 'kind', 'linked', 'passage', 'relationship', 'similarity', 'why']);
    assert.deepEqual(Object.keys(entry.item).sort(), ['item_id', 'path', 'title']);
  }
  assert.equal(view.entries[0].kind, 'relationship');

  const text = run(['related', REPORT, '--data', data]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /contradicts .*finance\/q2-2025-capital-budget-review\.md/);
  assert.match(text.stdout, /strength \d\.\d\d \(relationship-score-v\d, not a probability\)/);
  assert.match(text.stdout, /similar content/);
  assert.match(text.stdout, /not linked yet/);

  const unlinked = JSON.parse(run(['related', REPORT, '--data', data, '--json', '--only-unlinked']).stdout);
  assert.ok(unlinked.entries.every((entry: { linked: boolean }) => !entry.linked));

  const missing = run(['related', path.join(DEMO, 'no-such-file.md'), '--data', data]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /no-such-file\.md/);
  const badLimit = run(['related', REPORT, '--data', data, '--limit', 'lots']);
  assert.notEqual(badLimit.status, 0);
  assert.match(badLimit.stderr, /--limit must be a whole number/);
});
