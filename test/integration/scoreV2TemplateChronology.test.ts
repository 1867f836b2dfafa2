// relationship-score-v2's rules 7 and 8 on a real folder, indexed into real SQLite (no embedding
// model: the evidence here is names, dates and phrases): contracts that share only a registry every
// one of them names are not dated against each other, and incident reports signing off with one
// template e-mail address are not related through it. The same folder under v1 keeps v1's
// behaviour. Thresholds are lowered so weak pairs are stored and their type and evidence can be read.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { RelationshipView } from '../../shared/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { RELATIONSHIP_SCORE_V1, RELATIONSHIP_SCORE_V2, type ScoreConstants } from '../../server/src/scoring/index.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

const THRESHOLDS = { minScore: 0.01, storeScore: 0.02, nearDuplicateSimilarity: 0.94 };
const EMAIL = 'safety-desk@northgate.example';

const contract = (party: string, date: string, subject: string) => `# ${subject} agreement between ${party} and Harbour Lane Partners

This agreement is dated ${date}. ${party} and Harbour Lane Partners agree to the ${subject} set out below.
Each party shall file a copy of this agreement with Meridian Registry Ltd within thirty days.

The ${subject} covers the ${party} warehouse portfolio. Payment is due monthly.
`;

const incident = (what: string, where: string, date: string) => `# Incident report: ${what}

On ${date} a ${what} happened at ${where}. The area was closed and the ${what} was contained.
Corrective actions are tracked in the safety log.

Kind regards,
Safety Desk <${EMAIL}>
Northgate Logistics
`;

const FOLDER = {
  'contracts/alder-lease.md': contract('Alder Freight', '3 March 2009', 'lease'),
  'contracts/birch-supply.md': contract('Birch Components', '30 June 2019', 'supply'),
  'contracts/cedar-service.md': contract('Cedar Cleaning', '12 January 2015', 'service'),
  'contracts/dunmore-licence.md': contract('Dunmore Software', '8 August 2021', 'licence'),
  'incidents/forklift-collision.md': incident('forklift collision', 'dock 4', '14 March 2025'),
  'incidents/sprinkler-leak.md': incident('sprinkler leak', 'aisle 12', '22 July 2025'),
  'incidents/pallet-collapse.md': incident('pallet collapse', 'the cold store', '2 September 2025'),
  'incidents/trailer-fire.md': incident('trailer fire', 'yard gate 2', '5 November 2025'),
};

async function relationshipsUnder(t: TestContext, version: ScoreConstants): Promise<RelationshipView[]> {
  const root = tempDir(t, 'relata-v2-rules-');
  const folder = writeFiles(path.join(root, 'folder'), FOLDER);
  const index = await FolderIndex.open({
    folder,
    dataDir: path.join(root, 'data'),
    workspace: 'v2-rules',
    embedding: { kind: 'none' },
    settings: { scoreVersion: version, thresholds: THRESHOLDS },
  });
  try {
    await index.index();
    return await listRelationshipViews(index.store, THRESHOLDS);
  } finally {
    await index.close();
  }
}

const among = (views: RelationshipView[], folder: string) =>
  views.filter((view) => view.from.path.startsWith(folder) && view.to.path.startsWith(folder));

const sharesEmail = (view: RelationshipView) => view.signals.some((signal) => signal.type === 'shared_entity' && signal.value === EMAIL);

test('under v2, contracts sharing only a name every one of them gives are not occurred_before/after each other', async (t) => {
  const contracts = among(await relationshipsUnder(t, RELATIONSHIP_SCORE_V2), 'contracts/');
  assert.ok(contracts.length > 0, 'the contracts are related (they share a registry and phrases), only not in time');
  for (const view of contracts) {
    assert.ok(!['occurred_before', 'occurred_after'].includes(view.type), `${view.from.path} ${view.type} ${view.to.path}`);
  }
});

test('under v2, incident reports are not related through the e-mail address their template signs off with', async (t) => {
  const views = await relationshipsUnder(t, RELATIONSHIP_SCORE_V2);
  const incidents = among(views, 'incidents/');
  assert.ok(incidents.length > 0, 'the reports are still related by what else they share');
  assert.ok(!incidents.some(sharesEmail), 'no incident pair carries the template address as a shared name');
  const concept = incidents.flatMap((view) => view.signals).find((signal) => signal.type === 'shared_concept');
  assert.match(concept?.detail ?? '', /in \d of 8 files/, 'a shared concept says how many of the folder\'s files have it');
  for (const view of views) assert.equal(view.score_version, RELATIONSHIP_SCORE_V2.version);
});

test('under v1 the same folder keeps v1\'s evidence: the template address relates the reports, and contracts are dated by the shared name', async (t) => {
  const views = await relationshipsUnder(t, RELATIONSHIP_SCORE_V1);
  const incidents = among(views, 'incidents/');
  assert.ok(incidents.some(sharesEmail), 'v1 reads the sign-off address as a shared name');
  const contracts = among(views, 'contracts/');
  assert.ok(
    contracts.some((view) => view.type === 'occurred_before' || view.type === 'occurred_after'),
    `v1 dates contracts by any shared name: ${contracts.map((view) => view.type).join(', ')}`,
  );
  for (const view of views) assert.equal(view.score_version, RELATIONSHIP_SCORE_V1.version);
});
