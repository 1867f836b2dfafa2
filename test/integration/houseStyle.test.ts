// House style is not subject matter: two incident reports written from one template (the same
// section headings, the same team and mailbox in the footer) about different events must not
// read as related enough for search to expand through them, while two reports of that template
// about the same chiller still share concepts and relate. Real files, the real pipeline, the
// offline default embedding model.

import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { RelationshipView } from '../../shared/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { DEFAULT_EXPANSION_MIN_SCORE } from '../../server/src/ranking/weights.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/index.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const CHILLER_TRIP = `# Incident report IR-2025-041: Chiller trip in the east plant room

## Summary

On the night of 3 June 2025 the number two chiller in the east plant room tripped on low refrigerant pressure. Server room temperatures rose to 27 degrees before the standby unit took the load. No equipment was damaged and no service was interrupted.

## Cause

A flare fitting on the refrigerant suction line had worked loose. The leak detector in the plant room had been disconnected during the roof repairs in January and was not reconnected, so the slow leak went unnoticed for several weeks.

## Actions taken

The fitting was replaced and the circuit recharged by the refrigeration engineer. The leak detector was reconnected and tested. The chiller was returned to service the following afternoon.

## Follow-up

The plant room checklist now includes the leak detector status. The refrigeration contractor will inspect every flare fitting on both chillers at the next quarterly service.

---

Harbourside Facilities Team · facilities@harbourside.example
`;

const BARRIER = `# Incident report IR-2025-043: Car park barrier struck a delivery van

## Summary

On 10 June 2025 the exit barrier of the visitor car park came down on the roof of a delivery van that was leaving behind a staff car. The van's roof panel was dented and the barrier arm snapped. The driver was not hurt.

## Cause

The barrier's safety loop under the road surface had failed, so the controller did not see the second vehicle. Tailgating through the exit lane is common at the end of the morning deliveries, and the loop had not been tested since its installation.

## Actions taken

The barrier arm was replaced, the failed safety loop was cut out and a new loop laid in the exit lane. The courier company was given the details for its insurer.

## Follow-up

Safety loops on every barrier will be tested each month. Signs asking drivers to wait for the barrier to close will be fitted at the exit lane.

---

Harbourside Facilities Team · facilities@harbourside.example
`;

const CHILLER_LEAK = `# Incident report IR-2025-058: Refrigerant leak on the number two chiller

## Summary

On 24 June 2025 the leak detector in the east plant room alarmed on the number two chiller, three weeks after the chiller trip reported in IR-2025-041. The chiller was shut down before it lost pressure and the standby unit carried the server room load.

## Cause

The flare fitting replaced after the trip had been fitted without a new flare nut. The old nut was cracked, and refrigerant escaped from the suction line at the same flare fitting.

## Actions taken

The refrigeration engineer cut back the suction line, made a new flare with a new nut and pressure tested the circuit before recharging the chiller. The leak detector was tested again.

## Follow-up

Every flare fitting on both chillers will be replaced with brazed joints at the quarterly service. The plant room checklist now records the leak detector reading each week.

---

Harbourside Facilities Team · facilities@harbourside.example
`;

const SECTION_HEADINGS = ['summary', 'cause', 'actions taken', 'follow-up'];

async function relationshipOf(t: TestContext, files: Record<string, string>): Promise<RelationshipView | undefined> {
  const folder = writeFiles(tempDir(t, 'relata-house-style-'), files);
  const index = await FolderIndex.open({ folder, dataDir: tempDir(t, 'relata-house-style-data-'), workspace: 'house-style', embedding: { kind: 'use-lite', threads: 1 } });
  t.after(() => index.close());
  await index.index();
  const [a, b] = Object.keys(files);
  return (await listRelationshipViews(index.store, DEFAULT_THRESHOLDS)).find(
    (view) => (view.from.path === a && view.to.path === b) || (view.from.path === b && view.to.path === a),
  );
}

const concepts = (view: RelationshipView | undefined) =>
  (view?.signals ?? []).filter((signal) => signal.type === 'shared_concept').map((signal) => signal.value.toLowerCase());

test('two reports of one template about different events stay below the expansion threshold; their headings are not shared concepts', { timeout: 5 * 60_000 }, async (t) => {
  const view = await relationshipOf(t, { 'ir-2025-041-chiller-trip.md': CHILLER_TRIP, 'ir-2025-043-car-park-barrier.md': BARRIER });
  const score = view?.score ?? 0;
  assert.ok(score < DEFAULT_EXPANSION_MIN_SCORE, `below ${DEFAULT_EXPANSION_MIN_SCORE} (got ${score}: ${JSON.stringify(view?.signals.map((s) => [s.type, s.value]))})`);
  for (const heading of SECTION_HEADINGS) assert.ok(!concepts(view).includes(heading), `${heading} counted as a shared concept`);
});

test('two reports of one template about the same chiller still share its concepts and relate strongly enough to expand through', { timeout: 5 * 60_000 }, async (t) => {
  const view = await relationshipOf(t, { 'ir-2025-041-chiller-trip.md': CHILLER_TRIP, 'ir-2025-058-chiller-refrigerant-leak.md': CHILLER_LEAK });
  assert.ok(view, 'the two chiller reports are related');
  assert.ok(view.score >= DEFAULT_EXPANSION_MIN_SCORE, `at least ${DEFAULT_EXPANSION_MIN_SCORE} (got ${view.score})`);
  assert.ok(concepts(view).includes('chiller'), JSON.stringify(concepts(view)));
  for (const heading of SECTION_HEADINGS) assert.ok(!concepts(view).includes(heading), `${heading} counted as a shared concept`);
});
