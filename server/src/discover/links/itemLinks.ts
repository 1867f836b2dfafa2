// An item's links as discovery and `relata item` see them: read from its stored parse and
// resolved (resolve.ts) against the folder's live items and the names pages give themselves in
// their front matter, found through the store's metadata index. The store hands over facts; the
// resolver decides.

import { describeLocation } from '../../../../shared/locationWords.ts';
import type { Location } from '../../../../shared/types.ts';
import { LINK_NAME_KEYS } from '../../parse/metadata.ts';
import type { DocumentLink } from '../../parse/types.ts';
import type { ItemRecord, WorkspaceStore } from '../../store/contract.ts';
import { foldName, LinkIndex, type LinkResolution } from './resolve.ts';

export interface ResolvedLink {
  link: DocumentLink;
  /** The item linked to (a byte-identical copy's original). */
  toItemId: string;
  toPath: string;
  how: string;
}

export interface UnresolvedLink {
  link: DocumentLink;
  status: 'missing' | 'ambiguous' | 'outside_folder';
  /** For an ambiguous name, the files that answer to it. */
  candidates?: string[];
}

export interface ItemLinks {
  resolved: ResolvedLink[];
  /** Links to files that are not in the folder (or that name several): a broken-link report. */
  unresolved: UnresolvedLink[];
  /** Links to web pages and other URLs with a scheme: not files, counted only. */
  external: number;
}

export const NO_LINKS: ItemLinks = Object.freeze({ resolved: [], unresolved: [], external: 0 }) as ItemLinks;

/** Name look-ups made for one item's links at most: a file is untrusted, and each is an index query. */
const MAX_NAME_LOOKUPS = 300;

/** The folder's live items indexed for resolving links against: built once per folder state, never per item. */
export function folderLinkIndex(items: readonly ItemRecord[]): LinkIndex {
  const live = items.filter((item) => !item.deletedAt);
  return new LinkIndex(live.map((item) => ({ id: item.duplicateOf ?? item.id, path: item.path, title: item.title })));
}

/**
 * Resolves the links of an item, read from its parsed document (or given, as read before from the
 * same bytes); an item stored by an older parser has none.
 */
export async function itemLinks(store: WorkspaceStore, item: ItemRecord, byPath: LinkIndex, written?: readonly DocumentLink[]): Promise<ItemLinks> {
  const links = written ?? (await itemDocumentLinks(store, item));
  if (links.length === 0) return NO_LINKS;
  // Paths first; the front-matter names are looked up only for what paths did not resolve.
  const first = links.map((link) => byPath.resolve(link.target, item.path, link.kind));
  const unsure = links.filter((_, index) => first[index]!.status === 'missing' || first[index]!.status === 'ambiguous');
  const withNames = unsure.length > 0 ? byPath.withNames(await frontMatterNames(store, unsure)) : byPath;
  const result: ItemLinks = { resolved: [], unresolved: [], external: 0 };
  for (const [index, link] of links.entries()) {
    const found: LinkResolution = first[index]!.status === 'missing' || first[index]!.status === 'ambiguous' ? withNames.resolve(link.target, item.path, link.kind) : first[index]!;
    if (found.status === 'resolved') result.resolved.push({ link, toItemId: found.itemId, toPath: found.path, how: found.how });
    else if (found.status === 'external') result.external += 1;
    else if (found.status === 'ambiguous') result.unresolved.push({ link, status: 'ambiguous', candidates: found.candidates });
    else if (found.status === 'missing' || found.status === 'outside_folder') result.unresolved.push({ link, status: found.status });
  }
  return result;
}

/** The links an item's parsed document writes: a copy's are its original's. */
export function itemDocumentLinks(store: WorkspaceStore, item: ItemRecord): Promise<DocumentLink[]> {
  return store.listDocumentLinks(item.duplicateOf ?? item.id);
}

/**
 * The front-matter names (id, slug, permalink, class, aliases) the links could mean, each with
 * the items giving it: only names the links write, so the cost follows the links, not the folder.
 */
async function frontMatterNames(store: WorkspaceStore, links: readonly DocumentLink[]): Promise<Map<string, string[]>> {
  const wanted = new Set<string>();
  for (const link of links) {
    const bare = link.target.trim().replace(/[?#].*$/s, '');
    if (bare === '' || /^[a-z][a-z0-9+.-]*:/i.test(bare)) continue;
    wanted.add(foldName(bare));
  }
  const names = new Map<string, string[]>();
  let lookups = 0;
  for (const name of wanted) {
    if (name === '') continue;
    // A permalink is commonly written with its slashes (`/docs/topic/`): both spellings are asked for.
    for (const value of new Set([name, `/${name}`, `/${name}/`])) {
      for (const key of LINK_NAME_KEYS) {
        if (lookups++ >= MAX_NAME_LOOKUPS) return names;
        const ids = await store.itemsWithMetadata({ key, value }, '', 5);
        if (ids.length > 0) names.set(name, [...(names.get(name) ?? []), ...ids]);
      }
    }
  }
  return names;
}

/** "line 12", "paragraph 3", "slide 2", "Costs, row 7": where a link in the file at `filePath` stands, in words. */
export function linkPlace(location: Location, filePath: string): string {
  return describeLocation({ ...location, end: location.start }, filePath);
}

/** `[the build guide](../b/)`: the link as a reader would recognise it. */
export function linkAsWritten(link: DocumentLink): string {
  if (link.kind === 'wiki') return `[[${link.target}${link.text !== link.target.replace(/#.*$/, '') ? `|${link.text}` : ''}]]`;
  if (link.kind === 'front_matter') return link.text;
  return `[${link.text}](${link.target})`;
}
