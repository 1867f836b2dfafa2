// The metadata a person gave a document (Markdown front matter, DOCX core properties, PDF document
// info), read the same way for every format: keys folded to one spelling, values case-folded for
// comparison and kept as written for display, and everything capped, because a file is untrusted
// and its metadata is the easiest place to hide a flood of values. Which keys are evidence of what
// a document is about (and so can relate two documents) is decided here too, in one list.

import { parseDocument } from 'yaml';
import { decodeCharacterReferences } from './characterReferences.ts';
import type { DocumentMetadata, MetadataEntry } from '../records/document.ts';

export type { DocumentMetadata, MetadataEntry, MetadataValue } from '../records/document.ts';
export { metadataValueKey } from '../records/document.ts';

/**
 * Keys whose shared value says two documents concern the same thing. Not `title` (already the
 * item's title, and two reports may share a generic one), `author` (who wrote it, not what it is
 * about: one author writes about everything), dates (temporal_proximity weighs time) or layout
 * keys (`layout`, `draft`, `slug`, `lang`), which say how a page is rendered.
 */
export const SUBJECT_KEYS: ReadonlySet<string> = new Set(['tags', 'subject', 'category', 'project', 'client', 'customer', 'case', 'matter', 'topic']);

export function countsAsSubject(key: string): boolean {
  return SUBJECT_KEYS.has(key);
}

/** Spellings of one key, folded to the first. */
const KEY_SYNONYMS: Readonly<Record<string, string>> = {
  tag: 'tags',
  keyword: 'tags',
  keywords: 'tags',
  categories: 'category',
  projects: 'project',
  clients: 'client',
  customers: 'customer',
  cases: 'case',
  matters: 'matter',
  topics: 'topic',
  subjects: 'subject',
  creator: 'author',
  authors: 'author',
  alias: 'aliases',
};

/**
 * Keys that say how a page is built or rendered (static-site generators' front matter): neither
 * evidence nor anything a reader of a hover wants, so they are not recorded at all.
 */
const LAYOUT_KEYS: ReadonlySet<string> = new Set(
  `layout draft published lang language order weight nav_order image images thumbnail cover icon
  template redirect_from redirect_to toc sidebar untranslated`.split(/\s+/),
);

/**
 * Keys whose value is a name other documents can link to the page by (`related: [coc]` names the
 * page whose `class` is `coc`; a site-absolute link names a `permalink`). Recorded, so link
 * resolution finds them through the store's metadata index (discover/links), never evidence.
 */
export const LINK_NAME_KEYS: readonly string[] = Object.freeze(['id', 'slug', 'permalink', 'class', 'aliases']);

/**
 * Front-matter keys whose values name other files the page relates to (`related: [best-practices]`):
 * read as links by the Markdown parser, and kept as metadata for the reader too.
 */
export const LINK_LIST_KEYS: ReadonlySet<string> = new Set(
  `related related_pages related_posts see_also seealso links parent parents up next prev previous`.split(/\s+/),
);

/** Keys whose one text is a list ("safety; cranes, GC-2"), as Word and PDF keywords are. */
const LIST_KEYS: ReadonlySet<string> = new Set(['tags', 'category']);

/** Front matter past this size is not read: real front matter is a few hundred bytes. */
export const MAX_FRONT_MATTER_CHARS = 32 * 1024;
/** Aliases a front matter may expand; a "billion laughs" needs thousands. */
export const MAX_FRONT_MATTER_ALIASES = 20;
/** Entries kept per document, and per key. */
export const MAX_METADATA_ENTRIES = 40;
export const MAX_VALUES_PER_KEY = 20;
/** A value longer than this is prose, not a label, and is left out. */
export const MAX_METADATA_VALUE_CHARS = 120;
const MAX_KEY_CHARS = 40;
/** A list text is read up to this many characters: room for every entry a document may keep. */
const MAX_LIST_TEXT_CHARS = 8 * 1024;

export const NO_METADATA: DocumentMetadata = Object.freeze({ entries: [], note: null }) as DocumentMetadata;

/** Collects a document's metadata entries under the caps, remembering what it left out. */
export class MetadataReader {
  private readonly entries: MetadataEntry[] = [];
  private readonly seen = new Set<string>();
  private readonly perKey = new Map<string, number>();
  private readonly leftOut = new Set<string>();
  private overCap = 0;

  /** Records why something was not read at all (e.g. the whole front matter). */
  unread(reason: string): void {
    this.leftOut.add(reason);
  }

  /** One key as the document holds it: a scalar, a list of scalars, or something that is neither and is left out. */
  add(label: string, raw: unknown): void {
    const key = normaliseKey(label);
    if (key === null) {
      this.leftOut.add(`key "${clip(label)}" is not a name`);
      return;
    }
    if (LAYOUT_KEYS.has(key)) return;
    for (const scalar of Array.isArray(raw) ? raw : [raw]) {
      if (scalar === null || scalar === undefined) continue;
      if (typeof scalar !== 'string' && typeof scalar !== 'number' && typeof scalar !== 'boolean') {
        this.leftOut.add(`nested values under ${label.trim()} are not read`);
        continue;
      }
      let texts = [String(scalar)];
      if (LIST_KEYS.has(key) && typeof scalar === 'string') {
        if (scalar.length > MAX_LIST_TEXT_CHARS) this.leftOut.add(`${label.trim()} read up to ${MAX_LIST_TEXT_CHARS / 1024} KiB`);
        texts = scalar.slice(0, MAX_LIST_TEXT_CHARS).split(/[,;]/);
      }
      for (const text of texts) this.addValue(key, label.trim(), collapse(text));
    }
  }

