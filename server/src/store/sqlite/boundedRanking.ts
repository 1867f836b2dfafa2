// BM25 over one of a workspace's lexical indexes (its passages, or its items' titles and texts),
// without scoring the rows that hold only frequent words when it can be proved that none of them is
// among the results. FTS5 scores every row that matches before ordering them, so a query word found
// in a third of the passages costs a third of the index (15-26 ms at 100,000 passages, against 1-3
// ms for rarer words); at 100,000 items an identifier's prefix ("PRJ" of "PRJ-2933") is in most of
// them. Passages and items are called rows below.
//
// The bound: FTS5's bm25() gives each phrase idf × f(k1 + 1) / (f + k1(1 - b + b·len/avglen)),
// which stays below idf × (k1 + 1) however often the word repeats (the item index's two columns
// weigh 1 each, so a phrase's frequency is its count in both, and the bound holds). A row holding
// none of the query's rarer phrases therefore scores below the sum of that over the frequent ones.
// When the limit-th best row holding a rarer phrase scores above the sum, the best rows holding a
// rarer phrase are the results, in the same order; otherwise the full query answers.
//
// The scores are FTS5's own, bit for bit: the rows holding a rarer phrase are scored by the
// same full-text query (same phrases in the same order, so the same idf, the same sum in the same
// order), only filtered by rowid. The counts the bound is built from are exact and read in the
// same read transaction as the scores; which words count as frequent, and whether the bound is
// likely to be met, come from counts kept between searches, which may be stale after writes:
// that only decides whether the shortcut is tried.

import { countedRows } from './lexicalStatistics.ts';
import type { ScopedSql } from './scopedSql.ts';

/** FTS5's bm25() constant k1 (fts5_aux.c), plus one: no phrase weighs idf × this much or more. */
const K1_PLUS_1 = 1.2 + 1.0;
/** A phrase found in at least this share of the rows is frequent; below it the full query is cheap. */
const FREQUENT_SHARE = 0.05;
/**
 * The shortcut is tried only when the frequent phrases' bound is below this many times the idf of
 * the rarest other phrase: a row holding that phrase once, at average length, scores about its
 * idf, so a bound far above it is seldom beaten by the limit-th row, and the try would be wasted.
 */
const PROMISING = 1.25;
/** Room for rounding: FTS5's sum of rounded terms, and JavaScript's log against C's in the last bit. */
const ROUNDING = 1e-9;
/** Counts kept between searches at most; past it they are counted again. */
const KEPT_COUNTS = 4096;

/** A ranked row of the index: a passage (its chunk's id and item), or an item (its id twice). */
export interface RankedRow {
  id: string;
  item_id: string;
  /** FTS5's bm25(): the negated score, lower first. */
  score: number;
}

/** What an index's rowids are the `seq` of, and how a live row of this workspace is read there. */
export interface IndexedRows {
  table: 'chunks' | 'items';
  /** The ranked row's columns (`id`, `item_id`) from that table. */
  columns: string;
  /** The condition a row must meet besides its workspace (none for passages). */
  live: string;
}

export const PASSAGE_ROWS: IndexedRows = { table: 'chunks', columns: 'chunks.id AS id, chunks.item_id AS item_id', live: '' };
// A deleted item's words leave the index with it (tombstone); the test stays, as the item path's query always had it.
export const ITEM_ROWS: IndexedRows = { table: 'items', columns: 'items.id AS id, items.id AS item_id', live: 'AND items.deleted_at IS NULL' };

/**
 * Which query answered: the one over the rows holding a rarer phrase (the bound proved it), the
 * full one after that was tried and not proved, or the full one alone.
 */
export type RankingPath = 'rarer phrases' | 'full query, bound not met' | 'full query';

interface Split {
  frequent: string[];
  rarer: string[];
}

export class BoundedRanking {
  /**
   * Rows holding each phrase, from earlier searches while the index counted `countedAt` rows:
   * exact for a frequent phrase, else counted only up to the frequent share. Used to choose, never to prove.
   */
  private readonly knownCounts = new Map<string, number>();
  private countedAt = -1;

  constructor(
    private readonly sql: ScopedSql,
    /** The workspace's FTS5 index: of passages or of items. */
    private readonly index: string,
    private readonly rows: IndexedRows,
  ) {}

  /** The best `limit` rows for the OR of `phrases` (ftsQuery.ts), by bm25() then rowid, joined to their table. */
  rank(phrases: readonly string[], limit: number): { rows: RankedRow[]; path: RankingPath } {
    const match = phrases.join(' OR ');
    // Inside a transaction of this connection FTS5 may score from totals not yet written, which the
    // bound could not read.
    const split = phrases.length > 1 && limit > 0 && !this.sql.db.inTransaction ? this.promisingSplit(phrases) : null;
    if (split) {
      // One read transaction: the counts the bound is built from are those of the index that scores.
      const rows = this.sql.db.transaction(() => this.provedByRarerPhrases(split, match, limit))();
      return rows ? { rows, path: 'rarer phrases' } : { rows: this.ranked(match, limit), path: 'full query, bound not met' };
    }
    return { rows: this.ranked(match, limit), path: 'full query' };
  }

