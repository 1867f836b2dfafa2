// The vector path: the query embedded by the workspace's model, compared by cosine with every
// passage window of that model (the store's exact search). An item's score is its best window's
// cosine, which is also the result's `semantic_similarity`. When there is no model, or no
// vectors from it yet, the path says why instead of failing the search.
//
// A passage in a language the model does not read (embed/languages.ts: USE-lite reads English)
// is left out: its cosine would rank it and be shown as a similarity that means nothing there.
// A passage's language is its item's, unless its extraction found the passage written in another
// (extract/passageLanguages.ts: the German half of a README). A query in such a language leaves
// the path out altogether. Either way the response says so.

import { detectLanguage } from '../../../shared/languages.ts';
import { languageName, modelLanguagesInWords, modelReadsLanguage } from '../embed/languages.ts';
import type { Embedder } from '../embed/types.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import { rankByItem, type PathResult } from './paths.ts';

/** Windows fetched per item wanted: an item has several windows, and only its best one counts. */
const WINDOWS_PER_ITEM = 3;

export type VectorOutcome =
  | { available: true; result: PathResult; modelId: string; queryVector: Float32Array; unread: string | null }
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
  if (!(await store.vectorLookupReady(modelId))) {
    return { available: false, reason: `${modelId}'s index of the vectors is being read after a restart: similar passages are found again in a few seconds` };
  }
  const queryLanguage = detectLanguage(query).language;
  if (!modelReadsLanguage(modelId, queryLanguage)) {
    return { available: false, reason: `the query is in ${languageName(queryLanguage)}, which ${modelId} does not read (it reads ${modelLanguagesInWords(modelId)})` };
  }
  let queryVector: Float32Array;
  try {
    [queryVector] = (await embedder.embed([query])) as [Float32Array];
  } catch (error) {
    return { available: false, reason: `the query could not be embedded: ${(error as Error).message}` };
  }
  const found = await store.searchVectors(modelId, queryVector, depth * WINDOWS_PER_ITEM);
  const { read: windows, unread } = await passagesReadByModel(store, modelId, found);
  const result = rankByItem('vector', windows.map((window) => ({ itemId: window.itemId, chunkId: window.chunkId, score: window.similarity })));
  return { available: true, result, modelId, queryVector, unread };
}

/**
 * The passages (windows, best similarities) the model reads, each by its own language where its
 * extraction recorded one and else by its item's, and in words the languages of those it does
 * not, or null when it reads them all.
 */
export async function passagesReadByModel<T extends { itemId: string; chunkId: string }>(
  store: WorkspaceStore,
  modelId: string,
  passages: readonly T[],
): Promise<{ read: T[]; unread: string | null }> {
  const itemIds = passages.map((passage) => passage.itemId);
  const { readable, unread: unreadLanguages } = await itemsReadByModel(store, modelId, itemIds);
  const own = itemIds.length > 0 ? await store.passageLanguages([...new Set(itemIds)]) : new Map<string, string>();
  const read = passages.filter((passage) => {
    const language = own.get(passage.chunkId);
    if (language === undefined) return readable.has(passage.itemId);
    if (modelReadsLanguage(modelId, language)) return true;
    unreadLanguages.add(languageName(language));
    return false;
  });
  return { read, unread: inWords(unreadLanguages) };
}

/**
 * Which of these items the model reads, and in words the languages of those it does not ("German,
 * Russian"), or null when it reads them all.
 */
export async function readByModel(store: WorkspaceStore, modelId: string, itemIds: readonly string[]): Promise<{ readable: Set<string>; unread: string | null }> {
  const { readable, unread } = await itemsReadByModel(store, modelId, itemIds);
  return { readable, unread: inWords(unread) };
}

/** "German, Russian", or null for none. */
function inWords(languages: ReadonlySet<string>): string | null {
  return languages.size > 0 ? [...languages].sort().join(', ') : null;
}

/** Which of these items the model reads by their language, and the names of the languages it does not. */
async function itemsReadByModel(store: WorkspaceStore, modelId: string, itemIds: readonly string[]): Promise<{ readable: Set<string>; unread: Set<string> }> {
  const ids = [...new Set(itemIds)];
  const languages = ids.length > 0 ? await store.itemLanguages(ids) : new Map<string, string>();
  const readable = new Set<string>();
  const unread = new Set<string>();
  for (const id of ids) {
    const language = languages.get(id);
    if (modelReadsLanguage(modelId, language)) readable.add(id);
    else unread.add(languageName(language!));
  }
  return { readable, unread };
}

/** The unavailable_paths entry for passages left out because the model does not read their language. */
export function unreadLanguagesNotice(modelId: string, languages: string): { path: 'vector'; reason: string } {
  return {
    path: 'vector',
    reason: `not used for passages in ${languages}: ${modelId} reads ${modelLanguagesInWords(modelId)}, so its similarity there would mean nothing; words and names still match`,
  };
}