  finish(): DocumentMetadata {
    const notes = [...this.leftOut];
    if (this.overCap > 0) notes.push(`${this.overCap} more value${this.overCap === 1 ? '' : 's'} left out (at most ${MAX_METADATA_ENTRIES}, ${MAX_VALUES_PER_KEY} per key)`);
    return { entries: this.entries, note: notes.length > 0 ? notes.join('; ') : null };
  }

  private addValue(key: string, label: string, text: string): void {
    if (text === '') return;
    if (text.length > MAX_METADATA_VALUE_CHARS) {
      // A value discovery compares is a name or a code, never prose: a long one is left out, and
      // said. A value only shown (a description, a summary) is commonly a sentence: it is cut.
      if (countsAsSubject(key)) {
        this.leftOut.add(`a ${label} value over ${MAX_METADATA_VALUE_CHARS} characters`);
        return;
      }
      text = `${text.slice(0, MAX_METADATA_VALUE_CHARS - 1).trimEnd()}…`;
    }
    const value = text.normalize('NFKC').toLowerCase();
    const id = `${key}:${value}`;
    if (this.seen.has(id)) return;
    if (this.entries.length >= MAX_METADATA_ENTRIES || (this.perKey.get(key) ?? 0) >= MAX_VALUES_PER_KEY) {
      this.overCap += 1;
      return;
    }
    this.seen.add(id);
    this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
    this.entries.push({ key, value, label, text });
  }
}

/** `Project Code` → `project_code`; null when the label has no letters or digits, or is too long to be a key. */
export function normaliseKey(label: string): string | null {
  const key = label
    .normalize('NFKC')
    .toLowerCase()
    .trim()
    .replace(/[\s\-.]+/gu, '_');
  if (key === '' || key.length > MAX_KEY_CHARS || !/^[\p{L}\p{N}_]+$/u.test(key) || !/[\p{L}\p{N}]/u.test(key)) return null;
  return Object.hasOwn(KEY_SYNONYMS, key) ? KEY_SYNONYMS[key]! : key;
}

/** A value of a LINK_LIST_KEYS key, as written: the Markdown parser makes it a link. */
export interface FrontMatterLink {
  label: string;
  value: string;
}

export interface FrontMatter {
  title: string | null;
  metadata: DocumentMetadata;
  /** Values of the keys that name related files (LINK_LIST_KEYS); absent when there are none. */
  links?: FrontMatterLink[];
}

/**
 * A Markdown file's YAML front matter: its title and its other keys as metadata. A front matter
 * that is too large, malformed, nested beyond the parser's stack or expands too many aliases is
 * not read, and the note says so: the document is still read without it.
 */
export function readFrontMatter(yaml: string): FrontMatter {
  const reader = new MetadataReader();
  if (yaml.length > MAX_FRONT_MATTER_CHARS) {
    reader.unread(`front matter over ${MAX_FRONT_MATTER_CHARS / 1024} KiB not read`);
    return { title: null, metadata: reader.finish() };
  }
  let data: unknown;
  try {
    // Unknown tags (!!js/function, !include) resolve to their plain value, never to code.
    const document = parseDocument(yaml, { logLevel: 'silent', uniqueKeys: false });
    if (document.errors.length > 0) throw document.errors[0];
    data = document.toJS({ maxAliasCount: MAX_FRONT_MATTER_ALIASES });
  } catch (error) {
    reader.unread(`front matter not read: ${frontMatterFailure(error)}`);
    return { title: null, metadata: reader.finish() };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { title: null, metadata: reader.finish() };
  let title: string | null = null;
  const links: FrontMatterLink[] = [];
  for (const [label, raw] of Object.entries(data)) {
    const key = normaliseKey(label);
    if (key === 'title') {
      if (typeof raw === 'string' || typeof raw === 'number') title = decodeCharacterReferences(String(raw)).trim() || null;
      continue; // the item's title already; not an entry of its own
    }
    if (key !== null && LINK_LIST_KEYS.has(key)) {
      for (const value of Array.isArray(raw) ? raw : [raw]) {
        if (typeof value === 'string' && value.trim() !== '') links.push({ label: label.trim(), value: value.trim() });
      }
    }
    reader.add(label, Array.isArray(raw) ? raw.map(asShown) : asShown(raw));
  }
  return links.length > 0 ? { title, metadata: reader.finish(), links } : { title, metadata: reader.finish() };
}

/** A front-matter string as the page shows it (characterReferences.ts); any other value as it is. */
function asShown(value: unknown): unknown {
  return typeof value === 'string' ? decodeCharacterReferences(value) : value;
}

function frontMatterFailure(error: unknown): string {
  if (error instanceof RangeError || (error instanceof SyntaxError && /call stack/i.test(error.message))) return 'nested too deeply';
  if (error instanceof ReferenceError && /alias/i.test(error.message)) return `more than ${MAX_FRONT_MATTER_ALIASES} aliases expanded`;
  return 'not valid YAML';
}

function collapse(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

function clip(text: string): string {
  const flat = collapse(text);
  return flat.length > 40 ? `${flat.slice(0, 40)}…` : flat;
}
