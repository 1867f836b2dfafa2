// Search's own look-ups on MongoDB (title substring, entity keys, the facts a result shows), as
// sqlite/searchQueries.ts: only live indexed items are found or shown.

import type { EntityMention, SearchItemInfo } from '../contract.ts';
import type { EntityDocument, ItemDocument } from './collections.ts';
import type { ScopedCollection } from './scope.ts';

const LIVE_ITEM = { status: 'indexed', live: true } as const;

/**
 * A pattern matching `text` anywhere, with ASCII letters in either case and every other character
 * as it is: SQLite's lower() folds ASCII only, and so does this (a regex `i` flag would fold more).
 */
export function asciiFoldedPattern(text: string): string {
  let pattern = '';
  for (const char of text) {
    if (/[a-z]/i.test(char)) pattern += `[${char.toLowerCase()}${char.toUpperCase()}]`;
    else pattern += char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
  }
  return pattern;
}

/** The key range holding every key that starts with `prefix` (byte order, as both stores compare strings). */
export function prefixRange(prefix: string): { low: string; high: string } {
  const last = prefix.length - 1;
  return { low: prefix, high: prefix.slice(0, last) + String.fromCharCode(prefix.charCodeAt(last) + 1) };
}

/** Live indexed items whose title contains the text, shortest title (in characters) first, then by path. */
export async function titleMatches(items: ScopedCollection<ItemDocument>, text: string, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const rows = await items
    .aggregate<{ id: string }>([
      { $match: items.filter({ ...LIVE_ITEM, title: { $regex: asciiFoldedPattern(text) } }) },
      { $project: { _id: 0, id: 1, path: 1, length: { $strLenCP: '$title' } } },
      { $sort: { length: 1, path: 1 } },
      { $limit: limit },
    ])
    .toArray();
  return rows.map((row) => row.id);
}

export async function entityMentions(
  entities: ScopedCollection<EntityDocument>,
  items: ScopedCollection<ItemDocument>,
  keys: readonly string[],
): Promise<EntityMention[]> {
  if (keys.length === 0) return [];
  const projection = { projection: { itemId: 1, chunkId: 1, key: 1, type: 1, surface: 1, producer: 1 } };
  const found = await entities.find(entities.filter({ key: { $in: [...keys] } }), projection).toArray();
  if (found.length === 0) return [];
  const live = await liveIndexed(items, found.map((entity) => entity.itemId));
  return found
    .filter((entity) => live.has(entity.itemId))
    .map((entity) => ({ itemId: entity.itemId, chunkId: entity.chunkId, key: entity.key, type: entity.type, surface: entity.surface, producer: entity.producer }));
}

export async function entityKeysStartingWith(entities: ScopedCollection<EntityDocument>, prefixes: readonly string[]): Promise<string[]> {
  const keys = new Set<string>();
  for (const prefix of prefixes) {
    if (prefix.length === 0) continue;
    const { low, high } = prefixRange(prefix);
    for (const key of (await entities.distinct('key', entities.filter({ key: { $gte: low, $lt: high } }))) as string[]) keys.add(key);
  }
  return [...keys];
}

async function liveIndexed(items: ScopedCollection<ItemDocument>, ids: readonly string[]): Promise<Set<string>> {
  const rows = await items.find(items.filter({ ...LIVE_ITEM, id: { $in: [...new Set(ids)] } }), { projection: { id: 1 } }).toArray();
  return new Set(rows.map((row) => row.id));
}

/** Path, title and the date the store first saw the current bytes, of the live indexed items among these. */
export async function searchItemInfo(items: ScopedCollection<ItemDocument>, itemIds: readonly string[]): Promise<SearchItemInfo[]> {
  if (itemIds.length === 0) return [];
  const rows = await items
    .find(items.filter({ ...LIVE_ITEM, id: { $in: [...new Set(itemIds)] } }), { projection: { id: 1, path: 1, title: 1, version: 1, versions: 1, createdAt: 1 } })
    .toArray();
  return rows.map((row) => ({
    itemId: row.id,
    path: row.path,
    title: row.title,
    versionSeenAt: row.versions.find((version) => version.version === row.version)?.createdAt ?? row.createdAt,
  }));
}
