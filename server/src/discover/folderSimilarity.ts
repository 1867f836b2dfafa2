// How alike an item is to the rest of its folder, so a pair's similarity can be judged against it
// (relationship-score-v2, rule 1). One fixed cosine floor cannot serve every folder: under the
// English model the median pair of German guides sits at 0.895, far above any floor, while related
// English pages sit at 0.70-0.80 among unrelated ones at 0.40-0.60. Each item's typical similarity
// is read against a small, fixed sample of its folder (median and spread), so a pair counts only by
// how far it stands above what is ordinary for both of its items.

import type { ItemRecord, WorkspaceStore } from '../store/contract.ts';
import { comparedCosine, comparedWindows } from './itemCosine.ts';

/** Items each item is compared with to learn what is ordinary for it: enough for a median, bounded per item. */
export const BASELINE_SAMPLE = 24;

/**
 * The spread is never read as narrower than this: in a folder where every pair is alike the
 * measured spread can be tiny, and a pair a hair above the rest would otherwise "stand out".
 */
export const MIN_SPREAD = 0.03;

/**
 * Items whose baselines are remembered per store, so a whole run computes each once: every item of
 * a 100,000-note folder (about 420 bytes each, 50 MB in all). Fewer, and in a folder larger than this an item's
 * candidates were mostly forgotten ones, each costing its 24 comparisons again for every item that
 * met it (issue 32).
 */
const REMEMBERED = 120_000;

export interface SimilarityBaseline {
  /** The item's median cosine to the sample. */
  typical: number;
  /** 1.4826 × the median absolute deviation (a spread the few related items in the sample cannot inflate), at least MIN_SPREAD. */
  spread: number;
  /** Items in the sample; 0 when the folder has no other item with vectors. */
  sampled: number;
}

/** The part of the folder every baseline is read against: built once per state of the folder (folderView.ts). */
export interface FolderSample {
  /** Live indexed items in the folder. */
  live: number;
  /** The items each baseline compares with, the same for every item. */
  sample: ItemRecord[];
  /** The sample's ids and bytes: a baseline holds while it does, whatever else of the folder changes. */
  key: string;
}

/**
 * A baseline, with what it was read for: the model, the item's bytes and the sample (FolderSample.key).
 * Nothing else of the folder enters it, so files added or deleted outside the sample leave it standing.
 */
interface KnownBaseline {
  modelId: string;
  contentHash: string | null;
  sampleKey: string;
  baseline: SimilarityBaseline;
}

interface Remembered {
  /** By item id. */
  baselines: Map<string, KnownBaseline>;
  /** The folder's sample and its compared windows (itemCosine.ts), read once for a whole run (keyed by the sample's ids and bytes). */
  sample: { key: string; windows: Map<string, Float32Array[]> } | null;
}

const remembered = new WeakMap<WorkspaceStore, Remembered>();

/**
 * The baseline of each item, from one sample of the live items of its folder (the same for every
 * item and every run, chosen by a hash of their bytes, so its vectors are read once per run; an
 * item is never in its own sample). Null for an item with no vectors or in a folder too small to say
 * what is ordinary (fewer than 4 other items).
 */
export async function similarityBaselines(
  store: WorkspaceStore,
  modelId: string,
  items: readonly { item: ItemRecord; vectors: readonly Float32Array[] }[],
  folder: FolderSample,
): Promise<Map<string, SimilarityBaseline | null>> {
  const memory = remembered.get(store) ?? { baselines: new Map<string, KnownBaseline>(), sample: null };
  remembered.set(store, memory);
  const result = new Map<string, SimilarityBaseline | null>();
  const { sample } = folder;
  for (const { item, vectors } of items) {
    const known = memory.baselines.get(item.id);
    if (known?.modelId === modelId && known.contentHash === item.contentHash && known.sampleKey === folder.key) {
      result.set(item.id, known.baseline);
      continue;
    }
    if (vectors.length === 0 || folder.live < 5) {
      result.set(item.id, null);
      continue;
    }
    const sampleWindows = await windowsOfSample(store, memory, modelId, folder);
    const own = comparedWindows(vectors);
    const others = sample.filter((other) => other.id !== item.id).slice(0, BASELINE_SAMPLE);
    const cosines = others.flatMap((other) => {
      const windows = sampleWindows.get(other.id) ?? [];
      return windows.length === 0 ? [] : [comparedCosine(own, windows)];
    });
    if (cosines.length < 4) {
      result.set(item.id, null);
      continue;
    }
    const baseline = baselineOf(cosines);
    memory.baselines.delete(item.id);
    if (memory.baselines.size >= REMEMBERED) memory.baselines.delete(memory.baselines.keys().next().value!);
    memory.baselines.set(item.id, { modelId, contentHash: item.contentHash, sampleKey: folder.key, baseline });
    result.set(item.id, baseline);
  }
  return result;
}

async function windowsOfSample(store: WorkspaceStore, memory: Remembered, modelId: string, folder: FolderSample): Promise<Map<string, Float32Array[]>> {
  const { sample } = folder;
  const key = `${modelId}|${folder.key}`;
  if (memory.sample?.key !== key) {
    const facts = await store.discoveryFacts(sample.map((item) => item.id), modelId, 0);
    memory.sample = { key, windows: new Map(sample.map((item) => [item.id, comparedWindows(facts.get(item.id)?.vectors ?? [])])) };
  }
  return memory.sample.windows;
}

/** Median and robust spread of one item's cosines to its sample. */
export function baselineOf(cosines: readonly number[]): SimilarityBaseline {
  const typical = median(cosines);
  const deviation = median(cosines.map((value) => Math.abs(value - typical)));
  return { typical, spread: Math.max(MIN_SPREAD, 1.4826 * deviation), sampled: cosines.length };
}

/**
 * How many spreads the pair's cosine stands above what is ordinary for the item it stands out
 * less for: a pair is unusual only if it is unusual for both of its items.
 */
export function standing(cosine: number, a: SimilarityBaseline, b: SimilarityBaseline): number {
  return Math.min((cosine - a.typical) / a.spread, (cosine - b.typical) / b.spread);
}

/** The folder's live indexed items and its sample: one more than BASELINE_SAMPLE, so an item in it still has BASELINE_SAMPLE others. */
export function folderSample(folder: readonly ItemRecord[]): FolderSample {
  const live = folder.filter((item) => item.status === 'indexed' && !item.deletedAt);
  const sample = folderSampleOf(live);
  return { live: live.length, sample, key: sample.map((item) => `${item.id}:${item.contentHash}`).join(',') };
}

/**
 * Ranked by a hash of each item's bytes (then its path): the same folder gives the same sample in
 * any store. Item ids are random, and a sample chosen by them made two indexes of one folder
 * propose different pairs (SciFact's claims under relationship-score-v2: 23, 27 and 29 proposals
 * in three fresh stores, docs/PERFORMANCE.md).
 */
function folderSampleOf(live: readonly ItemRecord[]): ItemRecord[] {
  return live
    .map((item) => ({ item, rank: mix(item.contentHash ?? '') }))
    .sort((x, y) => x.rank - y.rank || codePointOrder(x.item.path, y.item.path) || codePointOrder(x.item.id, y.item.id))
    .slice(0, BASELINE_SAMPLE + 1)
    .map((entry) => entry.item);
}

const codePointOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** FNV-1a: a cheap, stable hash, so the sample is spread over the folder and the same every run. */
function mix(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
