// Reviewing candidate aliases. Confirming one makes it evidence (alias_entity) for every pair of
// items it links, so the items naming either form are discovered again at the next run; rejecting
// one does the same, in case an earlier confirmation had made it evidence.

import { userInfo } from 'node:os';
import type { EntityAliasView } from '../../../shared/types.ts';
import type { WorkspaceStore } from '../store/contract.ts';

export interface AliasDecision {
  status: 'confirmed' | 'rejected';
  by?: string;
  note?: string | null;
}

export interface DecidedAlias {
  alias: EntityAliasView;
  /** Items that will be discovered again at the next `relata index` or `relata reprocess`. */
  itemsToRediscover: number;
}

/** Enough for any workspace: a person's decision is rare, and every item naming the alias must be revisited. */
const ALL_ITEMS = Number.MAX_SAFE_INTEGER;

export async function decideAlias(store: WorkspaceStore, id: string, decision: AliasDecision): Promise<DecidedAlias> {
  const alias = await store.decideAlias(id, {
    status: decision.status,
    by: decision.by?.trim() || userInfo().username,
    note: decision.note?.trim() || null,
  });
  const items = new Set<string>();
  for (const key of [alias.a.key, alias.b.key]) for (const item of await store.itemsMentioning(key, '', ALL_ITEMS)) items.add(item);
  await store.resetDiscovery([...items]);
  return { alias, itemsToRediscover: items.size };
}
