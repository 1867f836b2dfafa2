// A link written before its target arrived resolves to nothing when its file is discovered; when
// the target comes (added, renamed, restored), the linking file must be discovered again. Once
// per drain in which the folder's set of paths changed, every item whose links now resolve to a
// file it is not yet related to is queued for discovery again.
//
// A store's last check is remembered (per store, in this process): each item's links as its bytes
// wrote them and what they resolved to. The next check reads the links only of items whose bytes
// changed, resolves every item's links against the folder as it now is (in memory), and asks for
// the relationships only of items whose links now resolve differently, a few hundred at a time.
// Reading every item's links and relationships at every path change made each save of a new file
// cost ~1 s in a folder of 2,000 notes, growing with the folder (docs/PERFORMANCE.md, issue 32).

import { createHash } from 'node:crypto';
import type { DocumentLink } from '../../parse/types.ts';
import type { WorkspaceStore } from '../../store/contract.ts';
import { folderLinkIndex, itemDocumentLinks, itemLinks } from './itemLinks.ts';

/** The store meta key holding the fingerprint of the paths the last check saw. */
const PATHS_SEEN_KEY = 'links.paths-seen';

/** relationshipsTouching's items per call. */
const RELATIONSHIPS_BATCH = 500;

interface CheckedItem {
  /** The bytes the links were read from. */
  contentHash: string | null;
  links: DocumentLink[];
  /** The other items its links resolved to, sorted and joined. */
  targets: string;
}

const remembered = new WeakMap<WorkspaceStore, Map<string, CheckedItem>>();

/** Resets discovery of the items that link to a file they are not related to; returns how many. */
export async function rediscoverLinksToNewFiles(store: WorkspaceStore): Promise<number> {
  const all = await store.listItems();
  const live = all.filter((item) => !item.deletedAt);
  const fingerprint = createHash('sha256')
    .update(live.map((item) => item.path).sort().join('\n'))
    .digest('hex');
  if ((await store.getMeta(PATHS_SEEN_KEY)) === fingerprint) return 0;
  const linkable = folderLinkIndex(all);
  const before = remembered.get(store) ?? new Map<string, CheckedItem>();
  const now = new Map<string, CheckedItem>();
  // Items whose links resolve to other items, and not as they did at the last check.
  const changed = new Map<string, Set<string>>();
  for (const item of live) {
    if (item.status !== 'indexed') continue;
    const known = before.get(item.id);
    const links = known && known.contentHash === item.contentHash ? known.links : await itemDocumentLinks(store, item);
    const { resolved } = links.length === 0 ? { resolved: [] } : await itemLinks(store, item, linkable, links);
    const targets = new Set(resolved.map((link) => link.toItemId).filter((id) => id !== item.id));
    const checked = { contentHash: item.contentHash, links, targets: [...targets].sort().join(',') };
    now.set(item.id, checked);
    if (targets.size > 0 && (known?.targets !== checked.targets || known.contentHash !== item.contentHash)) changed.set(item.id, targets);
  }
  const stale: string[] = [];
  const ids = [...changed.keys()];
  for (let start = 0; start < ids.length; start += RELATIONSHIPS_BATCH) {
    const slice = ids.slice(start, start + RELATIONSHIPS_BATCH);
    const related = new Map<string, Set<string>>(slice.map((id) => [id, new Set<string>()]));
    for (const relationship of await store.relationshipsTouching(slice)) {
      related.get(relationship.fromItemId)?.add(relationship.toItemId);
      related.get(relationship.toItemId)?.add(relationship.fromItemId);
    }
    for (const id of slice) if ([...changed.get(id)!].some((target) => !related.get(id)!.has(target))) stale.push(id);
  }
  if (stale.length > 0) await store.resetDiscovery(stale);
  await store.setMeta(PATHS_SEEN_KEY, fingerprint);
  remembered.set(store, now);
  return stale.length;
}
