// How large a line of an export may be. An import holds one record in memory at a time, so a
// record is bounded by what the indexer itself writes, with room to spare, and one line beyond
// that is refused as it is read, before it is parsed or held whole: a 200 MB passage would
// otherwise be loaded, and then cost every search that matches it minutes and gigabytes.
//
// The bounds follow the indexer's own caps. A passage is at most DEFAULT_MAX_CHARS characters, and
// JSON writes a character in at most 6 bytes (`\u001f`); a record carries at most one passage's
// text (a passage, or an entity or claim quoting it) plus short fields (ids, a heading path of
// MAX_LABEL_CHARS labels, signals), so twice that is a generous ceiling. A parsed text carries a
// whole document, which the parsers bound by the largest input they read by default (a DOCX's
// inflated size, above the 50 MB file cap); twice that leaves room for locations and escapes.

import { constants } from 'node:buffer';
import { DEFAULT_MAX_CHARS } from '../../chunk/chunker.ts';
import { DEFAULT_MAX_INFLATED_BYTES } from '../../records/document.ts';
import type { ExchangeKind } from './records.ts';

/** The most bytes JSON.stringify writes for one UTF-16 code unit (a control character as `\u00XX`). */
const JSON_BYTES_PER_CHAR = 6;

/** A line of any records file but parsed_texts.jsonl. */
export const MAX_RECORD_LINE_BYTES = 2 * JSON_BYTES_PER_CHAR * DEFAULT_MAX_CHARS;

/** A line of parsed_texts.jsonl: one whole parsed document; never more than one JavaScript string can hold. */
export const MAX_PARSED_TEXT_LINE_BYTES = Math.min(2 * DEFAULT_MAX_INFLATED_BYTES, constants.MAX_STRING_LENGTH);

/** manifest.json: counts, a hash per file and one per missing blob (67 bytes each): room for a million missing. */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/**
 * An original file: as large as the indexer's file-size setting let it be, which has no ceiling of
 * its own. A blob is read whole, so that the bytes stored are the bytes hashed: one Buffer's limit.
 */
export const MAX_BLOB_BYTES = constants.MAX_LENGTH;

export function maxLineBytes(kind: ExchangeKind | 'blob'): number {
  return kind === 'parsed_text' ? MAX_PARSED_TEXT_LINE_BYTES : MAX_RECORD_LINE_BYTES;
}
