// The contract between parsers and the chunker. A parser turns a file's bytes into extracted
// text plus a structure map, expressed as an ordered list of blocks (headings, paragraphs, list
// items, table rows, pages' text) that the chunker can group into passages without re-parsing.

import { DEFAULT_MAX_OCR_PAGES, DEFAULT_MAX_PDF_PAGES, type ItemFlag, type Location } from '../../../shared/types.ts';
import type { DocumentMetadata } from './metadata.ts';

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

/**
 * Caps that keep one hostile file from exhausting memory or time. Parsers take them as options
 * with these defaults, so the pipeline can pass the user's settings through.
 */
export interface ParserLimits {
  /** A DOCX whose ZIP entries inflate to more than this in total is refused (bytes). */
  maxInflatedBytes: number;
  /** A PDF is read up to this many pages; the rest is left out and the item flagged `truncated`. */
  maxPages: number;
  /** Read images and PDF pages without a text layer by OCR (`relata index --no-ocr`, `relata.index.ocr`). */
  ocr: boolean;
  /** Pages of one PDF read by OCR; later pages without text are left out and the item flagged `truncated`. */
  maxOcrPages: number;
  /** An image (or a rendered page) over this many pixels is not read by OCR. */
  maxOcrPixels: number;
  /** OCR of one file stops after this long (ms), keeping what it read, before the stage thread's own limit stops the file. */
  ocrTimeMs: number;
}

export const DEFAULT_PARSER_LIMITS: ParserLimits = {
  maxInflatedBytes: 200 * 1024 * 1024,
  maxPages: DEFAULT_MAX_PDF_PAGES,
  ocr: true,
  maxOcrPages: DEFAULT_MAX_OCR_PAGES,
  maxOcrPixels: 40_000_000,
  ocrTimeMs: 120_000,
};

export interface Parser {
  /** Recorded on every item this parser produced, e.g. "markdown@1". Bump on any output change. */
  readonly version: string;
  readonly extensions: readonly string[];
  parse(bytes: Uint8Array, fileName: string): Promise<ParsedDocument>;
}

/**
 * A file that cannot be parsed, for a reason that will not change on retry (malformed,
 * encrypted, truncated). The message is shown to the user as-is, so it names the problem.
 */
export class ParseError extends Error {
  override readonly name = 'ParseError';
}

/**
 * A parse that was abandoned because it ran too long. A ParseError (the file is the likely cause),
 * but a caller may choose to retry it once when the machine is less busy.
 */
export class ParseTimeoutError extends ParseError {}
