// The contract between parsers and the chunker. A parser turns a file's bytes into extracted
// text plus a structure map, expressed as an ordered list of blocks (headings, paragraphs, list
// items, table rows, pages' text) that the chunker can group into passages without re-parsing.

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

export interface ParsedDocument {
  /** Best title the format offers (front matter, first heading, document metadata), else null. */
  title: string | null;
  /** The whole extracted text, blocks separated by blank lines. */
  text: string;
  blocks: Block[];
  structure: StructureMap;
  flags: ItemFlag[];
}

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
