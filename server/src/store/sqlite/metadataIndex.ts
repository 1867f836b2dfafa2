// The item_metadata table: the metadata of each item's parse (item_texts), one row per entry, kept
// exactly while the item has passages, as its lexical row is: replaceChunks writes it, dropChunks
// removes it, an import builds it once. Derived from the stored document, so an export carries it
// in the parsed_text record and nowhere else.

import type { MetadataEntry } from '../../records/document.ts';
import type { ScopedSql } from './scopedSql.ts';

/** The entries of a stored document (JSON), skipping any that is not an entry (a document imported from a hand-edited export). */
const ENTRIES = `
  SELECT @ws, texts.item_id, entry.key, json_extract(entry.value, '$.key'), json_extract(entry.value, '$.value'),
         json_extract(entry.value, '$.label'), json_extract(entry.value, '$.text')
  FROM item_texts AS texts, json_each(texts.document, '$.metadata.entries') AS entry
  WHERE texts.workspace = @ws
    AND json_type(entry.value, '$.key') = 'text' AND json_type(entry.value, '$.value') = 'text'
    AND json_type(entry.value, '$.label') = 'text' AND json_type(entry.value, '$.text') = 'text'`;

const COLUMNS = 'item_metadata (workspace, item_id, ordinal, key, value, label, text)';

export function indexItemMetadata(sql: ScopedSql, itemId: string): void {
  sql.run(`INSERT INTO ${COLUMNS} ${ENTRIES} AND texts.item_id = @itemId`, { itemId });
}

export function dropItemMetadata(sql: ScopedSql, itemId: string): void {
  sql.run('DELETE FROM item_metadata WHERE workspace = @ws AND item_id = @itemId', { itemId });
}

/** After an import: the rows of every item that has passages or is indexed, as the lexical index is built. */
export function indexAllItemMetadata(sql: ScopedSql): void {
  sql.run(
    `INSERT INTO ${COLUMNS} ${ENTRIES}
       AND texts.item_id IN (SELECT items.id FROM items WHERE items.workspace = @ws AND items.deleted_at IS NULL
         AND (items.status = 'indexed' OR EXISTS (SELECT 1 FROM chunks c WHERE c.workspace = @ws AND c.item_id = items.id)))`,
  );
}

export function listItemMetadata(sql: ScopedSql, itemId: string): MetadataEntry[] {
  return sql.rows<MetadataEntry>(
    'SELECT key, value, label, text FROM item_metadata WHERE workspace = @ws AND item_id = @itemId ORDER BY ordinal',
    { itemId },
  );
}
