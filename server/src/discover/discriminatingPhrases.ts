// Which of an item's key phrases discovery compares under relationship-score-v2 (rule 2): the ones
// that set it apart in this folder, by the tf-idf weight the item view already shows
// (extract/concepts.ts weightConcepts), not the most frequent. Counted raw, 60 CUAD contracts
// shared "project", "Agreement", "change" and "lead": words nearly every contract uses.
// Phrases most files use, stop words and pronouns never count. Keys are whole words: the
// extractor's tokens are whole words ("misleading" never yields "lead"), so nothing is cut here.

import { isConceptWord, weightConcepts } from '../extract/concepts.ts';
import type { PhraseCount } from '../extract/types.ts';

/**
 * An item's most frequent phrases weighed by tf-idf: a bounded pool, so one item costs at most
 * this many document-frequency look-ups. A phrase past the 64th most frequent occurs no more often
 * than the 64th, and the pool is deep enough for its rare ones to outweigh common ones.
 */
export const PHRASE_POOL = 64;

/** A phrase in more than this share of the folder's files says nothing about a pair of them. */
export const COMMON_PHRASE_SHARE = 0.5;

/** ...counted only from this many files: in a folder of four, two files sharing a phrase is not "most". */
export const COMMON_PHRASE_MIN_FILES = 3;

/** A compared phrase, with the items whose phrases include it when discovery weighed them (tf-idf). */
export interface ComparedPhrase extends PhraseCount {
  items?: number;
}

/** Whether a phrase is in most of the folder's files. */
export function inMostFiles(items: number, itemCount: number): boolean {
  return items >= COMMON_PHRASE_MIN_FILES && items > COMMON_PHRASE_SHARE * itemCount;
}

/**
 * Counts of the document frequency needed: past half the folder a phrase is left out whatever its
 * exact count, so counting stops there (and at the frequency cap in a large folder).
 */
export function documentFrequencyCap(itemCount: number, frequencyCap: number): number {
  return Math.max(COMMON_PHRASE_MIN_FILES, Math.min(frequencyCap, Math.floor(COMMON_PHRASE_SHARE * itemCount) + 1));
}

/**
 * The `limit` phrases of `pool` with the highest tf-idf weight among `itemCount` files, after
 * leaving out phrases in most files and any holding a stop word or pronoun. `itemsHaving` gives each
 * key's document frequency.
 */
export function discriminatingPhrases(
  pool: readonly PhraseCount[],
  itemsHaving: ReadonlyMap<string, number>,
  itemCount: number,
  limit: number,
): ComparedPhrase[] {
  const items = (key: string) => Math.max(1, itemsHaving.get(key) ?? 1);
  const eligible = pool.filter((phrase) => {
    const words = phrase.key.split(' ');
    return !inMostFiles(items(phrase.key), itemCount) && words.every((word) => isConceptWord(word, words.length === 1));
  });
  const byKey = new Map(eligible.map((phrase) => [phrase.key, phrase]));
  return weightConcepts(eligible, items, itemCount, limit).map((weighted) => ({ ...byKey.get(weighted.key)!, items: items(weighted.key) }));
}
