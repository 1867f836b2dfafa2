// Metadata and original bytes, on every backend: per-workspace key/value metadata, and the blob
// store opened beside the store: content-addressed, written once, listed, verified and removed.

import assert from 'node:assert/strict';
import { forEachBackend } from './backends.ts';
import { bytesOf, hashOf, REPORT, BUDGET_MEMO } from './documents.ts';

async function listed(blobs: { list(): AsyncIterable<string> }): Promise<string[]> {
  const hashes: string[] = [];
  for await (const hash of blobs.list()) hashes.push(hash);
  return hashes.sort();
}

forEachBackend((backend) => {
  backend.test('metadata is a value per key, overwritten by the next write, and private to the workspace', async (t) => {
    const site = backend.site(t);
    const { store: alice } = await site.open({ workspace: 'alice' });
    const { store: bob } = await site.open({ workspace: 'bob' });
    assert.equal(await alice.getMeta('embedding.model'), null);
    await alice.setMeta('embedding.model', 'model-a');
    await alice.setMeta('embedding.model', 'model-b');
    await alice.setMeta('score.version', 'relationship-score-v1');
    assert.equal(await alice.getMeta('embedding.model'), 'model-b');
    assert.equal(await alice.getMeta('score.version'), 'relationship-score-v1');
    assert.equal(await bob.getMeta('embedding.model'), null);
  });

  backend.test('a blob is stored under its hash, read back byte for byte, verified and listed', async (t) => {
    const { blobs } = await backend.open(t);
    const report = bytesOf(REPORT);
    const memo = bytesOf(BUDGET_MEMO);
    assert.equal(await blobs.has(hashOf(REPORT)), false);
    assert.equal(await blobs.verify(hashOf(REPORT)), 'missing');
    await blobs.put(hashOf(REPORT), report);
    await blobs.put(hashOf(BUDGET_MEMO), memo);
    assert.equal(await blobs.has(hashOf(REPORT)), true);
    assert.deepEqual(Buffer.from(await blobs.get(hashOf(REPORT))), Buffer.from(report));
    assert.equal(await blobs.verify(hashOf(REPORT)), 'ok');
    assert.deepEqual(await listed(blobs), [hashOf(REPORT), hashOf(BUDGET_MEMO)].sort());
  });

  backend.test('a blob is written once: putting its hash again never rewrites the bytes', async (t) => {
    const { blobs } = await backend.open(t);
    const hash = hashOf(REPORT);
    await blobs.put(hash, bytesOf(REPORT));
    await blobs.put(hash, bytesOf(REPORT));
    await assert.rejects(blobs.put(hash, bytesOf('other bytes entirely')), /do not hash to/);
    assert.deepEqual(Buffer.from(await blobs.get(hash)), Buffer.from(bytesOf(REPORT)));
    assert.deepEqual(await listed(blobs), [hash]);
  });

  backend.test('a blob is stored only under the hash of its bytes: put never trusts the name it is given', async (t) => {
    const { blobs } = await backend.open(t);
    const claimed = hashOf(REPORT);
    await assert.rejects(blobs.put(claimed, bytesOf('substituted bytes')), new RegExp(`bytes given for ${claimed} do not hash to it`));
    assert.equal(await blobs.has(claimed), false);
    assert.deepEqual(await listed(blobs), []);
  });

  backend.test('a removed blob is gone from reads and the listing; removing it again is harmless', async (t) => {
    const { blobs } = await backend.open(t);
    await blobs.put(hashOf(REPORT), bytesOf(REPORT));
    await blobs.put(hashOf(BUDGET_MEMO), bytesOf(BUDGET_MEMO));
    await blobs.remove(hashOf(REPORT));
    assert.equal(await blobs.has(hashOf(REPORT)), false);
    assert.equal(await blobs.verify(hashOf(REPORT)), 'missing');
    await assert.rejects(blobs.get(hashOf(REPORT)));
    assert.deepEqual(await listed(blobs), [hashOf(BUDGET_MEMO)]);
    await blobs.remove(hashOf(REPORT));
  });

  backend.test('two handles on one store share its bytes', async (t) => {
    const site = backend.site(t);
    const { blobs: writer } = await site.open({ workspace: 'alice' });
    const { blobs: reader } = await site.open({ workspace: 'alice' });
    await writer.put(hashOf(REPORT), bytesOf(REPORT));
    assert.equal(await reader.verify(hashOf(REPORT)), 'ok');
  });
});
