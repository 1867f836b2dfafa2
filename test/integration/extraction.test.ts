// The extract stage on the demo folder, end to end through the CLI: entities and claims per
// item, entity frequencies across the workspace, and the demo's deliberate cost contradiction.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { compareClaims } from '../../server/src/extract/claims/compare.ts';
import type { Claim } from '../../server/src/extract/types.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const DEMO = path.join(REPO_ROOT, 'docs', 'demo');

function relata(args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, RELATA_WORKSPACE: 'extract-test' } });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

test('the demo folder yields entities, a shared organisation and two contradicting cost claims', {
  skip: existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first',
  timeout: 5 * 60_000,
}, (t) => {
  const data = tempDir(t);
  relata(['index', DEMO, '--data', data, '--embedding-model', 'none', '--json']);
  const item = (file: string) => relata(['item', path.join(DEMO, file), '--data', data, '--json']);

  const maintenance = item('maintenance/gantry-crane-gc2-refurbishment-report.md');
  const finance = item('finance/q2-2025-capital-budget-review.md');
  for (const detail of [maintenance, finance]) {
    assert.ok(detail.entities.some((entity: { key: string }) => entity.key.startsWith('organisation:example')), `${detail.path} names Example Ltd`);
    assert.ok(detail.entities.every((entity: { producer: string }) => entity.producer === 'deterministic'));
    assert.ok(detail.concepts.length > 0, `${detail.path} has concepts`);
  }
  assert.ok(finance.entities.some((entity: { type: string; surface: string }) => entity.type === 'person' && /Fischer/.test(entity.surface)));

  const cost = (detail: { claims: Claim[] }, value: number) =>
    detail.claims.find((claim) => claim.kind === 'money' && claim.value === value && claim.unit === 'EUR');
  const claimed = cost(maintenance, 42000);
  const disputed = cost(finance, 51500);
  assert.ok(claimed, 'the maintenance report claims EUR 42,000');
  assert.ok(disputed, 'the finance memo claims EUR 51,500');
  const comparison = compareClaims(claimed!, disputed!);
  assert.equal(comparison?.relation, 'contradicts');
  t.diagnostic(comparison!.detail);

  // The handover note says "€42k" for the same work: a difference in formatting only, so agreement.
  const handover = item('notes/handover-gc2-2025-05-20.md');
  const restated = cost(handover, 42000);
  assert.ok(restated, 'the handover note\'s €42k is read as 42000 EUR');
  assert.match(restated!.text, /€42k/);
  const topics = (detail: { title: string; concepts: { key: string }[] }) => [detail.title, ...detail.concepts.map((concept) => concept.key)];
  const agreement = compareClaims(restated!, claimed!, { topicsA: topics(handover), topicsB: topics(maintenance) });
  assert.equal(agreement?.relation, 'supports');
  t.diagnostic(agreement!.detail);

  const { entities } = relata(['entities', '--data', data, '--json']);
  const example = entities.find((entity: { key: string }) => entity.key.startsWith('organisation:example'));
  assert.ok(example.frequency >= 3, 'Example Ltd is mentioned across several items');
  assert.ok(example.items.includes('maintenance/gantry-crane-gc2-refurbishment-report.md'));
});
