// Extract: what each item is about, as evidence for relationships and search. Deterministic
// extractors run per chunk (so every entity and claim points at its passage and offsets); key
// phrases are counted per item and weighted against the workspace when read. Results are
// replaced as a whole for the item's current bytes, so re-running updates rather than adds.

import { extractClaims } from '../../extract/claims/index.ts';
import { countPhrases } from '../../extract/concepts.ts';
import { extractEntities } from '../../extract/entities/index.ts';
import { EXTRACTOR_VERSIONS } from '../../extract/versions.ts';
import type { ItemExtraction } from '../../store/contract.ts';
import type { StageContext } from './context.ts';

/** A long document is thousands of chunks: the editor's requests get a turn at least this often (ms). */
const YIELD_EVERY_MS = 50;

export async function extract(context: StageContext, itemId: string): Promise<void> {
  const { store } = context;
  const item = await store.getItem(itemId);
  if (!item || item.deletedAt || item.status !== 'indexed' || !item.contentHash) return;
  const chunks = await store.listChunks(itemId);
  const extraction: ItemExtraction = { entities: [], claims: [], phrases: [], versions: EXTRACTOR_VERSIONS };
  let slice = performance.now();
  for (const chunk of chunks) {
    if (performance.now() - slice > YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    const entities = extractEntities(chunk.text);
    for (const entity of entities) extraction.entities.push({ ...entity, chunkId: chunk.id });
    const claims = extractClaims(chunk.text, { title: item.title ?? undefined, headingPath: chunk.headingPath, entities });
    for (const claim of claims) extraction.claims.push({ ...claim, chunkId: chunk.id });
  }
  extraction.phrases = countPhrases(chunks.map((chunk) => chunk.text).join('\n\n'));
  await store.storeExtraction(itemId, item.contentHash, extraction);
}
