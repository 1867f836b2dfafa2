// The vector path: the query embedded by the workspace's model, compared by cosine with every
// passage window of that model (the store's exact search). An item's score is its best window's
// cosine, which is also the result's `semantic_similarity`. When there is no model, or no
// vectors from it yet, the path says why instead of failing the search.

import type { Embedder } from '../embed/types.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import { rankByItem, type PathResult } from './paths.ts';

/** Windows fetched per item wanted: an item has several windows, and only its best one counts. */
const WINDOWS_PER_ITEM = 3;

export type VectorOutcome =
  | { available: true; result: PathResult; modelId: string; queryVector: Float32Array }
  | { available: false; reason: string };

export async function vectorPath(store: WorkspaceStore, embedder: Embedder | null, query: string, depth: number): Promise<VectorOutcome> {
  if (!embedder) {
    return { available: false, reason: 'embedding is off for this search (--embedding-model none)' };
  }
  const modelId = embedder.descriptor.id;
  if (!(await store.hasVectors(modelId))) {
    return {
      available: false,
      reason: `no passage has a vector from ${modelId} yet: vectors are still being computed, or the folder was indexed without embedding`,
    };
  }
  let queryVector: Float32Array;
  try {
    [queryVector] = (await embedder.embed([query])) as [Float32Array];
  } catch (error) {
    return { available: false, reason: `the query could not be embedded: ${(error as Error).message}` };
  }
  const windows = await store.searchVectors(modelId, queryVector, depth * WINDOWS_PER_ITEM);
  const result = rankByItem('vector', windows.map((window) => ({ itemId: window.itemId, chunkId: window.chunkId, score: window.similarity })));
  return { available: true, result, modelId, queryVector };
}
