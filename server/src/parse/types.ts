// The contract between parsers and the chunker. A parser turns a file's bytes into extracted
// text plus a structure map, expressed as an ordered list of blocks (headings, paragraphs, list
// items, table rows, pages' text) that the chunker can group into passages without re-parsing.

import { DEFAULT_MAX_OCR_PAGES, DEFAULT_MAX_PDF_PAGES } from '../../../shared/types.ts';
import { DEFAULT_MAX_INFLATED_BYTES, type ParsedDocument } from '../records/document.ts';

// What a parser produces is a record the store keeps too, so it is defined below both.
export type {
  BlockKind,
  Block,
  HeadingEntry,
  TableEntry,
  StructureMap,
  HiddenTextKind,
  HiddenText,
  LinkKind,
  DocumentLink,
  ParsedDocument,
} from '../records/document.ts';
export { HIDDEN_TEXT_MAX_CHARS, MAX_LINKS_PER_DOCUMENT, LINK_TARGET_MAX_CHARS, LINK_TEXT_MAX_CHARS } from '../records/document.ts';

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
  maxInflatedBytes: DEFAULT_MAX_INFLATED_BYTES,
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
