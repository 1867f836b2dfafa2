// Schema migrations for the embedded store, applied in order inside one transaction each.
// A migration is never edited once released: add a new one. Every table that holds workspace
// data has a `workspace` column, and every statement in sqliteStore.ts binds it.

import type Database from 'better-sqlite3';
import { restsOnLinks } from '../../../../shared/linkedInDocuments.ts';
import type { SignalView } from '../../../../shared/types.ts';
import { storeStatement } from './storeWideSql.ts';
import { rechunkVectorTables } from './vectorTables.ts';

interface Migration {
  version: number;
  description: string;
  sql: string;
  /** A step SQL alone cannot express (tables named at run time), run after `sql` in the same transaction. */
  apply?: (db: Database.Database) => void;
}

/** What every items_generation trigger runs: one more change counted for the workspace of the row before (OLD) or after (NEW). */
const countChange = (row: 'NEW' | 'OLD'): string => `INSERT INTO items_generation (workspace, n) VALUES (${row}.workspace, 1)
          ON CONFLICT (workspace) DO UPDATE SET n = n + 1;`;

/** A path's slashes, its folder's depth: a query must repeat the index's expression exactly for SQLite to use the index. */
export const PATH_SLASHES_SQL = "(length(path) - length(replace(path, '/', '')))";

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'items, versions, parsed texts, chunks, lexical indexes, leased jobs',
    sql: `
      CREATE TABLE meta (
        workspace TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (workspace, key)
      );

      CREATE TABLE items (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        workspace TEXT NOT NULL,
        path TEXT NOT NULL,
        title TEXT,
        status TEXT NOT NULL,
        reason TEXT,
        duplicate_of TEXT,
        content_hash TEXT,
        size INTEGER,
        version INTEGER NOT NULL DEFAULT 0,
        parser_version TEXT,
        flags TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE UNIQUE INDEX items_live_path ON items (workspace, path) WHERE deleted_at IS NULL;
      CREATE INDEX items_hash ON items (workspace, content_hash);
      CREATE INDEX items_duplicate_of ON items (workspace, duplicate_of);

      CREATE TABLE item_versions (
        workspace TEXT NOT NULL,
        item_id TEXT NOT NULL REFERENCES items (id),
        version INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        size INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (item_id, version)
      );

      CREATE TABLE item_texts (
        item_id TEXT PRIMARY KEY REFERENCES items (id),
        workspace TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        parser_version TEXT NOT NULL,
        document TEXT NOT NULL
      );

      CREATE TABLE chunks (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        workspace TEXT NOT NULL,
        item_id TEXT NOT NULL REFERENCES items (id),
        ordinal INTEGER NOT NULL,
        text TEXT NOT NULL,
        heading_path TEXT NOT NULL,
        location TEXT NOT NULL,
        word_count INTEGER NOT NULL
      );
      CREATE INDEX chunks_item ON chunks (workspace, item_id, ordinal);

      -- Contentless BM25 indexes keyed by the owning row's seq: the text lives once, in
      -- item_texts and chunks; deletes are by rowid, so replacing one item's chunks stays cheap.
      CREATE VIRTUAL TABLE item_fts USING fts5 (
        title, text, content = '', contentless_delete = 1, tokenize = 'porter unicode61'
      );
      CREATE VIRTUAL TABLE chunk_fts USING fts5 (
        text, content = '', contentless_delete = 1, tokenize = 'porter unicode61'
      );

      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        workspace TEXT NOT NULL,
        stage TEXT NOT NULL,
        subject TEXT NOT NULL,
        status TEXT NOT NULL,
        generation INTEGER NOT NULL DEFAULT 1,
        owner TEXT,
        lease_expires_at INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (workspace, stage, subject)
      );
      CREATE INDEX jobs_claimable ON jobs (workspace, status, id);
    `,
  },
  {
    version: 2,
    description: 'embedding models and vectors (vector rows live in sqlite-vec tables, one per dimension)',
    sql: `
      CREATE TABLE embedding_models (
        workspace TEXT NOT NULL,
        id TEXT NOT NULL,
        dims INTEGER NOT NULL,
        version TEXT NOT NULL,
        max_tokens INTEGER NOT NULL,
        first_used_at TEXT NOT NULL,
        PRIMARY KEY (workspace, id)
      );

      -- One row per vector: a chunk has one vector per window (a passage fitted to the model's
      -- token limit). seq is the rowid of the vector in the vec_f32_<dims> table.
      CREATE TABLE vectors (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        workspace TEXT NOT NULL,
        item_id TEXT NOT NULL,
        chunk_id TEXT NOT NULL,
        window INTEGER NOT NULL,
        char_start INTEGER NOT NULL,
        char_end INTEGER NOT NULL,
        model_id TEXT NOT NULL,
        dims INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (workspace, chunk_id, model_id, window)
      );
      CREATE INDEX vectors_item ON vectors (workspace, item_id);
      CREATE INDEX vectors_model ON vectors (workspace, model_id);
    `,
  },
  {
    version: 3,
    description: 'lexical indexes per workspace (see workspaceIndexes.ts), replacing the shared ones',
    sql: `
      DROP TABLE item_fts;
      DROP TABLE chunk_fts;
    `,
  },
  {
    version: 4,
    description: 'extraction: entities, claims and key-phrase counts per item, and which extractors ran',
    sql: `
      CREATE TABLE entities (
        workspace TEXT NOT NULL,
        item_id TEXT NOT NULL,
        chunk_id TEXT NOT NULL,
        type TEXT NOT NULL,
        surface TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT,
        char_start INTEGER NOT NULL,
        char_end INTEGER NOT NULL,
        producer TEXT NOT NULL,
        extractor_version TEXT NOT NULL
      );
      CREATE INDEX entities_key ON entities (workspace, key, item_id);
      CREATE INDEX entities_item ON entities (workspace, item_id);

      CREATE TABLE claims (
        workspace TEXT NOT NULL,
        item_id TEXT NOT NULL,
        chunk_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        subject TEXT NOT NULL,
        attribute TEXT NOT NULL,
        value TEXT NOT NULL,
        unit TEXT,
        text TEXT NOT NULL,
        char_start INTEGER NOT NULL,
        char_end INTEGER NOT NULL,
        entity_keys TEXT NOT NULL,
        producer TEXT NOT NULL,
        extractor_version TEXT NOT NULL
      );
      CREATE INDEX claims_attribute ON claims (workspace, kind, attribute);
      CREATE INDEX claims_item ON claims (workspace, item_id);

      CREATE TABLE item_phrases (
        workspace TEXT NOT NULL,
        item_id TEXT NOT NULL,
        key TEXT NOT NULL,
        phrase TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (workspace, item_id, key)
      );
      CREATE INDEX item_phrases_key ON item_phrases (workspace, key);

      CREATE TABLE item_extractions (
        workspace TEXT NOT NULL,
        item_id TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        versions TEXT NOT NULL,
        PRIMARY KEY (workspace, item_id)
      );
    `,
  },
  {
    version: 5,
    description: 'relationships (one per item pair), their history, and which items discovery has seen',
    sql: `
      CREATE TABLE relationships (
        workspace TEXT NOT NULL,
        id TEXT NOT NULL,
        -- The dedupe key: both item ids, sorted, so reprocessing a pair updates its one row.
        pair_key TEXT NOT NULL,
        from_item TEXT NOT NULL,
        to_item TEXT NOT NULL,
        type TEXT NOT NULL,
        score REAL NOT NULL,
        proposed_score REAL NOT NULL,
        score_version TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'confirmed', 'rejected')),
        near_duplicate INTEGER NOT NULL,
        signals TEXT NOT NULL,
        produced_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        decided_by TEXT,
        decided_at TEXT,
        note TEXT,
        PRIMARY KEY (workspace, id),
        UNIQUE (workspace, pair_key)
      );
      CREATE INDEX relationships_from ON relationships (workspace, from_item);
      CREATE INDEX relationships_to ON relationships (workspace, to_item);
      CREATE INDEX relationships_status ON relationships (workspace, status, score);

      -- Every proposal, update and decision as it was: the history a decision never erases.
      CREATE TABLE relationship_events (
        workspace TEXT NOT NULL,
        relationship_id TEXT NOT NULL,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        actor TEXT NOT NULL,
        type TEXT NOT NULL,
        score REAL NOT NULL,
        score_version TEXT NOT NULL,
        signals TEXT NOT NULL,
        note TEXT
      );
      CREATE INDEX relationship_events_rel ON relationship_events (workspace, relationship_id);

      -- Candidate aliases between entity keys ("person:mendes" and "person:carla mendes"): proposals
      -- until a person confirms one; only confirmed aliases become evidence (alias_entity).
      CREATE TABLE entity_aliases (
        workspace TEXT NOT NULL,
        id TEXT NOT NULL,
        key_a TEXT NOT NULL,
        key_b TEXT NOT NULL,
        surface_a TEXT NOT NULL,
        surface_b TEXT NOT NULL,
        reason TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'confirmed', 'rejected')),
        created_at TEXT NOT NULL,
        decided_by TEXT,
        decided_at TEXT,
        note TEXT,
        PRIMARY KEY (workspace, id),
        UNIQUE (workspace, key_a, key_b)
      );

      CREATE TABLE item_discoveries (
        workspace TEXT NOT NULL,
        item_id TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        -- Score version, extractor versions and embedding model the discovery ran under.
        basis TEXT NOT NULL,
        discovered_at TEXT NOT NULL,
        PRIMARY KEY (workspace, item_id)
      );
    `,
  },
  {
    version: 6,
    description: 'a log of removed vectors and the identity of saved vector indexes (approximate search, vectorIndex.ts)',
    sql: `
      -- A process holding an in-memory HNSW graph catches up by reading what changed since the
      -- sequences it covers. Additions need no log: vectors.seq is AUTOINCREMENT, so later rows have
      -- larger seqs. Removals are logged by the trigger, whichever statement deletes the row.
      CREATE TABLE vector_removals (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        workspace TEXT NOT NULL,
        model_id TEXT NOT NULL,
        vector_seq INTEGER NOT NULL
      );
      CREATE INDEX vector_removals_model ON vector_removals (workspace, model_id, seq);
      CREATE TRIGGER vectors_removed AFTER DELETE ON vectors BEGIN
        INSERT INTO vector_removals (workspace, model_id, vector_seq) VALUES (old.workspace, old.model_id, old.seq);
      END;

      -- One row per workspace and model whose index was saved: the identity a saved file must carry
      -- (a replaced database has another) and how far the removal log has been pruned.
      CREATE TABLE vector_indexes (
        workspace TEXT NOT NULL,
        model_id TEXT NOT NULL,
        generation TEXT NOT NULL,
        removals_pruned_through INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (workspace, model_id)
      );
    `,
  },
  {
    version: 7,
    description: 'forgotten items: a deleted document whose text and bytes were removed (relata forget)',
    sql: `
      -- The item row stays as the record that the document existed (path, id, hash, dates);
      -- a forgotten item's versions no longer keep its bytes alive (blob reference counts).
      ALTER TABLE items ADD COLUMN forgotten_at TEXT;
    `,
  },
  {
    version: 8,
    description: 'what a person reviewed: the evidence a decision was made on, and what has changed since',
    sql: `
      -- JSON: the type and decisive evidence when the decision was made (decisionReview.ts).
      ALTER TABLE relationships ADD COLUMN decision_basis TEXT;
      -- JSON: an earlier decision no longer matching the evidence, its note and what changed.
      ALTER TABLE relationships ADD COLUMN changed_since_decision TEXT;
    `,
  },
  {
    version: 9,
    description: 'vector tables in chunks of 64 vectors, so reading one vector by rowid costs the same at any size',
    // vectorTables.ts says why; the tables are named by dimension, so the step is code.
    sql: '',
    apply: rechunkVectorTables,
  },
  {
    version: 10,
    description: 'claims of some stages only (relata worker, relata index --ingest-only) find their job by index',
    sql: `
      -- Each stage's oldest queued job in one seek, whatever other stages have waiting ahead of it;
      -- also serves the per-stage counts of relata status.
      CREATE INDEX IF NOT EXISTS jobs_by_stage ON jobs (workspace, stage, status, id);
    `,
  },
  {
    version: 11,
    description: "the metadata each item gives itself (front matter, core properties, document info), indexed by key and value",
    sql: `
      -- Derived from the parsed document's metadata (item_texts) while the item has passages, as
      -- its lexical row is (metadataIndex.ts); the index counts the items sharing a value in one seek.
      CREATE TABLE IF NOT EXISTS item_metadata (
        workspace TEXT NOT NULL,
        item_id TEXT NOT NULL,
        ordinal INTEGER NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        label TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (workspace, item_id, ordinal)
      );
      CREATE INDEX IF NOT EXISTS item_metadata_value ON item_metadata (workspace, key, value, item_id);
    `,
  },
  {
    version: 12,
    description: 'model extraction cache: a model reply per (passage hash, model, prompt version)',
    sql: `
      CREATE TABLE IF NOT EXISTS model_extraction_cache (
        workspace TEXT NOT NULL,
        passage_hash TEXT NOT NULL,
        model_id TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        output TEXT NOT NULL,
        item_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (workspace, passage_hash, model_id, prompt_version)
      );
      CREATE INDEX IF NOT EXISTS model_extraction_cache_item ON model_extraction_cache (workspace, item_id);
    `,
  },
  {
    version: 13,
    description: "jobs count the leases their holders lost (a killed indexer) apart from the file's own failed attempts",
    // pipeline/worker.ts: a lost lease costs the file no attempt; a job whose indexer keeps dying
    // while it runs alone is given up by this count instead. Idempotent like every migration from 9
    // on: SQLite has no ADD COLUMN IF NOT EXISTS.
    sql: '',
    apply: addColumnOnce('jobs', 'lost_leases', 'INTEGER NOT NULL DEFAULT 0'),
  },
  {
    version: 14,
    description: 'the language each item is written in, detected with its extraction (issue 28)',
    // shared/languages.ts detects it; discovery gives no similarity signal to a pair the embedding
    // model cannot read (embed/languages.ts). Null for an extraction made before: such items are
    // extracted again (concepts@3), which sets it.
    sql: '',
    apply: addColumnOnce('item_extractions', 'language', 'TEXT'),
  },
  {
    version: 15,
    description: 'lexical indexes rebuilt with Chinese, Japanese and Thai words spaced (issue 28)',
    // Every workspace's indexes are dropped; ensureWorkspaceIndexes rebuilds a workspace's when a
    // writer opens it (shared/words.ts indexedText, through INDEXED_TEXT_FUNCTION). Until then a
    // reader of that workspace reports its lexical search unavailable, as for a store that never
    // had the indexes.
    sql: '',
    apply: dropWorkspaceIndexes,
  },
  {
    version: 16,
    description: "a per-workspace count of changes to the items' paths, titles, statuses, bytes and deletions (issue 32)",
    // discover/folderView.ts keeps what it built from the whole item list (the link index, the
    // similarity sample) while this count stands, so one item's discovery no longer reads every
    // item of the folder. Kept by triggers, so no write path can forget it.
    sql: `
      CREATE TABLE IF NOT EXISTS items_generation (
        workspace TEXT PRIMARY KEY,
        n INTEGER NOT NULL
      );
      CREATE TRIGGER IF NOT EXISTS items_generation_insert AFTER INSERT ON items BEGIN
        ${countChange('NEW')}
      END;
      CREATE TRIGGER IF NOT EXISTS items_generation_update
        AFTER UPDATE OF id, workspace, path, title, status, duplicate_of, content_hash, deleted_at ON items BEGIN
        ${countChange('NEW')}
        ${countChange('OLD')}
      END;
      CREATE TRIGGER IF NOT EXISTS items_generation_delete AFTER DELETE ON items BEGIN
        ${countChange('OLD')}
      END;
    `,
  },
  {
    version: 17,
    description: "lexical indexes rebuilt with each text's words stemmed in its own language (issue 28)",
    // As version 15: the indexes are dropped and ensureWorkspaceIndexes refills them, now through
    // itemText.ts textForIndex (a Snowball stemmer per language, shared/stems.ts), so text indexed
    // before and after this version is stemmed alike and a query stemmed the same way finds both.
    sql: '',
    apply: dropWorkspaceIndexes,
  },
  {
    version: 18,
    description: 'lexical indexes rebuilt with the words as written again, not stemmed per language (issue 28)',
    // Version 17's stems lowered known-item search in every stemmed language (eval:languages MRR@10
    // fr 0.916 → 0.795, pt 0.935 → 0.836, es 0.888 → 0.847, de 0.940 → 0.926, ru 0.972 → 0.956):
    // a query's exact words, a heading typed as written, are what find the guide, and a stem matches
    // every inflection in every guide. As version 15 the indexes are dropped and refilled as the
    // build indexes text now (shared/words.ts indexedText, the index's Porter stemmer only).
    sql: '',
    apply: dropWorkspaceIndexes,
  },
  {
    version: 19,
    description: 'deleted items found by path through an index of their own (issue 32)',
    // A file seen at a path with no live item revives the latest item deleted there, if any
    // (SqliteStore.latestTombstoneAt): without an index on the deleted rows' paths that look-up
    // read every item of the workspace, once per new file, so a cold index of a large folder grew
    // with the square of its size. Partial, so live rows (the items_live_path index's) cost nothing.
    sql: `
      CREATE INDEX IF NOT EXISTS items_tombstone_path ON items (workspace, path, deleted_at) WHERE deleted_at IS NOT NULL;
    `,
  },
  {
    version: 20,
    description: "the per-workspace count of item changes also counts each item's extraction stored or dropped (issue 32)",
    // discover/phraseMemory.ts keeps the key phrases' item counts and each item's compared phrases
    // while this count stands; they follow from the extractions, which change no row of items. An
    // extraction's phrases are written and dropped only with its item_extractions row (storeExtraction,
    // dropExtraction, a store's import), so one trigger per extraction keeps the count, not one per phrase.
    sql: `
      CREATE TRIGGER IF NOT EXISTS items_generation_extraction_insert AFTER INSERT ON item_extractions BEGIN
        ${countChange('NEW')}
      END;
      CREATE TRIGGER IF NOT EXISTS items_generation_extraction_delete AFTER DELETE ON item_extractions BEGIN
        ${countChange('OLD')}
      END;
    `,
  },
  {
    version: 21,
    description: "the passages written in another language than their item's, detected with its extraction (issue 28)",
    // extract/passageLanguages.ts: a JSON object chunk id → language, null when every passage is in
    // the item's language. Search's vector path leaves out passages the model does not read by it.
    // Null for an extraction made before: such items are extracted again (concepts@5), which sets it.
    sql: '',
    apply: addColumnOnce('item_extractions', 'passage_languages', 'TEXT'),
  },
  {
    version: 22,
    description:
      "items found by their folder's depth and path, items and relationships by when they were written, relationships by the Proposals view's unit (issue 32)",
    // Related's nearby fallback (engine/treeRings.ts) reads the items of one depth in one stretch of
    // paths, nearest folders first, a few at a time; the language server's note on what a pass did
    // to the proposals (lsp/proposalTracker.ts) reads the items and relationships written since the
    // last pass; the Proposals view (engine/relationshipPages.ts) counts each unit and reads its
    // first rows from an index that holds what places a relationship in a unit (its status, its
    // type, whether it rests on a link alone: the `linked` column, written with its signals) and
    // the view's order in it. Without these indexes each read every item, or every relationship.
    sql: `
      CREATE INDEX IF NOT EXISTS items_live_depth_path ON items (workspace, status, ${PATH_SLASHES_SQL}, path) WHERE deleted_at IS NULL;
      CREATE INDEX IF NOT EXISTS items_written ON items (workspace, updated_at);
      CREATE INDEX IF NOT EXISTS relationships_written ON relationships (workspace, updated_at);
    `,
    apply: (db) => {
      addColumnOnce('relationships', 'linked', 'INTEGER NOT NULL DEFAULT 0')(db);
      // Every workspace's relationships get the column, as a schema change reaches every row (like
      // rechunkVectorTables): one statement over the file, not a workspace's read and write.
      db.function('relata_rests_on_links', { deterministic: true }, (signals) => (restsOnLinks(JSON.parse(String(signals)) as SignalView[]) ? 1 : 0));
      db.exec('UPDATE relationships SET linked = 1 WHERE relata_rests_on_links(signals) = 1');
      db.exec('CREATE INDEX IF NOT EXISTS relationships_units ON relationships (workspace, status, linked, type, score DESC, id, from_item, to_item)');
    },
  },
  {
    version: 23,
    description: "what ingest saw of each item's file when it read it: size, modification and change times, and when (issue 32)",
    // workspace/checkedFiles.ts: a run reads again only the files whose size or times moved since,
    // instead of reading and hashing the whole folder to find it unchanged at every start.
    sql: '',
    apply: (db) => {
      for (const column of ['checked_size', 'checked_mtime_ms', 'checked_ctime_ms', 'checked_at_ms']) addColumnOnce('items', column, 'REAL')(db);
    },
  },
];

