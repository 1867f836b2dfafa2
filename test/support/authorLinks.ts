// The links a folder's authors wrote between its Markdown files: the ground truth of the
// relationships evaluation. Computed here from the raw Markdown, independently of the product's
// parser and resolver, so the product is measured against what the documents say and not against
// itself. Read: inline links, reference definitions (`[ch08]: ch08-02-strings.html`), HTML
// `<a href>` and front-matter lists (`related:`, `see_also:`...). A target resolves to a file of
// the folder by its last path segment: the file name without extension (`ch08-02-strings.html`,
// `../code-of-conduct/`), or a front-matter `class`/`slug`/`id`/`permalink` value (the Open Source
// Guides' `related: [coc]`). Links in code, external URLs and anything naming no file (or two
// files) resolve to nothing.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { parse as parseYaml } from 'yaml';

export type LinkKind = 'inline' | 'definition' | 'html' | 'front-matter';

export interface AuthorLink {
  /** Folder-relative paths, with `/` separators. */
  from: string;
  to: string;
  kind: LinkKind;
  line: number;
  /** The target as written. */
  target: string;
}

export interface AuthorLinks {
  links: AuthorLink[];
  /** Unordered pairs of linked files (`pairKey`), each with the links that make it. */
  pairs: Map<string, AuthorLink[]>;
  /** Targets that look like files of the folder's site but name none (or several) of them. */
  unresolved: { from: string; target: string }[];
}

const FRONT_MATTER_LISTS = ['related', 'see_also', 'seealso', 'links', 'parent', 'up'];
const FRONT_MATTER_NAMES = ['class', 'slug', 'id', 'permalink'];
const MARKDOWN = /\.(?:md|markdown)$/i;

/** One key per unordered pair of paths. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\t${b}` : `${b}\t${a}`;
}

export function pairPaths(key: string): [string, string] {
  const [a, b] = key.split('\t') as [string, string];
  return [a, b];
}

function markdownFiles(folder: string): string[] {
  return (readdirSync(folder, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile() && MARKDOWN.test(entry.name))
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

function parse(text: string): Root {
  return fromMarkdown(text, {
    extensions: [gfm(), frontmatter(['yaml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
  });
}

function frontMatterOf(tree: Root): Record<string, unknown> {
  const node = tree.children.find((child) => child.type === 'yaml');
  if (node === undefined || node.type !== 'yaml') return {};
  try {
    const value: unknown = parseYaml(node.value);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === 'string');
  return [];
}

/** The name a target gives: its last path segment without extension, or null for an external or same-file link. */
export function targetName(target: string): string | null {
  const trimmed = target.trim();
  if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return null;
  let pathPart = trimmed.replace(/[?#].*$/, '');
  try {
    pathPart = decodeURIComponent(pathPart);
  } catch {
    // A malformed escape is kept as written.
  }
  const segments = pathPart.split('/').filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  let last = segments.pop();
  if (last !== undefined && /^index(?:\.\w+)?$/i.test(last)) last = segments.pop();
  if (last === undefined) return null;
  return last.replace(/\.(?:md|markdown|html?)$/i, '').toLowerCase();
}

function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child, visit);
}

export function readAuthorLinks(folder: string): AuthorLinks {
  const files = markdownFiles(folder);
  const trees = new Map(files.map((file) => [file, parse(readFileSync(path.join(folder, file), 'utf8'))]));
  // Every name a file answers to; a name two files answer to resolves to neither.
  const byName = new Map<string, Set<string>>();
  const answer = (name: string, file: string) => {
    const key = name.trim().toLowerCase().replace(/^\/+|\/+$/g, '');
    if (key === '') return;
    if (!byName.has(key)) byName.set(key, new Set());
    byName.get(key)!.add(file);
  };
  for (const [file, tree] of trees) {
    const stem = path.posix.basename(file).replace(MARKDOWN, '');
    answer(stem, file);
    // An index page answers to its folder's name, as a site serves it (`guide/` is `guide/index.md`).
    if (stem.toLowerCase() === 'index' && file.includes('/')) answer(path.posix.basename(path.posix.dirname(file)), file);
    const meta = frontMatterOf(tree);
    for (const field of FRONT_MATTER_NAMES) for (const value of strings(meta[field])) answer(value, file);
  }
  const resolve = (name: string): string | null => {
    const found = byName.get(name);
    return found !== undefined && found.size === 1 ? [...found][0]! : null;
  };

  const links: AuthorLink[] = [];
  const unresolved: AuthorLinks['unresolved'] = [];
  for (const [from, tree] of trees) {
    const add = (target: string, kind: LinkKind, line: number) => {
      const name = targetName(target);
      if (name === null) return;
      const to = resolve(name);
      if (to === null) unresolved.push({ from, target });
      else if (to !== from) links.push({ from, to, kind, line, target });
    };
    walk(tree, (node) => {
      const line = node.position?.start.line ?? 0;
      if (node.type === 'link') add(node.url, 'inline', line);
      else if (node.type === 'definition') add(node.url, 'definition', line);
      else if (node.type === 'html') for (const match of node.value.matchAll(/<a\s[^>]*?href\s*=\s*["']([^"']+)["']/gi)) add(match[1]!, 'html', line);
    });
    const meta = frontMatterOf(tree);
    for (const field of FRONT_MATTER_LISTS) for (const value of strings(meta[field])) add(value, 'front-matter', 1);
  }

  const pairs = new Map<string, AuthorLink[]>();
  for (const link of links) {
    const key = pairKey(link.from, link.to);
    if (!pairs.has(key)) pairs.set(key, []);
    pairs.get(key)!.push(link);
  }
  return { links, pairs, unresolved };
}
