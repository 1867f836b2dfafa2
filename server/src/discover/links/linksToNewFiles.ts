// A link written before its target arrived resolves to nothing when its file is discovered; when
// the target comes (added, renamed, restored), the linking file must be discovered again. Once
// per drain in which the folder's set of paths changed, every item whose links now resolve to a
// file it is not yet related to is queued for discovery again. Simple and correct: the cost is
// one read of each item's links, paid only when paths changed.

import { createHash } from 'node:crypto';
import type { WorkspaceStore } from '../../store/contract.ts';
import { folderLinkIndex, itemLinks } from './itemLinks.ts';

/** The store meta key holding the fingerprint of the paths the last check saw. */
const PATHS_SEEN_KEY = 'links.paths-seen';

/** Resets discovery of the items that link to a file they are not related to; returns how many. */
export async function rediscoverLinksToNewFiles(store: WorkspaceStore): Promise<number> {
  const all = await store.listItems();
  const live = all.filter((item) => !item.deletedAt);
  const fingerprint = createHash('sha256')
    .update(live.map((item) => item.path).sort().join('\n'))
    .digest('hex');
  if ((await store.getMeta(PATHS_SEEN_KEY)) === fingerprint) return 0;
  const linkable = folderLinkIndex(all);
  const stale: string[] = [];
  for (const item of live) {
    if (item.status !== 'indexed') continue;
    const { resolved } = await itemLinks(store, item, linkable);
    if (resolved.length === 0) continue;
    const related = new Set<string>();
    for (const relationship of await store.relationshipsTouching([item.id])) related.add(relationship.fromItemId).add(relationship.toItemId);
    if (resolved.some((link) => link.toItemId !== item.id && !related.has(link.toItemId))) stale.push(item.id);
  }
  if (stale.length > 0) await store.resetDiscovery(stale);
  await store.setMeta(PATHS_SEEN_KEY, fingerprint);
  return stale.length;
}