/** A column added only where it is missing: SQLite has no ADD COLUMN IF NOT EXISTS, and a migration from 9 on may meet a store that has it. */
function addColumnOnce(table: string, column: string, declaration: string): (db: Database.Database) => void {
  return (db) => {
    const columns = db.pragma(`table_info(${table})`) as { name: string }[];
    if (!columns.some((existing) => existing.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${declaration}`);
  };
}

/** Drops every workspace's lexical indexes, for ensureWorkspaceIndexes to refill as the current build indexes text. */
function dropWorkspaceIndexes(db: Database.Database): void {
  const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`).all() as { name: string }[];
  for (const { name } of tables) if (/^(?:item|chunk)_fts_[0-9a-f]{16}$/.test(name)) db.exec(`DROP TABLE ${name}`);
}

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * For a store opened to read, which cannot migrate: its schema must be the one this version reads.
 * An older one is refused rather than read, since every query assumes the current tables.
 */
export function requireCurrentSchema(db: Database.Database, file: string): void {
  const hasMigrations = storeStatement(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!hasMigrations) throw new Error(`${file} is not a Relata store, or was never indexed: run \`relata index <folder>\` to create it`);
  const current = (storeStatement(db, 'SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new Error(`${file} was written by a newer Relata (schema ${current}, this version knows ${SCHEMA_VERSION}); upgrade Relata`);
  }
  if (current < SCHEMA_VERSION) throw new SchemaOutdatedError(file, current);
}

/** A store opened to read whose schema is older than this version's: it must be migrated by a writer first. */
export class SchemaOutdatedError extends Error {
  override readonly name = 'SchemaOutdatedError';

  constructor(
    readonly file: string,
    readonly schema: number,
  ) {
    super(
      `${file} was written by an older Relata (schema ${schema}, this version reads ${SCHEMA_VERSION}) and could not be ` +
        'upgraded from here: run `relata index` once to upgrade it, then try again',
    );
  }
}

export function migrate(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const current =
    (storeStatement(db, 'SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `the store was written by a newer Relata (schema ${current}, this version knows ${SCHEMA_VERSION}); upgrade Relata`,
    );
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      migration.apply?.(db);
      storeStatement(db, 'INSERT INTO schema_migrations VALUES (?, ?, ?)').run(
        migration.version,
        migration.description,
        new Date().toISOString(),
      );
    }).immediate();
  }
}
