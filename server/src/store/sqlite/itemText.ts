// An item's whole text is its blocks joined by a blank line (parse/document.ts guarantees it), so
// item_texts stores the blocks once and not the joined text beside them: for a 50 MB document
// that is 50 MB less in the store and one 50 MB string fewer in memory at every write and read.
// The join is done where the text is needed: in SQL for the item's lexical index (the text never
// enters JavaScript), in JavaScript when a reader of getParsedText first asks for it. Documents stored before this keep their
// `text`, which is used as it is.

import type Database from 'better-sqlite3';
import { detectLanguage, LANGUAGE_SAMPLE_CHARS, UNDETERMINED, type LanguageCode } from '../../../../shared/languages.ts';
import { stemmedText } from '../../../../shared/stems.ts';
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

/** SQL for what the item's lexical index receives from the item_texts row named `alias`: the text in the language it is written in. */
export function itemIndexTextSql(alias: string): string {
  return `${INDEXED_TEXT_FUNCTION}(substr(${itemTextSql(alias)}, 1, ${ITEM_INDEX_MAX_CHARS}), NULL)`;
}

/**
 * SQL for the language of the item in the item_texts row named `alias`, as its passages fall back
 * to: detected on the start of its text, which is all detectLanguage reads of a longer one.
 */
export function itemLanguageSql(alias: string): string {
  return `${TEXT_LANGUAGE_FUNCTION}(substr(${itemTextSql(alias)}, 1, ${LANGUAGE_SAMPLE_CHARS}))`;
}

/** The SQL function that gives the index a text as it should read it (textForIndex). */
export const INDEXED_TEXT_FUNCTION = 'relata_indexed_text';
/** The SQL function that gives a text's language (shared/languages.ts detectLanguage), 'und' when it cannot be told. */
export const TEXT_LANGUAGE_FUNCTION = 'relata_text_language';

/**
 * The text as the lexical index reads it: Chinese, Japanese or Thai words spaced (shared/words.ts
 * indexedText), and each word stemmed in `language`, the language of the item it belongs to
 * (shared/stems.ts); detected on the text itself only where the item's could not be told (null or
 * 'und'). Not per passage: a passage of a French guide read as Spanish (the two share most
 * function words) would hold Spanish stems that no French-stemmed query matches, and
 * eval:languages measured that loss. English and any language without a stemmer here are left to
 * the index's own Porter stemmer, as before.
 */
export function textForIndex(text: string, language: LanguageCode | null): string {
  const told = language !== null && language !== UNDETERMINED ? language : detectLanguage(text).language;
  return stemmedText(indexedText(text), told);
}

/**
 * Makes INDEXED_TEXT_FUNCTION and TEXT_LANGUAGE_FUNCTION known to a connection: every connection
 * the store opens, so any of them may (re)fill a lexical index.
 */
export function registerIndexedText(db: Database.Database): void {
  db.function(INDEXED_TEXT_FUNCTION, { deterministic: true }, (text: unknown, fallback: unknown) =>
    typeof text === 'string' ? textForIndex(text, typeof fallback === 'string' ? fallback : null) : text,
  );
  db.function(TEXT_LANGUAGE_FUNCTION, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? detectLanguage(text).language : UNDETERMINED));
}
