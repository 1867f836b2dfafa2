// Embed: every chunk gets vectors from the configured model. A model reads a limited number of
// tokens, so each chunk is cut into sentence-aligned windows that fit, and each window gets its
// own vector (docs/EMBEDDINGS.md says why). Vectors are stored a few chunks at a time, so a
// crash costs at most the batch in flight: on restart only chunks without vectors are embedded.

import { packWindows } from '../../embed/windows.ts';
import type { VectorEntry } from '../../store/contract.ts';
import type { StageContext } from './context.ts';

/** Windows per call to the embedder: large enough to keep every worker thread busy. */
const WINDOWS_PER_BATCH = 32;

export async function embed(context: StageContext, itemId: string): Promise<void> {
  const { store } = context;
  const embedder = await context.embedder.get();
  if (!embedder) return; // Embedding is off; `FolderIndex.index` re-queues the item when it is turned on.
  const model = embedder.descriptor;
  const item = await store.getItem(itemId);
  if (!item || item.deletedAt || item.status !== 'indexed' || !item.contentHash) return;
  await store.registerModel(model);

  const chunks = await store.chunksWithoutVectors(itemId, model.id);
  let batch: { chunkId: string; window: number; start: number; end: number; text: string }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const vectors = await embedder.embed(batch.map((window) => window.text));
    const entries: VectorEntry[] = batch.map(({ text: _text, ...window }, index) => ({ ...window, vector: vectors[index]! }));
    batch = [];
    if (!(await store.storeVectors(itemId, item.contentHash!, model, entries))) {
      throw new StaleItemError();
    }
  };
  try {
    for (const chunk of chunks) {
      const windows = packWindows(chunk.text, model.maxTokens, (text) => embedder.countTokens(text));
      // A chunk's windows are stored together, so a chunk is either fully embedded or not at all.
      if (batch.length > 0 && batch.length + windows.length > WINDOWS_PER_BATCH) await flush();
      windows.forEach((window, index) =>
        batch.push({ chunkId: chunk.id, window: index, start: window.start, end: window.end, text: window.text }),
      );
    }
    await flush();
  } catch (error) {
    // The item changed while it was being embedded; its new chunks have their own embed job.
    if (!(error instanceof StaleItemError)) throw error;
  }
}

class StaleItemError extends Error {}
