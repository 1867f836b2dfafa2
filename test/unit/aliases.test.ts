// Candidate aliases are suggested only where a name can mean one person, and stay suggestions.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findAliasCandidates } from '../../server/src/discover/aliases.ts';

const person = (name: string, surface = name) => ({ key: `person:${name}`, type: 'person', surface });

test('a surname used alone is matched to the one full name with that surname', () => {
  const found = findAliasCandidates([person('carla mendes', 'Ms. Carla Mendes'), person('mendes', 'Ms. Mendes'), person('jonas weber')]);
  assert.deepEqual(found.map((c) => [c.keyA, c.keyB]), [['person:mendes', 'person:carla mendes']]);
  assert.match(found[0]!.reason, /only person in this workspace with that surname/);
});

test('an ambiguous short name is not proposed', () => {
  const found = findAliasCandidates([person('anna weber'), person('jonas weber'), person('weber')]);
  assert.deepEqual(found, []);
});

test('a given name alone matches when no surname does', () => {
  const found = findAliasCandidates([person('carla mendes'), person('carla')]);
  assert.deepEqual(found.map((c) => [c.keyA, c.keyB]), [['person:carla', 'person:carla mendes']]);
});

test('an address spelling a full name is an alias candidate of that person', () => {
  const found = findAliasCandidates([
    person('amara osei', 'Dr. Amara Osei'),
    { key: 'email:amara.osei@larkspur-logistics.example', type: 'email', surface: 'amara.osei@larkspur-logistics.example' },
    { key: 'email:info@example.com', type: 'email', surface: 'info@example.com' },
  ]);
  assert.deepEqual(found.map((c) => [c.keyA, c.keyB]), [['email:amara.osei@larkspur-logistics.example', 'person:amara osei']]);
});
