// The parsed document as the parse stage produces it and the store keeps it: blocks, structure
// map, what a reader cannot see, links and the document's own metadata. Defined below both, so the
// store reads and writes these records without depending on any parser (scripts/import-circles.mjs
// keeps it so), and the parsers (parse/types.ts, parse/metadata.ts) hand them on.

import type { ItemFlag, Location } from '../../../shared/types.ts';

export type BlockKind = 'heading' | 'paragraph' | 'list_item' | 'table_row' | 'code';

export interface Block {
  kind: BlockKind;
  text: string;
  /** Titles of the enclosing headings, outermost first; a heading block's path includes itself. */
  headingPath: string[];
  location: Location;
}

export interface HeadingEntry {
  level: number;
  text: string;
  location: Location;
}

export interface TableEntry {
  rows: number;
  columns: number;
  location: Location;
}

/** What a reader can navigate by: stored with the item, shown by `relata item`. */
export interface StructureMap {
  headings: HeadingEntry[];
  tables: TableEntry[];
  /** Page count, for paged formats. */
  pages?: number;
  /** Dotted key paths, for JSON. Capped so a huge array does not bloat the item. */
  keyPaths?: string[];
}

/** How a passage was hidden from a reader of the rendered document. */
export type HiddenTextKind =
  /** `<!-- … -->` in Markdown. */
  | 'html_comment'
  /** An HTML element with `hidden`, `display:none`, `visibility:hidden`, `font-size:0` or `opacity:0`, or a `<script>`, `<style>` or `<template>`. */
  | 'hidden_element'
  /** A Word run marked hidden (`w:vanish`, `w:specVanish`, `w:webHidden`). */
  | 'vanish_run'
  /** A Word run coloured like the page behind it (white on white). */
  | 'white_text'
  /** Text too small to read: a Word run of at most 2 pt, PDF text under 1 pt. */
  | 'tiny_text'
  /** PDF text drawn with render mode 3 or 7 (`3 Tr`): neither filled nor stroked. */
  | 'invisible_render_mode'
  /** A slide marked hidden in its deck (PPTX `show="0"`, ODP `presentation:visibility="hidden"`): skipped in a slide show. */
  | 'hidden_slide'
  /** A worksheet marked hidden or very hidden (XLSX `state`, ODS `table:display="false"`). */
  | 'hidden_sheet'
  /** Spreadsheet rows or columns marked hidden or collapsed. */
  | 'hidden_cells';

/**
 * Text that is in the file but not on the page a reader sees. It is kept out of the blocks (so it
 * never reaches search or a model) and reported here instead, so nothing is hidden from the user.
 */
export interface HiddenText {
  kind: HiddenTextKind;
  /** The hidden text, whitespace collapsed, clipped to HIDDEN_TEXT_MAX_CHARS. */
  text: string;
  /** Where it sits: lines (Markdown), the paragraph it was in or before (DOCX), its page (PDF). */
  location: Location;
  /** Sentences of it addressed to an AI assistant (answer/injection.ts); empty for most hidden text. */
  instructions: string[];
}

export const HIDDEN_TEXT_MAX_CHARS = 500;

/** How a document points at another file; each form is read where its format writes it. */
export type LinkKind =
  /** `[text](target)` in Markdown. */
  | 'inline'
  /** `[text][label]` or `[label]` in Markdown, with the target from its definition. */
  | 'reference'
  /** `[label]: target` that no reference in the document uses. */
  | 'definition'
  /** `<target>` in Markdown, or a bare URL GFM makes a link. */
  | 'autolink'
  /** `<a href="target">` written as HTML inside Markdown. */
  | 'html'
  /** `[[Name]]`, `[[Name|label]]`, `[[Name#Heading]]`: a name, not a path. */
  | 'wiki'
  /** A front-matter list such as `related:` or `see_also:` naming another file. */
  | 'front_matter'
  /** A hyperlink in a Word, HTML, OpenDocument, slide, spreadsheet or e-book document. */
  | 'hyperlink'
  /** A link annotation on a PDF page. */
  | 'annotation';

