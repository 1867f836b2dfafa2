// Extract: what each item is about, as evidence for relationships and search. Deterministic
// extractors run per chunk (so every entity and claim points at its passage and offsets); key
// phrases are counted per item and weighted against the workspace when read. The extractors run
// in a stage thread (key phrases over a 20 MB text take seconds), so the main thread only reads
// the passages and stores the results. Results are replaced as a whole for the item's current
// bytes, so re-running updates rather than adds.

import { extractClaims } from '../../extract/claims/index.ts';
import { countPhrases } from '../../extract/concepts.ts';
import { extractEntities } from '../../extract/entities/index.ts';
import { EXTRACTOR_VERSIONS } from '../../extract/versions.ts';
import type { ItemExtraction } from '../../store/contract.ts';
import type { ExtractJob } from '../threads/protocol.ts';
import { ThreadLimitError } from '../threads/stageThreads.ts';
import type { StageContext } from './context.ts';

/**
 * The item's extraction, as the stage thread computes it. Pure: the same passages give the same
 * results. `headings` are the item's headings in document order; all but the title are section
 * headings, which alone do not make a key phrase (countPhrases).
 */
export function extractionOf(title: string | null, chunks: ExtractJob['chunks'], headings: readonly string[] = []): ItemExtraction {
  const extraction: ItemExtraction = { entities: [], claims: [], phrases: [], versions: EXTRACTOR_VERSIONS };
  for (const chunk of chunks) {
    const entities = extractEntities(chunk.text);
    for (const entity of entities) extraction.entities.push({ ...entity, chunkId: chunk.id });
    const claims = extractClaims(chunk.text, { title: title ?? undefined, headingPath: chunk.headingPath, entities });
    for (const claim of claims) extraction.claims.push({ ...claim, chunkId: chunk.id });
  }
  const sectionHeadings = headings.filter((heading) => heading.trim() !== title?.trim());
  extraction.phrases = countPhrases(chunks.map((chunk) => chunk.text).join('\n\n'), sectionHeadings);
  return extraction;
}

export async function extract(context: StageContext, itemId: string): Promise<void> {
  const { store, threads } = context;
  const item = await store.getItem(itemId);
  if (!item || item.deletedAt || item.status !== 'indexed' || !item.contentHash) return;
  const chunks = (await store.listChunks(itemId)).map(({ id, text, headingPath }) => ({ id, text, headingPath }));
  const headings = await store.listHeadings(itemId);
  try {
    const extraction = await threads.extract(item.title, chunks, headings);
    await store.storeExtraction(itemId, item.contentHash, extraction);
  } catch (error) {
    // Too costly to extract from: FAILURE_FAILS_ITEM.extract, and the same bytes would fail the same way.
    if (!(error instanceof ThreadLimitError)) throw error;
    await store.markFailed(itemId, error.message);
  }
}
