// The entity path on a real store, its passages read by the extract stage's rules: a name typed
// without its legal form finds the organisations of that name with any legal form, and not the
// other organisations whose names begin with it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entityPath } from '../../server/src/ranking/entityPath.ts';
import { openSqliteStore } from '../../server/src/store/sqlite/sqliteStore.ts';
import { extractDocument, indexDocument } from '../contract/documents.ts';
import { tempDir } from '../support/tempFolder.ts';

test('"Tamsin" finds Tamsin Ltd and Tamsin GmbH & Co. KG, not Tamsin Holdings Ltd; "Tamsin Holdings" finds that one too', async (t) => {
  const store = openSqliteStore({ dataDir: tempDir(t), workspace: 'names' });
  t.after(() => store.close());
  const notes = {
    ltd: '# Invoice\n\nThe invoice was issued by Tamsin Ltd on 3 March 2025.\n',
    kg: '# Delivery\n\nThe crane was supplied by Tamsin GmbH & Co. KG of Bremen.\n',
    holdings: '# Lease\n\nThe lease was signed by Tamsin Holdings Ltd in April.\n',
  };
  const items = new Map<string, string>();
  for (const [name, text] of Object.entries(notes)) {
    const document = await indexDocument(store, `${name}.md`, text);
    await extractDocument(store, document);
    items.set(document.itemId, name);
  }
  // The rules read the three names as three organisations.
  const keys = (await store.entityKeysStartingWith(['organisation:tamsin '])).sort();
  assert.deepEqual(keys, ['organisation:tamsin gmbh co kg', 'organisation:tamsin holdings ltd', 'organisation:tamsin ltd']);

  const found = async (query: string) => (await entityPath(store, query)).hits.map((hit) => items.get(hit.itemId)).sort();
  assert.deepEqual(await found('Tamsin'), ['kg', 'ltd']);
  assert.deepEqual(await found('invoices from tamsin'), ['kg', 'ltd']);
  // Every run of the query's words is tried as a name: "Tamsin Holdings" names that company, and "Tamsin" the others.
  assert.deepEqual(await found('Tamsin Holdings'), ['holdings', 'kg', 'ltd']);
  assert.deepEqual(await found('Holdings'), []);
  // What each hit says it matched: the organisation's name as the passage wrote it.
  const hits = (await entityPath(store, 'Tamsin')).hits;
  assert.deepEqual(hits.flatMap((hit) => hit.entities!.map((entity) => entity.surface)).sort(), ['Tamsin GmbH & Co. KG', 'Tamsin Ltd']);
});