/**
 * A place where the document points at something else, as the author wrote it. Whether the
 * target is a file of the folder is decided later, in one place (discover/links/resolve.ts),
 * against the store's list of items: a parser never looks at the filesystem for it.
 */
export interface DocumentLink {
  /** The target as written (a path, URL, name, or front-matter value), clipped to LINK_TARGET_MAX_CHARS. */
  target: string;
  /** The words the reader sees for the link (the label), clipped; the target itself when there are none. */
  text: string;
  kind: LinkKind;
  /** Where it stands: lines (Markdown), the paragraph (DOCX), the page (PDF). */
  location: Location;
}

/** A document keeps at most this many links: a file is untrusted, and real pages hold a few hundred. */
export const MAX_LINKS_PER_DOCUMENT = 1000;
export const LINK_TARGET_MAX_CHARS = 500;
export const LINK_TEXT_MAX_CHARS = 200;

export interface ParsedDocument {
  /** Best title the format offers (front matter, first heading, document metadata), else null. */
  title: string | null;
  /** The whole extracted text, blocks separated by blank lines. */
  text: string;
  blocks: Block[];
  structure: StructureMap;
  flags: ItemFlag[];
  /** Text a reader cannot see, left out of the blocks. Documents stored by older parsers lack it. */
  hidden?: HiddenText[];
  /** Why only part of the file was read (e.g. a page cap), else null. Older documents lack it. */
  truncated?: string | null;
  /** The metadata the document gives itself (front matter, core properties, document info); formats without any, and older documents, lack it. */
  metadata?: DocumentMetadata;
  /** Where the document points at other files or pages, in document order; documents stored by older parsers lack it. */
  links?: DocumentLink[];
}

/** One metadata value as compared between items. */
export interface MetadataValue {
  /** The key as compared: lower case, separators as `_`, synonyms folded (`keywords` → `tags`). */
  key: string;
  /** The value as compared: NFKC, case-folded, whitespace collapsed. */
  value: string;
}

export interface MetadataEntry extends MetadataValue {
  /** The key as the document spelled it. */
  label: string;
  /** The value as the person wrote it, whitespace collapsed. */
  text: string;
}

export interface DocumentMetadata {
  entries: MetadataEntry[];
  /** What was left unread and why (too large, nested, over a cap), for the person to see; null when nothing was. */
  note: string | null;
}

/** A metadata value as one string, as stores key their counts: a key never holds ':' (parse/metadata.ts normaliseKey). */
export function metadataValueKey(value: MetadataValue): string {
  return `${value.key}:${value.value}`;
}

/** The separator between blocks in `ParsedDocument.text`. */
export const BLOCK_SEPARATOR = '\n\n';

export function joinBlocks(blocks: readonly Block[]): string {
  return blocks.map((block) => block.text).join(BLOCK_SEPARATOR);
}

/**
 * The document with its `text` joined from the blocks when first read, not before: the parse
 * thread sends, and the store keeps, the blocks alone (for a 50 MB file that is one 50 MB string
 * less in each), and most readers never need the whole text.
 */
export function withJoinedText(document: Omit<ParsedDocument, 'text'> & { text?: string }): ParsedDocument {
  const { text: given, ...rest } = document;
  let text = given;
  return Object.defineProperty(rest, 'text', { enumerable: true, get: () => (text ??= joinBlocks(rest.blocks)) }) as ParsedDocument;
}

/**
 * The largest input a parser reads by default: a DOCX's (or any ZIP container's) inflated size,
 * above the 50 MB file cap. It bounds how large one parsed document can be, which the store's
 * import checks (store/exchange/limits.ts) and the parsers' defaults (parse/types.ts) both read.
 */
export const DEFAULT_MAX_INFLATED_BYTES = 200 * 1024 * 1024;
