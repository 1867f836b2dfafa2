// The one place a link's target becomes a file of the folder (STYLE.md: links resolved in one
// place, by path suffix, as foam's workspace trie does). Pure: it matches a target against the
// store's list of items and the names pages give themselves, and never touches the filesystem,
// so no link can make Relata read outside the folder. Relative paths, pretty URLs (`../b/`),
// `.html` pages built from `.md` sources, site-absolute paths (`/docs/topic/`), wiki names and
// front-matter names all resolve here; nothing else guesses paths.

import path from 'node:path';
import type { LinkKind } from '../../parse/types.ts';

/** An item a link may point at. */
export interface LinkableItem {
  id: string;
  /** Folder-relative, `/`-separated. */
  path: string;
  title: string | null;
}

export type LinkResolution =
  | { status: 'resolved'; itemId: string; path: string; how: string }
  /** A URL with a scheme (`https:`, `mailto:`) or a network path: not a file of the folder. */
  | { status: 'external' }
  /** An anchor in the linking document itself, or a link back to it. */
  | { status: 'same_document' }
  /** The path climbs out of the folder: it resolves to nothing, and nothing is read. */
  | { status: 'outside_folder' }
  /** More than one file answers to the name; none is chosen. */
  | { status: 'ambiguous'; candidates: string[] }
  /** No file of the folder answers to it. */
  | { status: 'missing' };

/** Extensions a Markdown source may stand behind in a link (`a.html` is built from `a.md`). */
const SOURCE_EXTENSIONS = ['.md', '.markdown'];
const PAGE_EXTENSIONS = new Set(['.html', '.htm']);
/** Files a directory link (`docs/topic/`) opens. */
const INDEX_NAMES = ['index', 'readme', '_index'];
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Lower case and NFKC, so `Build Guide` and `build guide` meet; exact case narrows ties afterwards. */
export function foldName(name: string): string {
  return name.normalize('NFKC').toLowerCase().trim().replace(/^\/+|\/+$/g, '');
}

/** The path, suffix and title tables of a folder's items: built once, shared by every view with names. */
interface LinkTables {
  byPath: Map<string, LinkableItem>;
  byFoldedPath: Map<string, LinkableItem[]>;
  bySuffix: Map<string, LinkableItem[]>;
  byTitle: Map<string, LinkableItem[]>;
  byId: Map<string, LinkableItem>;
}

/**
 * The folder's items, indexed for resolution: by exact path, and by every trailing run of path
 * segments without the extension (`guides/topic.md` answers to `topic` and `guides/topic`; an
 * `index.md` also to its directory's name). Built once per state of the folder (discover/folderView.ts):
 * building it costs a pass over every item, so it is never built per link or per item.
 */
export class LinkIndex {
  private readonly tables: LinkTables;

