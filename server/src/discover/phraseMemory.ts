// What discovery remembers between items about the folder's key phrases: how many items have each
// phrase (its document frequency), the folder's count of indexed items, and the phrases each item
// is compared by under tf-idf (discriminatingPhrases.ts). Every item discovered weighs about a
// hundred candidates, each with a pool of 64 phrases whose frequencies were counted anew for every
// item that met it: at 2,000 notes a third of an item's discovery (issue 32). All of it follows
// from the items' extractions and statuses, so it is kept per store while the store's count of
// changes to its items and their extractions stands (WorkspaceStore.itemsGeneration), and dropped
// the moment it moves; a store that cannot count remembers nothing between items.

import type { WorkspaceStore } from '../store/contract.ts';
import type { ComparedPhrase } from './discriminatingPhrases.ts';

/**
 * Phrase frequencies kept (about 130 bytes each, 26 MB in all): the common phrases, whose counts
 * cost the most, recur in most items' pools and stay among the recent.
 */
const COUNTS_KEPT = 200_000;

/**
 * Items whose compared phrases are kept (about 3.5 KB each, 70 MB in all): past this, an item
 * meeting a forgotten candidate chooses its phrases again from counts still kept.
 */
const CHOICES_KEPT = 20_000;

export interface PhraseMemory {
  /** Items with each phrase among their key phrases, as counted with the cap it was counted to. */
  counts: Map<string, { n: number; cap: number }>;
  /** Each item's compared phrases, for its bytes and the frequency cap they were chosen under. */
  chosen: Map<string, { key: string; phrases: ComparedPhrase[] }>;
  itemCount: number | null;
}

const kept = new WeakMap<WorkspaceStore, { generation: number; memory: PhraseMemory }>();

const fresh = (): PhraseMemory => ({ counts: new Map(), chosen: new Map(), itemCount: null });

/** The memory for the folder as it stands now: empty after any change to its items or extractions. */
export async function phraseMemory(store: WorkspaceStore): Promise<PhraseMemory> {
  // Read before anything is counted: a change landing after it moves the count, and the next call starts afresh.
  const generation = await store.itemsGeneration();
  if (generation === null) return fresh();
  const known = kept.get(store);
  if (known?.generation === generation) return known.memory;
  const memory = fresh();
  kept.set(store, { generation, memory });
  return memory;
}

/** The folder's indexed items (WorkspaceStore.countIndexedItems), counted once per state of the folder. */
export async function indexedItems(store: WorkspaceStore, memory: PhraseMemory): Promise<number> {
  memory.itemCount ??= await store.countIndexedItems();
  return memory.itemCount;
}

/**
 * WorkspaceStore.phraseItemCounts, reading only the keys not known to this cap: a count below the
 * cap it was counted to is exact, one that reached it says only "at least".
 */
export async function phraseCounts(store: WorkspaceStore, memory: PhraseMemory, keys: readonly string[], cap: number): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  const missing: string[] = [];
  for (const key of new Set(keys)) {
    const known = memory.counts.get(key);
    if (known && (known.n < known.cap || cap <= known.cap)) result.set(key, Math.min(known.n, cap));
    else missing.push(key);
  }
  if (missing.length === 0) return result;
  for (const [key, n] of await store.phraseItemCounts(missing, cap)) {
    result.set(key, n);
    remember(memory.counts, key, { n, cap }, COUNTS_KEPT);
  }
  return result;
}

/** An item's compared phrases, when they were chosen for these bytes under this cap in this state of the folder. */
export function chosenPhrases(memory: PhraseMemory, itemId: string, key: string): ComparedPhrase[] | undefined {
  const known = memory.chosen.get(itemId);
  return known?.key === key ? known.phrases : undefined;
}

export function rememberChoice(memory: PhraseMemory, itemId: string, key: string, phrases: ComparedPhrase[]): void {
  remember(memory.chosen, itemId, { key, phrases }, CHOICES_KEPT);
}

function remember<T>(map: Map<string, T>, key: string, value: T, limit: number): void {
  map.delete(key);
  if (map.size >= limit) map.delete(map.keys().next().value!);
  map.set(key, value);
}
