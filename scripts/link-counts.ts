// How many links the authors wrote were read and resolved in an indexed store, and how many
// relationships of type links_to were stored: the figures docs/SCORING.md reports for v2.
// Usage: node --import tsx scripts/link-counts.ts <store data dir>

import { itemLinks, linkableItems } from '../server/src/discover/links/itemLinks.ts';
import os from 'node:os';
import { openStore } from '../server/src/store/index.ts';

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: node --import tsx scripts/link-counts.ts <store data dir>');
  process.exit(2);
}
const store = openStore({ dataDir, workspace: process.env.RELATA_WORKSPACE ?? os.userInfo().username, access: 'read' });
const all = await store.listItems();
const linkable = linkableItems(all);
const totals = { read: 0, toFiles: 0, resolved: 0, external: 0, unresolved: 0, ambiguous: 0 };
for (const item of all.filter((entry) => !entry.deletedAt && entry.status === 'indexed')) {
  const links = await itemLinks(store, item, linkable);
  const read = (await store.getParsedText(item.id))?.document.links?.length ?? 0;
  totals.read += read;
  totals.resolved += links.resolved.length;
  totals.external += links.external;
  totals.unresolved += links.unresolved.filter((link) => link.status !== 'ambiguous').length;
  totals.ambiguous += links.unresolved.filter((link) => link.status === 'ambiguous').length;
}
totals.toFiles = totals.read - totals.external;
const relationships = await store.listRelationships();
const byType: Record<string, number> = {};
for (const relationship of relationships) byType[relationship.type] = (byType[relationship.type] ?? 0) + 1;
const linkedPairs = new Set<string>();
for (const item of all.filter((entry) => !entry.deletedAt && entry.status === 'indexed')) {
  for (const link of (await itemLinks(store, item, linkable)).resolved) {
    if (link.toItemId !== item.id) linkedPairs.add([item.id, link.toItemId].sort().join('|'));
  }
}
const stored = new Set(relationships.map((relationship) => [relationship.fromItemId, relationship.toItemId].sort().join('|')));
console.log(
  JSON.stringify(
    { links: totals, linked_pairs: linkedPairs.size, linked_pairs_stored: [...linkedPairs].filter((pair) => stored.has(pair)).length, relationships: relationships.length, by_type: byType },
    null,
    2,
  ),
);
await store.close();
