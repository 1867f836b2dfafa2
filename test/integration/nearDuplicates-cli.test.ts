// Near-duplicates are flagged, never merged, and shown once (issue 13), through the built CLI: a
// budget memo, its byte-identical copy in an archive folder and a draft with one word added are
// one entry in `relata search --json` and one source in `relata ask --json`, each naming the
// others; the cost disagreement with the invoice that both memo texts carry is listed once, with
// every source on each side; the store still keeps every item and relationship. On docs/demo,
// the forklift report names its copy on the shared drive.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { AnswerResult, RelationshipView, SearchResponse } from '../../shared/types.ts';
import { COPIES_FOLDER, INVOICE, MEMO_PATHS, shownPaths } from '../support/copiesFolder.ts';
import { REPO_ROOT, writeFiles } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const DEMO = path.join(REPO_ROOT, 'docs', 'demo');
const skip = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';

let root: string;
const data = (name: string) => path.join(root, name);

function relata<T>(args: string[]): T {
  const run = spawnSync(process.execPath, [CLI, ...args, '--json'], { encoding: 'utf8', env: { ...process.env, RELATA_WORKSPACE: 'near-duplicates-test' } });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as T;
}

before(() => {
  if (skip) return;
  root = mkdtempSync(path.join(tmpdir(), 'relata-near-duplicates-'));
  // The default (offline) embedding model is on: near-duplicate similarity needs vectors.
  relata(['index', writeFiles(path.join(root, 'folder'), COPIES_FOLDER), '--data', data('copies')]);
  relata(['index', DEMO, '--data', data('demo')]);
}, { timeout: 5 * 60_000 });

after(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

test('search shows a document, its exact copy and its near-copy as one entry naming the others', { skip, timeout: 120_000 }, () => {
  const response = relata<SearchResponse>(['search', 'crane refurbishment cost', '--data', data('copies')]);
  const memo = response.results.filter((result) => MEMO_PATHS.includes(result.path));
  assert.equal(memo.length, 1, `one memo entry: ${response.results.map((result) => result.path).join(', ')}`);
  const also = memo[0]!.also ?? [];
  assert.deepEqual(shownPaths(memo).sort(), MEMO_PATHS, 'the entry names the two other memo files');
  const near = also.find((member) => member.kind === 'near_duplicate');
  // relationship-score-v2 flags near-copies by their shared text, not by a cosine: the similarity is
  // given only where the pair's similarity counted as evidence in its folder (SCORING.md, rule 5).
  assert.ok(near, `the draft is named as a near-duplicate: ${JSON.stringify(also)}`);
  assert.ok(near.similarity === null || near.similarity >= 0.9, 'a similarity given is the pair’s cosine');
  assert.ok(also.some((member) => member.kind === 'duplicate' && member.similarity === null), 'the exact copy is named as identical');
  assert.equal(response.results.filter((result) => result.path === INVOICE).length, 1);
  const paths = shownPaths(response.results);
  assert.equal(new Set(paths).size, paths.length, 'no file is shown twice');
  assert.equal(response.results[0]!.query_relevance, 1, 'relevance is normalised within the collapsed set');
});

test('ask gives the memo group one source label and lists the cost disagreement once, with every source on each side', { skip, timeout: 120_000 }, () => {
  const result = relata<AnswerResult>(['ask', 'What did the crane refurbishment cost?', '--data', data('copies')]);
  const memoSources = result.sources.filter((source) => MEMO_PATHS.includes(source.path));
  assert.equal(memoSources.length, 1, `one label for the memo group: ${result.sources.map((source) => `${source.label} ${source.path}`).join(', ')}`);
  assert.deepEqual(shownPaths(memoSources).sort(), MEMO_PATHS);
  assert.ok(result.sources.some((source) => source.path === INVOICE), 'the invoice is a source of its own');

  const cost = result.conflicts.filter((conflict) => conflict.attribute === 'cost');
  assert.equal(cost.length, 1, `the cost disagreement once: ${JSON.stringify(result.conflicts.map((conflict) => conflict.detail))}`);
  const sides = new Map(cost[0]!.sides!.map((side) => [side.value, side.items.map((item) => item.path).sort()]));
  assert.deepEqual(sides.get('51,500 EUR'), [INVOICE]);
  assert.deepEqual(sides.get('42,000 EUR'), MEMO_PATHS, 'the memo, its identical copy and its draft all state 42,000');
  assert.ok(cost[0]!.relationship_ids!.length >= 2, 'every relationship recording it is named');
  const shown = new Set(shownPaths(result.sources));
  for (const conflict of result.conflicts) for (const item of conflict.items) assert.ok(shown.has(item.path), `${item.path} is among the sources shown`);
});

test('collapsing merges nothing: the store keeps every relationship, the near-duplicate flag included', { skip, timeout: 120_000 }, () => {
  const relationships = relata<RelationshipView[]>(['relationships', '--data', data('copies')]);
  assert.ok(relationships.some((r) => r.near_duplicate), 'the near-duplicate flag is stored');
  const withInvoice = relationships.filter((r) => r.type === 'contradicts' && [r.from.path, r.to.path].includes(INVOICE));
  assert.equal(withInvoice.length, 1, 'the memo group contradicts the invoice with one voice, the original\'s');
  const stored = [withInvoice[0]!.id, ...(withInvoice[0]!.also_stated_by ?? []).map((statement) => statement.relationship_id)];
  assert.ok(stored.length >= 2, `each memo text keeps its own contradicts relationship with the invoice, the copy's named under the original's: ${stored.length}`);
});

test('on docs/demo, asking about the forklift collision gives the report and its copy one source label', { skip, timeout: 120_000 }, () => {
  const result = relata<AnswerResult>(['ask', 'What happened in the forklift collision in Bay 4?', '--data', data('demo')]);
  const forklift = result.sources.filter((source) => shownPaths([source]).some((shown) => shown.includes('forklift')));
  assert.equal(forklift.length, 1, result.sources.map((source) => source.path).join(', '));
  assert.deepEqual(shownPaths(forklift).sort(), ['incidents/incident-2025-03-14-forklift-collision.md', 'shared-drive/incidents-backup/incident-2025-03-14-forklift-collision.md']);
  assert.ok(result.sources.length > 1, 'the label left free goes to another source');
});

test('on docs/demo, the forklift report is one search entry naming its copy on the shared drive', { skip, timeout: 120_000 }, () => {
  const response = relata<SearchResponse>(['search', 'forklift collision in Bay 4', '--data', data('demo')]);
  const report = response.results.find((result) => result.path.startsWith('incidents/incident-2025-03-14') || result.path.startsWith('shared-drive/'));
  assert.ok(report, response.results.map((result) => result.path).join(', '));
  const paths = shownPaths([report]).sort();
  assert.deepEqual(paths, ['incidents/incident-2025-03-14-forklift-collision.md', 'shared-drive/incidents-backup/incident-2025-03-14-forklift-collision.md']);
  assert.equal(report.also![0]!.kind, 'duplicate');
  assert.equal(shownPaths(response.results).filter((shown) => paths.includes(shown)).length, 2, 'each of the two files is shown once');
});
