// Chunk: the parsed blocks become passages with deterministic ids (workspace, content hash,
// chunker version, ordinal), which later double as vector ids. Replacing is atomic, so re-running
// the stage updates the item's chunks rather than adding to them.

import { createHash } from 'node:crypto';
import { chunkBlocks, CHUNKER_VERSION } from '../../chunk/chunker.ts';
import type { StageContext } from './context.ts';

export function chunkId(workspace: string, contentHash: string, ordinal: number): string {
  return createHash('sha256')
    .update(`${workspace}\0${contentHash}\0${CHUNKER_VERSION}\0${ordinal}`)
    .digest('hex')
    .slice(0, 32);
}

export async function chunk(context: StageContext, itemId: string): Promise<void> {
  const { store } = context;
  const parsed = await store.getParsedText(itemId);
  if (!parsed) return;
  const chunks = chunkBlocks(parsed.document.blocks).map((passage) => ({
    id: chunkId(store.workspace, parsed.contentHash, passage.ordinal),
    itemId,
    ordinal: passage.ordinal,
    text: passage.text,
    headingPath: passage.headingPath,
    location: passage.location,
    wordCount: passage.wordCount,
  }));
  await store.replaceChunks(itemId, parsed.contentHash, chunks);
}
