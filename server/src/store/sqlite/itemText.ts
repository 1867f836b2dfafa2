// An item's whole text is its blocks joined by a blank line (parse/document.ts guarantees it), so
// item_texts stores the blocks once and not the joined text beside them: for a 50 MB document
// that is 50 MB less in the store and one 50 MB string fewer in memory at every write and read.
// The join is done where the text is needed: in SQL for the item's lexical index (the text never
// enters JavaScript), in JavaScript when a reader of getParsedText first asks for it. Documents stored before this keep their
// `text`, which is used as it is.

import type Database from 'better-sqlite3';
import { indexedText } from '../../../../shared/words.ts';
import { BLOCK_SEPARATOR, withJoinedText, type ParsedDocument } from '../../records/document.ts';

/** The JSON kept in item_texts.document: the parsed document without its derived `text`. */
export function storedDocument(document: ParsedDocument): string {
  // By key, so a text not yet joined (withJoinedText) is never joined just to be left out.
  const fields = Object.keys(document).filter((key) => key !== 'text') as (keyof ParsedDocument)[];
  return JSON.stringify(Object.fromEntries(fields.map((key) => [key, document[key]])));
}

/** A document read back from item_texts, with its `text` as the parser gave it (joined when first read). */
export function loadedDocument(json: string): ParsedDocument {
  return withJoinedText(JSON.parse(json) as Omit<ParsedDocument, 'text'> & { text?: string });
}

if (BLOCK_SEPARATOR !== '\n\n') throw new Error('itemTextSql joins blocks with char(10, 10): keep it in step with BLOCK_SEPARATOR');

/** SQL for the item's text from the item_texts row named `alias` (joined in block order, in SQLite). */
export function itemTextSql(alias: string): string {
  return `COALESCE(json_extract(${alias}.document, '$.text'),
    (SELECT group_concat(json_extract(block.value, '$.text'), char(10, 10) ORDER BY block.key)
     FROM json_each(${alias}.document, '$.blocks') AS block), '')`;
}

/**
 * How much of an item's text its item-level lexical index receives: the first 4 MiB characters.
 * Indexing a 50 MB text as one FTS5 row made SQLite hold its whole term list in memory (+320 MB of
 * the peak for a 48 MiB file) and its BM25 is ruled by its length past a few pages anyway. Every
 * word of the rest stays findable: the passage index (one row per passage) covers the whole text.
 * Ordinary documents are far below it (the largest of the evaluation documents: ~0.5 MB of text).
 */
export const ITEM_INDEX_MAX_CHARS = 4 * 2 ** 20;

/** SQL for what the item's lexical index receives from the item_texts row named `alias`. */
export function itemIndexTextSql(alias: string): string {
  return `${INDEXED_TEXT_FUNCTION}(substr(${itemTextSql(alias)}, 1, ${ITEM_INDEX_MAX_CHARS}))`;
}

/** The SQL function that gives the index the text with Chinese, Japanese or Thai words spaced (shared/words.ts indexedText). */
export const INDEXED_TEXT_FUNCTION = 'relata_indexed_text';

/**
 * Makes INDEXED_TEXT_FUNCTION known to a connection: every connection the store opens, so any of
 * them may (re)fill a lexical index. A text in no such script comes back as it is.
 */
export function registerIndexedText(db: Database.Database): void {
  db.function(INDEXED_TEXT_FUNCTION, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? indexedText(text) : text));
}
