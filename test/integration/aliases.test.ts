// Candidate aliases are proposals: before a person confirms one it contributes nothing; once
// confirmed it links the items naming either form (alias_entity), and rejecting it again takes
// that evidence away. Real pipeline, real SQLite, a folder written for the case.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decideAlias } from '../../server/src/engine/aliases.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/index.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

test('only a confirmed alias becomes evidence', { timeout: 120_000 }, async (t) => {
  const folder = writeFiles(tempDir(t), {
    'handover.md': '# Dock handover\n\nMs. Mendes walked the loading dock with the night shift.\n\nThe cost of the dock door repair is EUR 4,200.\n',
    'inspection.md': '# Dock inspection\n\nMs. Carla Mendes signed the inspection of the loading dock.\n\nThe cost of the dock door repair is EUR 4,200.\n',
    'canteen.md': '# Canteen menu\n\nSoup, bread and apples on Friday.\n',
  });
  // The pair's other evidence (agreeing figures, shared phrases) scores 0.33; a storage threshold of
  // 0.40 leaves it out until the alias adds its 0.10.
  const thresholds = { ...DEFAULT_THRESHOLDS, storeScore: 0.4 };
  const index = await FolderIndex.open({ folder, dataDir: tempDir(t), workspace: 'aliases', embedding: { kind: 'none' }, settings: { thresholds } });
  t.after(() => index.close());
  await index.index();

  const aliases = await index.store.listAliases();
  const mendes = aliases.find((alias) => alias.a.key === 'person:carla mendes' && alias.b.key === 'person:mendes');
  assert.ok(mendes, `the short name is offered as an alias (found ${JSON.stringify(aliases.map((a) => [a.a.key, a.b.key]))})`);
  assert.equal(mendes.status, 'pending');
  const before = await listRelationshipViews(index.store, thresholds, { includeWeak: true });
  assert.ok(before.every((view) => view.signals.every((signal) => signal.type !== 'alias_entity')), 'a pending alias contributes nothing');
  assert.equal((await listRelationshipViews(index.store, thresholds)).length, 0, 'the other evidence alone stays below the storage threshold');

  const confirmed = await decideAlias(index.store, mendes.id, { status: 'confirmed', by: 'ana' });
  assert.equal(confirmed.itemsToRediscover, 2);
  await index.index();
  const [linked, ...others] = await listRelationshipViews(index.store, thresholds);
  assert.equal(others.length, 0);
  assert.deepEqual([linked!.from.path, linked!.to.path].sort(), ['handover.md', 'inspection.md']);
  const alias = linked!.signals.find((signal) => signal.type === 'alias_entity');
  assert.ok(alias, 'the confirmed alias is evidence');
  assert.equal(alias.weight, 0.1);
  assert.match(alias.detail, /A person confirmed that/);
  assert.equal(linked!.type, 'supports');

  await decideAlias(index.store, mendes.id, { status: 'rejected', by: 'ana', note: 'another Mendes' });
  await index.index();
  assert.equal((await listRelationshipViews(index.store, thresholds)).length, 0, 'without the alias the pair is below the threshold again');
  const kept = await listRelationshipViews(index.store, thresholds, { includeWeak: true });
  assert.equal(kept.length, 1, 'the weakened proposal is kept, not deleted');
  assert.ok(!kept[0]!.signals.some((signal) => signal.type === 'alias_entity'));
});
