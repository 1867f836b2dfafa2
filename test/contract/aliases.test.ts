// Entity aliases, on every backend: a candidate pair is stored once (whichever order its keys come
// in), stays pending until a person decides, and a decision is never undone by a new proposal.

import assert from 'node:assert/strict';
import type { AliasCandidate } from '../../server/src/store/contract.ts';
import { forEachBackend } from './backends.ts';

const MENDES: AliasCandidate = {
  keyA: 'person:mendes',
  keyB: 'person:carla mendes',
  surfaceA: 'Ms. Mendes',
  surfaceB: 'Ms. Carla Mendes',
  reason: 'the only person in this workspace with that surname',
};
const OSEI: AliasCandidate = {
  keyA: 'email:amara.osei@larkspur-logistics.example',
  keyB: 'person:amara osei',
  surfaceA: 'amara.osei@larkspur-logistics.example',
  surfaceB: 'Dr. Amara Osei',
  reason: 'the address spells the full name',
};
const reversed = (candidate: AliasCandidate): AliasCandidate => ({
  keyA: candidate.keyB,
  keyB: candidate.keyA,
  surfaceA: candidate.surfaceB,
  surfaceB: candidate.surfaceA,
  reason: candidate.reason,
});

forEachBackend((backend) => {
  backend.test('candidate aliases are stored once per pair of keys, pending, with their reason', async (t) => {
    const { store } = await backend.open(t);
    assert.equal(await store.proposeAliases([MENDES, OSEI]), 2);
    assert.equal(await store.proposeAliases([reversed(MENDES), OSEI]), 0, 'the same pairs, in either order');
    const aliases = await store.listAliases();
    assert.equal(aliases.length, 2);
    const mendes = aliases.find((alias) => [alias.a.key, alias.b.key].includes('person:mendes'))!;
    assert.deepEqual(new Set([mendes.a.key, mendes.b.key]), new Set(['person:mendes', 'person:carla mendes']));
    const surfaces = new Map([[mendes.a.key, mendes.a.surface], [mendes.b.key, mendes.b.surface]]);
    assert.equal(surfaces.get('person:mendes'), 'Ms. Mendes', 'each key keeps its own spelling');
    assert.equal(surfaces.get('person:carla mendes'), 'Ms. Carla Mendes');
    assert.equal(mendes.status, 'pending');
    assert.equal(mendes.reason, MENDES.reason);
    assert.equal(mendes.decided_by, null);
    assert.ok(!Number.isNaN(Date.parse(mendes.created_at)));
    assert.deepEqual(await store.proposeAliases([]), 0);
  });

  backend.test('a decision records who and why, filters the list, and a new proposal of the pair leaves it alone', async (t) => {
    const { store } = await backend.open(t);
    await store.proposeAliases([MENDES, OSEI]);
    const mendes = (await store.listAliases()).find((alias) => alias.a.key === 'person:mendes' || alias.b.key === 'person:mendes')!;
    const decided = await store.decideAlias(mendes.id, { status: 'confirmed', by: 'ana', note: 'same person' });
    assert.equal(decided.id, mendes.id);
    assert.equal(decided.status, 'confirmed');
    assert.equal(decided.decided_by, 'ana');
    assert.equal(decided.note, 'same person');
    assert.ok(decided.decided_at && !Number.isNaN(Date.parse(decided.decided_at)));
    assert.equal(await store.proposeAliases([MENDES]), 0);
    assert.equal((await store.listAliases()).find((alias) => alias.id === mendes.id)?.status, 'confirmed');
    assert.deepEqual((await store.listAliases('confirmed')).map((alias) => alias.id), [mendes.id]);
    assert.equal((await store.listAliases('pending')).length, 1);
    assert.deepEqual(await store.listAliases('rejected'), []);
    await store.decideAlias(mendes.id, { status: 'rejected', by: 'ben', note: null });
    assert.deepEqual((await store.listAliases('rejected')).map((alias) => [alias.id, alias.decided_by]), [[mendes.id, 'ben']]);
    await assert.rejects(store.decideAlias('alias_unknown', { status: 'confirmed', by: 'ana', note: null }));
  });

  backend.test('confirmed aliases are found from either key; pending and rejected ones are not', async (t) => {
    const { store } = await backend.open(t);
    await store.proposeAliases([MENDES, OSEI]);
    const [first, second] = await store.listAliases();
    const mendes = [first!, second!].find((alias) => alias.a.key.includes('mendes'))!;
    const osei = [first!, second!].find((alias) => alias.a.key.includes('osei'))!;
    await store.decideAlias(mendes.id, { status: 'confirmed', by: 'ana', note: null });
    await store.decideAlias(osei.id, { status: 'rejected', by: 'ana', note: null });
    const confirmed = await store.confirmedAliases(['person:mendes', 'person:carla mendes', 'person:amara osei']);
    assert.deepEqual(confirmed.get('person:mendes'), [{ key: 'person:carla mendes', surface: 'Ms. Carla Mendes' }]);
    assert.deepEqual(confirmed.get('person:carla mendes'), [{ key: 'person:mendes', surface: 'Ms. Mendes' }]);
    assert.equal(confirmed.get('person:amara osei'), undefined);
    assert.equal((await store.confirmedAliases([])).size, 0);
  });

  backend.test('an alias decided in a rebuilt store is restored as it was decided, over a pending proposal of the pair', async (t) => {
    const { store } = await backend.open(t);
    await store.proposeAliases([MENDES]);
    const decided = {
      id: 'alias_from_the_old_store',
      a: { key: 'person:carla mendes', surface: 'Ms. Carla Mendes' },
      b: { key: 'person:mendes', surface: 'Ms. Mendes' },
      reason: MENDES.reason,
      status: 'rejected' as const,
      created_at: '2025-01-02T00:00:00.000Z',
      decided_by: 'ana',
      decided_at: '2025-01-03T00:00:00.000Z',
      note: 'another Mendes',
    };
    await store.restoreAlias(decided);
    await store.restoreAlias({ ...decided, a: { key: 'person:jonas weber', surface: 'Mr. Jonas Weber' }, b: { key: 'person:weber', surface: 'Mr. Weber' }, status: 'confirmed' });
    const aliases = await store.listAliases();
    assert.equal(aliases.length, 2);
    const mendes = aliases.find((alias) => alias.a.key.includes('mendes'))!;
    assert.equal(mendes.status, 'rejected');
    assert.equal(mendes.decided_by, 'ana');
    assert.equal(mendes.decided_at, decided.decided_at);
    assert.equal(mendes.note, 'another Mendes');
    assert.deepEqual((await store.confirmedAliases(['person:weber'])).get('person:weber'), [{ key: 'person:jonas weber', surface: 'Mr. Jonas Weber' }]);
  });
});