  /** The frequent and rarer phrases, from the kept counts, when the bound looks likely to be met; else null. */
  private promisingSplit(phrases: readonly string[]): Split | null {
    const rows = countedRows(this.sql, this.index);
    const frequentAt = Math.max(1, Math.ceil(rows * FREQUENT_SHARE));
    if (this.countedAt !== rows || this.knownCounts.size >= KEPT_COUNTS) {
      this.knownCounts.clear();
      this.countedAt = rows;
    }
    const counts = new Map(phrases.map((phrase) => [phrase, this.knownCount(phrase, frequentAt)]));
    const frequent = phrases.filter((phrase) => counts.get(phrase)! >= frequentAt);
    const rarer = phrases.filter((phrase) => counts.get(phrase)! < frequentAt);
    if (frequent.length === 0 || rarer.length === 0) return null;
    const bound = frequent.reduce((sum, phrase) => sum + K1_PLUS_1 * idf(rows, counts.get(phrase)!), 0);
    const rarest = Math.max(...rarer.map((phrase) => idf(rows, counts.get(phrase)!)));
    return bound <= PROMISING * rarest ? { frequent, rarer } : null;
  }

  /** The rows holding a rarer phrase, ranked by the full query, when the bound proves them the answer; else null. */
  private provedByRarerPhrases({ frequent, rarer }: Split, match: string, limit: number): RankedRow[] | null {
    const rows = countedRows(this.sql, this.index);
    const bound = frequent.reduce((sum, phrase) => sum + K1_PLUS_1 * idf(rows, this.rowsHolding(phrase)), 0);
    const ranked = this.ranked(match, limit, rarer.join(' OR '));
    const last = ranked[limit - 1];
    // Strictly above: a row of frequent words alone scoring the same could come first by rowid.
    return last && -last.score > bound * (1 + ROUNDING) ? ranked : null;
  }

  /** FTS5's ranking of the full query, over every match or over those holding `among`. */
  private ranked(match: string, limit: number, among?: string): RankedRow[] {
    const { index, rows } = this;
    // Ranked inside the full-text index, then joined: only `limit` rows are read from the table,
    // not every match (at 100,000 items, joining every match before ordering took twice as long).
    // bm25() rather than FTS5's `rank` column, whose sorter measured slower.
    // `+rowid` keeps the filter out of FTS5's plan, which would run the query once per rowid.
    const filter = among === undefined ? '' : `AND +rowid IN (SELECT rowid FROM ${index} WHERE ${index} MATCH @among)`;
    return this.sql.rows<RankedRow>(
      `SELECT ${rows.columns}, ranked.score
       FROM (SELECT rowid, bm25(${index}) AS score FROM ${index}
             WHERE ${index} MATCH @match ${filter} ORDER BY score, rowid LIMIT @limit) AS ranked
       CROSS JOIN ${rows.table} ON ${rows.table}.seq = ranked.rowid
       WHERE ${rows.table}.workspace = @ws ${rows.live} ORDER BY ranked.score, ranked.rowid`,
      among === undefined ? { match, limit } : { match, limit, among },
    );
  }

  /** How many rows hold the phrase, as FTS5 counts them for its idf (xQueryPhrase); kept for the next choice. */
  private rowsHolding(phrase: string): number {
    const count = this.sql.row<{ n: number }>(`SELECT count(*) AS n FROM ${this.index} WHERE ${this.index} MATCH @phrase`, { phrase })!.n;
    this.knownCounts.set(phrase, count);
    return count;
  }

  /** The kept count of the phrase; a phrase not seen yet is counted up to `frequentAt`, and exactly if it reaches it. */
  private knownCount(phrase: string, frequentAt: number): number {
    const known = this.knownCounts.get(phrase);
    if (known !== undefined) return known;
    const count = this.sql.row<{ n: number }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${this.index} WHERE ${this.index} MATCH @phrase LIMIT @frequentAt)`,
      { phrase, frequentAt },
    )!.n;
    if (count >= frequentAt) return this.rowsHolding(phrase);
    this.knownCounts.set(phrase, count);
    return count;
  }
}

/** FTS5's idf (fts5Bm25GetData): log((N - n + 0.5) / (n + 0.5)), and 1e-6 where that is not above zero. */
function idf(rows: number, holding: number): number {
  const value = Math.log((rows - holding + 0.5) / (holding + 0.5));
  return value <= 0 ? 1e-6 : value;
}
