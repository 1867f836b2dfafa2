// A port to the USE-lite model's thread (embed/modelPort.ts) embeds as the embedder itself does,
// and once the model's thread has ended it fails at once, saying so, instead of leaving a search
// waiting for an answer that will never come.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ModelPortClosedError, portEmbedder } from '../../server/src/embed/modelPort.ts';
import { createUseLiteEmbedder } from '../../server/src/embed/useLite/index.ts';

test('a port to the model embeds what the embedder embeds, and fails as closed once the model’s thread has ended', { timeout: 5 * 60_000 }, async () => {
  const embedder = await createUseLiteEmbedder({ threads: 1 });
  const direct = portEmbedder(await embedder.openPort!(), embedder.descriptor);
  const texts = ['crane inspection', 'the forklift collided with a pallet rack in bay 4'];
  try {
    assert.deepEqual(await direct.embed(texts), await embedder.embed(texts));
  } finally {
    await embedder.close();
  }
  await assert.rejects(direct.embed(texts), ModelPortClosedError);
  assert.equal(direct.closed, true);
});