  /** `names`: folded front-matter names (id, slug, permalink, class, aliases) → the ids of the items giving them. */
  constructor(
    items: readonly LinkableItem[] | LinkTables,
    private readonly names: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {
    this.tables = Array.isArray(items) ? tablesOf(items) : (items as LinkTables);
  }

  /** The same folder's index, also answering to these front-matter names; the tables are shared, not rebuilt. */
  withNames(names: ReadonlyMap<string, readonly string[]>): LinkIndex {
    return new LinkIndex(this.tables, names);
  }

  /**
   * Where `target`, written in the file at `fromPath` as a link of `kind`, points. Wiki-links and
   * bare front-matter values are names; every other target is a path, relative to the linking file
   * (or, written with a leading `/`, to the site's root).
   */
  resolve(target: string, fromPath: string, kind: LinkKind): LinkResolution {
    const raw = target.trim().replace(/^<(.*)>$/, '$1');
    if (raw === '' || raw.startsWith('#')) return { status: 'same_document' };
    if (SCHEME.test(raw) || raw.startsWith('//')) return { status: 'external' };
    const bare = decode(raw.replace(/[?#].*$/s, '')).replace(/\\/g, '/');
    if (bare === '') return { status: 'same_document' };
    const isName = kind === 'wiki' || (kind === 'front_matter' && !bare.includes('/') && !hasExtension(bare));
    const found = isName ? this.byName(bare) : bare.startsWith('/') ? this.siteAbsolute(bare) : this.relative(bare, fromPath);
    if (found.status === 'resolved' && found.path === fromPath) return { status: 'same_document' };
    return found;
  }

  /** A relative path, from the file's directory, then (for sites with pretty URLs) from the page's own URL `dir/name/`. */
  private relative(target: string, fromPath: string): LinkResolution {
    const directory = path.posix.dirname(fromPath);
    const pageUrl = path.posix.join(directory, stripExtension(path.posix.basename(fromPath)));
    let climbedOut = false;
    for (const base of [directory, pageUrl]) {
      const joined = path.posix.normalize(path.posix.join(base, target));
      if (joined === '..' || joined.startsWith('../') || path.posix.isAbsolute(joined)) {
        climbedOut = true;
        continue;
      }
      const found = this.atPath(joined.replace(/\/+$/, ''), target.endsWith('/'));
      if (found) return { status: 'resolved', itemId: found.id, path: found.path, how: 'by its path' };
    }
    return climbedOut ? { status: 'outside_folder' } : { status: 'missing' };
  }

  /** `/docs/topic/`: the permalink a page gives itself, else the longest run of trailing segments one file answers to. */
  private siteAbsolute(target: string): LinkResolution {
    const segments = target.split('/').filter((segment) => segment !== '' && segment !== '.');
    if (segments.includes('..')) return { status: 'outside_folder' };
    const named = this.named(foldName(target));
    if (named) return named;
    const exact = this.atPath(segments.join('/'), target.endsWith('/'));
    if (exact) return { status: 'resolved', itemId: exact.id, path: exact.path, how: 'by its path from the folder root' };
    for (let start = 0; start < segments.length; start += 1) {
      const found = this.bySuffixKey(stripExtension(segments.slice(start).join('/')), segments.slice(start).join('/'));
      if (found.status !== 'missing') return found.status === 'resolved' ? { ...found, how: 'by the trailing segments of its path' } : found;
    }
    return { status: 'missing' };
  }

  /** A wiki name or a front-matter value: the shortest unique path suffix, then a name the page gives itself, then its title. */
  private byName(name: string): LinkResolution {
    const written = stripExtension(name.replace(/^\.\//, ''));
    const bySuffix = this.bySuffixKey(written, written);
    if (bySuffix.status !== 'missing') return bySuffix;
    const named = this.named(foldName(written));
    if (named) return named;
    const titled = this.tables.byTitle.get(foldName(written)) ?? [];
    if (titled.length === 1) return { status: 'resolved', itemId: titled[0]!.id, path: titled[0]!.path, how: 'by its title' };
    if (titled.length > 1) return { status: 'ambiguous', candidates: titled.map((item) => item.path).sort() };
    return { status: 'missing' };
  }

  private bySuffixKey(key: string, written: string): LinkResolution {
    const matches = this.tables.bySuffix.get(foldName(key)) ?? [];
    if (matches.length === 0) return { status: 'missing' };
    if (matches.length === 1) return { status: 'resolved', itemId: matches[0]!.id, path: matches[0]!.path, how: 'by its file name' };
    // Ties are narrowed by exact case, as foam does: `[[API]]` picks `API.md` over `api.md`.
    const exactCase = matches.filter((item) => suffixes(item.path, false).includes(written.replace(/^\/+|\/+$/g, '')));
    if (exactCase.length === 1) return { status: 'resolved', itemId: exactCase[0]!.id, path: exactCase[0]!.path, how: 'by its file name (exact case)' };
    return { status: 'ambiguous', candidates: matches.map((item) => item.path).sort() };
  }

  private named(name: string): LinkResolution | null {
    const ids = [...new Set(this.names.get(name) ?? [])].filter((id) => this.tables.byId.has(id));
    if (ids.length === 1) {
      const item = this.tables.byId.get(ids[0]!)!;
      return { status: 'resolved', itemId: item.id, path: item.path, how: 'by a name in its front matter' };
    }
    if (ids.length > 1) return { status: 'ambiguous', candidates: ids.map((id) => this.tables.byId.get(id)!.path).sort() };
    return null;
  }

  /** The file a folder-relative path opens: itself, its Markdown source, or a directory's index. */
  private atPath(joined: string, directory: boolean): LinkableItem | null {
    const extension = path.posix.extname(joined).toLowerCase();
    const stem = extension === '' ? joined : joined.slice(0, -extension.length);
    const tries: string[] = [];
    if (!directory) tries.push(joined);
    if (!directory && PAGE_EXTENSIONS.has(extension)) tries.push(...SOURCE_EXTENSIONS.map((ext) => stem + ext));
    if (directory || extension === '') {
      tries.push(...SOURCE_EXTENSIONS.map((ext) => joined + ext));
      tries.push(...INDEX_NAMES.flatMap((name) => SOURCE_EXTENSIONS.map((ext) => `${joined}/${name}${ext}`)));
    }
    if (PAGE_EXTENSIONS.has(extension) && INDEX_NAMES.includes(path.posix.basename(stem).toLowerCase())) {
      tries.push(...SOURCE_EXTENSIONS.map((ext) => path.posix.dirname(stem) + ext));
    }
    for (const candidate of tries) {
      const exact = this.tables.byPath.get(candidate);
      if (exact) return exact;
    }
    for (const candidate of tries) {
      const folded = this.tables.byFoldedPath.get(foldName(candidate)) ?? [];
      if (folded.length === 1) return folded[0]!;
    }
    return null;
  }
}

function tablesOf(items: readonly LinkableItem[]): LinkTables {
  const tables: LinkTables = { byPath: new Map(), byFoldedPath: new Map(), bySuffix: new Map(), byTitle: new Map(), byId: new Map() };
  for (const item of items) {
    tables.byId.set(item.id, item);
    tables.byPath.set(item.path, item);
    push(tables.byFoldedPath, foldName(item.path), item);
    for (const suffix of suffixes(item.path)) push(tables.bySuffix, suffix, item);
    if (item.title) push(tables.byTitle, foldName(item.title), item);
  }
  return tables;
}

/** `a/b/c.md` → `c`, `b/c`, `a/b/c` (and `b`, `a/b` for an index file), folded unless `fold` is false. */
function suffixes(itemPath: string, fold = true): string[] {
  const stem = stripExtension(itemPath);
  const segments = stem.split('/');
  const keys: string[] = [];
  const addRuns = (parts: string[]) => {
    for (let start = parts.length - 1; start >= 0; start -= 1) keys.push(parts.slice(start).join('/'));
  };
  addRuns(segments);
  if (segments.length > 1 && INDEX_NAMES.includes(segments[segments.length - 1]!.toLowerCase())) addRuns(segments.slice(0, -1));
  return fold ? keys.map(foldName) : keys;
}

function stripExtension(name: string): string {
  const extension = path.posix.extname(name);
  return extension === '' || extension.includes(' ') ? name : name.slice(0, -extension.length);
}

function hasExtension(name: string): boolean {
  return /\.[a-z0-9]{1,8}$/i.test(name);
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
