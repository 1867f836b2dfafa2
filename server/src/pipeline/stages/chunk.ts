// Chunk: the parsed blocks become passages with deterministic ids (workspace, content hash,
// chunker version, ordinal), which later double as vector ids. The chunking runs in a stage thread
// (a 50 MB one-line text takes seconds), so the main thread only reads the blocks and stores the
// passages. Replacing is atomic, so re-running the stage updates the item's chunks rather than
// adding to them.

import { createHash } from 'node:crypto';
import { chunkBlocks, CHUNKER_VERSION } from '../../chunk/chunker.ts';
import type { Block } from '../../parse/types.ts';
import type { ChunkRecord } from '../../store/contract.ts';
import { ThreadLimitError } from '../threads/stageThreads.ts';
import type { StageContext } from './context.ts';

export function chunkId(workspace: string, contentHash: string, ordinal: number): string {
  return createHash('sha256')
    .update(`${workspace}\0${contentHash}\0${CHUNKER_VERSION}\0${ordinal}`)
    .digest('hex')
    .slice(0, 32);
}

/** The item's passages, as the stage thread computes them. Pure: the same blocks give the same chunks and ids. */
export function passagesOf(workspace: string, itemId: string, contentHash: string, blocks: Block[]): ChunkRecord[] {
  return chunkBlocks(blocks).map((passage) => ({
    id: chunkId(workspace, contentHash, passage.ordinal),
    itemId,
    ordinal: passage.ordinal,
    text: passage.text,
    headingPath: passage.headingPath,
    location: passage.location,
    wordCount: passage.wordCount,
  }));
}

export async function chunk(context: StageContext, itemId: string): Promise<void> {
  const { store, threads } = context;
  // The blocks go to the thread as the JSON they are stored as: parsed there, not here as well.
  const parsed = await store.getStoredBlocks(itemId);
  if (!parsed) return;
  try {
    const chunks = await threads.chunk(store.workspace, itemId, parsed.contentHash, parsed.blocksJson);
    await store.replaceChunks(itemId, parsed.contentHash, chunks);
  } catch (error) {
    // Too costly to chunk: the same bytes would fail the same way, so the item fails now.
    if (!(error instanceof ThreadLimitError)) throw error;
    await store.markFailed(itemId, error.message);
  }
}
