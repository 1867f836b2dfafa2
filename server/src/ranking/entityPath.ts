// The entity path: items that mention an entity the query names. The query is read the way the
// extract stage reads a passage (so "Example Limited" and "EXAMPLE LTD" reach the same key), and
// its word n-grams are also tried as names without their legal form ("Example" finds "Example
// Ltd") or honorific ("Lena Fischer" finds "Ms. Lena Fischer"). Only a legal form may follow the
// name: "Tamsin" finds "Tamsin Ltd", not "Tamsin Holdings Ltd" or "Tamsin Biotech GmbH", each a
// name of its own (at 100,000 notes a project's name shared by ten such companies put 2,500 items
// on this path, and into every step after it). Unranked: an item mentions what the query names or
// it does not.

import { extractEntities, normaliseOrganisation } from '../extract/entities/index.ts';
import { isLegalFormChain, normaliseName } from '../extract/entities/legalSuffixes.ts';
import { STOP_WORDS } from '../extract/entities/nameRun.ts';
import { DETERMINERS } from '../extract/words.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import type { EntityMatch, PathHit, PathResult } from './paths.ts';

/** Longest run of query words tried as one name. */
const MAX_NGRAM = 4;

export interface QueryEntityKeys {
  /** Entity keys the query names exactly. */
  keys: string[];
  /** Key prefixes: an organisation's name, to be followed by legal forms alone (isLegalFormChain). */
  prefixes: string[];
}

function isNameWord(normalised: string): boolean {
  return normalised.length >= 3 && !/^\d+$/.test(normalised) && !STOP_WORDS.has(normalised) && !DETERMINERS.has(normalised);
}

export function queryEntityKeys(query: string): QueryEntityKeys {
  const keys = new Set(extractEntities(query).map((entity) => entity.key));
  const prefixes = new Set<string>();
  const words = query.split(/\s+/).map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.]+$/gu, '')).filter(Boolean);
  for (let start = 0; start < words.length; start += 1) {
    for (let length = 1; length <= MAX_NGRAM && start + length <= words.length; length += 1) {
      const text = words.slice(start, start + length).join(' ');
      const name = normaliseName(text);
      if (!name.split(' ').some(isNameWord)) continue;
      const organisation = normaliseOrganisation(text);
      if (organisation) keys.add(organisation);
      prefixes.add(`organisation:${name} `);
      if (length >= 2) keys.add(`person:${name}`);
      // Names the model stage found carry no legal form (extract/model/validate.ts, entityKey).
      for (const type of ['organisation', 'place', 'product']) keys.add(`${type}:${name}`);
    }
  }
  return { keys: [...keys], prefixes: [...prefixes] };
}

export async function entityPath(store: WorkspaceStore, query: string): Promise<PathResult> {
  const { keys, prefixes } = queryEntityKeys(query);
  const named = prefixes.length > 0 ? await store.entityKeysStartingWith(prefixes) : [];
  const withLegalForm = named.filter((key) => prefixes.some((prefix) => key.startsWith(prefix) && isLegalFormChain(key.slice(prefix.length))));
  const mentions = await store.entityMentions([...new Set([...keys, ...withLegalForm])]);
  const byItem = new Map<string, { chunkId: string; entities: Map<string, EntityMatch> }>();
  for (const mention of mentions) {
    const entry = byItem.get(mention.itemId) ?? { chunkId: mention.chunkId, entities: new Map() };
    const known = entry.entities.get(mention.key);
    // A rule's mention of the name wins over the model stage's: the item's name is then rule-found.
    if (!known || (known.byModel && mention.producer === 'deterministic')) {
      entry.entities.set(mention.key, { surface: mention.surface, type: mention.type, key: mention.key, ...(mention.producer === 'model' ? { byModel: true } : {}) });
    }
    byItem.set(mention.itemId, entry);
  }
  const hits: PathHit[] = [...byItem].map(([itemId, entry]) => ({
    itemId,
    rank: 0,
    score: 1,
    chunkId: entry.chunkId,
    entities: [...entry.entities.values()],
  }));
  return { path: 'entity', hits };
}
