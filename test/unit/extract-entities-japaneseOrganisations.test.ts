import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractEntities } from '../../server/src/extract/entities/index.ts';
import { findJapaneseOrganisations } from '../../server/src/extract/entities/japaneseOrganisations.ts';

function orgs(text: string): [string, string][] {
  return findJapaneseOrganisations(text).map((o) => [o.surface, o.key]);
}

test('株式会社 before or after the name, ended by a particle or punctuation', () => {
  const release = '株式会社ソニー・インタラクティブエンタテインメントは、トヨタ自動車株式会社と業務提携契約を締結しました。';
  assert.deepEqual(orgs(release), [
    ['株式会社ソニー・インタラクティブエンタテインメント', 'organisation:ソニーインタラクティブエンタテインメント kk'],
    ['トヨタ自動車株式会社', 'organisation:トヨタ自動車 kk'],
  ]);
  assert.deepEqual(orgs('本件は株式会社NTTドコモが担当する。'), [['株式会社NTTドコモ', 'organisation:nttドコモ kk']]);
});

test('the short forms and the other companies share the key of their family', () => {
  assert.deepEqual(orgs('(株)日立製作所、㈱日立製作所、有限会社山田商店、合同会社DMM.comの4社。'), [
    ['(株)日立製作所', 'organisation:日立製作所 kk'],
    ['㈱日立製作所', 'organisation:日立製作所 kk'],
    ['有限会社山田商店', 'organisation:山田商店 yk'],
    ['合同会社DMM', 'organisation:dmm gk'],
  ]);
  // Full-width and half-width spellings of one name give one key.
  assert.equal(orgs('株式会社ＮＴＴドコモ')[0]![1], orgs('株式会社NTTドコモ')[0]![1]);
});

test('a legal form with no name beside it names nothing', () => {
  assert.deepEqual(orgs('当社は株式会社として設立された。'), []);
  assert.deepEqual(orgs('株式会社の定款を変更する。'), []);
  assert.deepEqual(orgs('「株式会社」とは何か。'), []);
});

test('a Japanese company in a passage is an organisation entity, and "Sony KK" in Latin script still is', () => {
  const entities = extractEntities('2024年4月1日、株式会社ソニーは Sony KK として契約を更新した。', { language: 'ja' });
  assert.deepEqual(
    entities.filter((e) => e.type === 'organisation').map((e) => [e.surface, e.key]),
    [
      ['株式会社ソニー', 'organisation:ソニー kk'],
      ['Sony KK', 'organisation:sony kk'],
    ],
  );
});

test('a crafted passage of legal forms back to back, or of a million kanji around one, is read in one pass, not once per form', { timeout: 60_000 }, () => {
  // Each form used to scan the whole run beside it: 200,000 forms in a row were 10^11 steps.
  assert.deepEqual(orgs('株式会社'.repeat(200_000)), []);
  assert.deepEqual(orgs(`${'漢'.repeat(1_000_000)}株式会社${'字'.repeat(1_000_000)}`), []);
});
