// What discovery knows about one item when weighing it against another: its entities, claims,
// key phrases, the date it states about itself, its own metadata and its vectors. Read for a
// whole batch of candidates at once, so the cost per candidate is a share of a few queries.

import type { DiscoveryFacts, ItemRecord, StoredClaim, StoredEntity, WorkspaceStore } from '../store/contract.ts';
import type { PhraseCount } from '../extract/types.ts';
import { countsAsSubject, type MetadataEntry } from '../parse/metadata.ts';
import { modelReadsLanguage } from '../embed/languages.ts';
import type { SimilarityBaseline } from './folderSimilarity.ts';
import type { ResolvedLink } from './links/itemLinks.ts';
import { discriminatingPhrases, documentFrequencyCap, PHRASE_POOL, type ComparedPhrase } from './discriminatingPhrases.ts';
import { chosenPhrases, indexedItems, phraseCounts, phraseMemory, rememberChoice } from './phraseMemory.ts';

/** Key phrases of each item compared for shared concepts and used as topics for claims. */
export const PHRASES_COMPARED = 12;

export interface ItemProfile {
  item: ItemRecord;
  entities: StoredEntity[];
  claims: StoredClaim[];
  /** The key phrases compared: the most frequent, or under tf-idf the ones that set the item apart (discriminatingPhrases.ts). */
  phrases: ComparedPhrase[];
  /** The first date the item states (ISO), taken as the date of what it describes; null when it states none. */
  date: string | null;
  /**
   * The first date a rule read as an event's ("completed on 16 May 2025": an event_date claim), not
   * an "as of" note or the document's own date line; what chronology reads under relationship-score-v2.
   */
  eventDate: string | null;
  vectors: Float32Array[];
  /** The metadata the item gives itself (front matter, document properties). */
  metadata: MetadataEntry[];
  /** Its links that resolve to files of the folder (discover/links), when discovery read them. */
  links?: ResolvedLink[];
  /** What is ordinary similarity for it in its folder (v2), when discovery read it; null when there is too little to say. */
  baseline?: SimilarityBaseline | null;
  /** The language it is written in (shared/languages.ts), when its extraction detected one. */
  language?: string | null;
  /** False when the embedding model does not read its language (embed/languages.ts): its cosine is no evidence. */
  readByModel?: boolean;
}

const NO_FACTS: DiscoveryFacts = { entities: [], claims: [], phrases: [], vectors: [], metadata: [] };

/** How the compared phrases are chosen (EvidenceRules.concepts); under tf-idf, document frequencies count up to `frequencyCap`. */
export interface PhraseChoice {
  concepts: 'most_frequent' | 'tf_idf';
  frequencyCap: number;
}

const MOST_FREQUENT: PhraseChoice = { concepts: 'most_frequent', frequencyCap: 0 };

export async function loadProfiles(
  store: WorkspaceStore,
  items: readonly ItemRecord[],
  modelId: string | null,
  choice: PhraseChoice = MOST_FREQUENT,
): Promise<ItemProfile[]> {
  // A duplicate's content lives on its original: only its bytes' identity can relate it.
  const live = items.filter((item) => item.status === 'indexed');
  const indexed = live.map((item) => item.id);
  const facts =
    indexed.length === 0
      ? new Map<string, DiscoveryFacts>()
      : choice.concepts === 'tf_idf'
        ? await factsByTfIdf(store, live, modelId, choice.frequencyCap)
        : await store.discoveryFacts(indexed, modelId, PHRASES_COMPARED);
  const languages = indexed.length > 0 ? await store.itemLanguages(indexed) : new Map<string, string>();
  return items.map((item) => {
    const found = facts.get(item.id) ?? NO_FACTS;
    const firstDate = found.entities.find((entity) => entity.type === 'date' && entity.value);
    const eventDate = found.claims.find((claim) => claim.kind === 'event_date' && claim.producer !== 'model');
    const language = languages.get(item.id) ?? null;
    return {
      item,
      ...found,
      date: firstDate?.value ?? null,
      eventDate: eventDate ? String(eventDate.value) : null,
      language,
      readByModel: modelReadsLanguage(modelId, language),
    };
  });
}

/**
 * The items' facts with, as their phrases, the PHRASES_COMPARED that set each apart in the folder,
 * chosen from its pool of frequent ones. An item meets many others' discoveries: its choice, and
 * the phrases' counts, are remembered while the folder's items and extractions stand
 * (phraseMemory.ts), and the pool of an item whose choice is remembered is not read again.
 */
async function factsByTfIdf(store: WorkspaceStore, items: readonly ItemRecord[], modelId: string | null, frequencyCap: number): Promise<Map<string, DiscoveryFacts>> {
  const memory = await phraseMemory(store);
  const choiceKey = (item: ItemRecord) => `${item.contentHash ?? ''}|${frequencyCap}`;
  const known = new Map<string, ComparedPhrase[]>();
  for (const item of items) {
    const phrases = chosenPhrases(memory, item.id, choiceKey(item));
    if (phrases) known.set(item.id, phrases);
  }
  const unchosen = items.filter((item) => !known.has(item.id));
  const facts = new Map<string, DiscoveryFacts>();
  if (known.size > 0) for (const [itemId, found] of await store.discoveryFacts([...known.keys()], modelId, 0)) facts.set(itemId, { ...found, phrases: known.get(itemId)! });
  if (unchosen.length === 0) return facts;
  const pools = await store.discoveryFacts(unchosen.map((item) => item.id), modelId, PHRASE_POOL);
  const itemCount = await indexedItems(store, memory);
  const keys = [...new Set([...pools.values()].flatMap((found) => found.phrases.map((phrase) => phrase.key)))];
  const itemsHaving = await phraseCounts(store, memory, keys, documentFrequencyCap(itemCount, frequencyCap));
  for (const item of unchosen) {
    const found = pools.get(item.id);
    if (!found) continue;
    found.phrases = discriminatingPhrases(found.phrases, itemsHaving, itemCount, PHRASES_COMPARED);
    rememberChoice(memory, item.id, choiceKey(item), found.phrases);
    facts.set(item.id, found);
  }
  return facts;
}

/** Words an item is about, for deciding whether two claims concern the same subject. */
export function topicsOf(profile: ItemProfile): string[] {
  return [profile.item.title ?? '', ...profile.phrases.map((phrase) => phrase.key)].filter(Boolean);
}

/** The item's metadata values that say what it is about (parse/metadata.ts, SUBJECT_KEYS), once each. */
export function subjectMetadata(profile: ItemProfile): MetadataEntry[] {
  return profile.metadata.filter((entry) => countsAsSubject(entry.key));
}
