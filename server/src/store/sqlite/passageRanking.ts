// BM25 over a workspace's passages, without scoring the passages that hold only frequent words
// when it can be proved that none of them is among the results. FTS5 scores every passage that
// matches before ordering them, so a query word found in a third of the passages costs a third of
// the index (15-26 ms at 100,000 passages, against 1-3 ms for rarer words).
//
// The bound: FTS5's bm25() gives each phrase idf × f(k1 + 1) / (f + k1(1 - b + b·len/avglen)),
// which stays below idf × (k1 + 1) however often the word repeats. A passage holding none of the
// query's rarer phrases therefore scores below the sum of that over the frequent ones. When the
// limit-th best passage holding a rarer phrase scores above the sum, the best passages holding a
// rarer phrase are the results, in the same order; otherwise the full query answers.
//
// The scores are FTS5's own, bit for bit: the passages holding a rarer phrase are scored by the
// same full-text query (same phrases in the same order, so the same idf, the same sum in the same
// order), only filtered by rowid. The counts the bound is built from are exact and read in the
// same read transaction as the scores; which words count as frequent, and whether the bound is
// likely to be met, come from counts kept between searches, which may be stale after writes:
// that only decides whether the shortcut is tried.

import { countedRows } from './lexicalStatistics.ts';
import type { ScopedSql } from './scopedSql.ts';

/** FTS5's bm25() constant k1 (fts5_aux.c), plus one: no phrase weighs idf × this much or more. */
const K1_PLUS_1 = 1.2 + 1.0;
/** A phrase found in at least this share of the passages is frequent; below it the full query is cheap. */
const FREQUENT_SHARE = 0.05;
/**
 * The shortcut is tried only when the frequent phrases' bound is below this many times the idf of
 * the rarest other phrase: a passage holding that phrase once, at average length, scores about its
 * idf, so a bound far above it is seldom beaten by the limit-th passage, and the try would be wasted.
 */
const PROMISING = 1.25;
/** Room for rounding: FTS5's sum of rounded terms, and JavaScript's log against C's in the last bit. */
const ROUNDING = 1e-9;
/** Counts kept between searches at most; past it they are counted again. */
const KEPT_COUNTS = 4096;

export interface RankedPassage {
  chunk_id: string;
  item_id: string;
  /** FTS5's bm25(): the negated score, lower first. */
  score: number;
}

/**
 * Which query answered: the one over the passages holding a rarer phrase (the bound proved it), the
 * full one after that was tried and not proved, or the full one alone.
 */
export type RankingPath = 'rarer phrases' | 'full query, bound not met' | 'full query';

interface Split {
  frequent: string[];
  rarer: string[];
}

export class PassageRanking {
  /**
   * Passages holding each phrase, from earlier searches while the index counted `countedAt` rows:
   * exact for a frequent phrase, else counted only up to the frequent share. Used to choose, never to prove.
   */
  private readonly knownCounts = new Map<string, number>();
  private countedAt = -1;

  constructor(
    private readonly sql: ScopedSql,
    /** The workspace's FTS5 index of passages. */
    private readonly index: string,
  ) {}

  /** The best `limit` passages for the OR of `phrases` (ftsQuery.ts), by bm25() then rowid, joined to their chunks. */
  rank(phrases: readonly string[], limit: number): { passages: RankedPassage[]; path: RankingPath } {
    const match = phrases.join(' OR ');
    // Inside a transaction of this connection FTS5 may score from totals not yet written, which the
    // bound could not read.
    const split = phrases.length > 1 && limit > 0 && !this.sql.db.inTransaction ? this.promisingSplit(phrases) : null;
    if (split) {
      // One read transaction: the counts the bound is built from are those of the index that scores.
      const passages = this.sql.db.transaction(() => this.provedByRarerPhrases(split, match, limit))();
      return passages ? { passages, path: 'rarer phrases' } : { passages: this.ranked(match, limit), path: 'full query, bound not met' };
    }
    return { passages: this.ranked(match, limit), path: 'full query' };
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

  /** The passages holding a rarer phrase, ranked by the full query, when the bound proves them the answer; else null. */
  private provedByRarerPhrases({ frequent, rarer }: Split, match: string, limit: number): RankedPassage[] | null {
    const rows = countedRows(this.sql, this.index);
    const bound = frequent.reduce((sum, phrase) => sum + K1_PLUS_1 * idf(rows, this.passagesHolding(phrase)), 0);
    const passages = this.ranked(match, limit, rarer.join(' OR '));
    const last = passages[limit - 1];
    // Strictly above: a passage of frequent words alone scoring the same could come first by rowid.
    return last && -last.score > bound * (1 + ROUNDING) ? passages : null;
  }

  /** FTS5's ranking of the full query, over every match or over those holding `among`. */
  private ranked(match: string, limit: number, among?: string): RankedPassage[] {
    const index = this.index;
    // Ranked inside the full-text index, then joined: only `limit` passages are read from chunks,
    // not every match. bm25() rather than FTS5's `rank` column, whose sorter measured slower.
    // `+rowid` keeps the filter out of FTS5's plan, which would run the query once per rowid.
    const filter = among === undefined ? '' : `AND +rowid IN (SELECT rowid FROM ${index} WHERE ${index} MATCH @among)`;
    return this.sql.rows<RankedPassage>(
      `SELECT chunks.id AS chunk_id, chunks.item_id, ranked.score
       FROM (SELECT rowid, bm25(${index}) AS score FROM ${index}
             WHERE ${index} MATCH @match ${filter} ORDER BY score, rowid LIMIT @limit) AS ranked
       CROSS JOIN chunks ON chunks.seq = ranked.rowid
       WHERE chunks.workspace = @ws ORDER BY ranked.score, ranked.rowid`,
      among === undefined ? { match, limit } : { match, limit, among },
    );
  }

  /** How many passages hold the phrase, as FTS5 counts them for its idf (xQueryPhrase); kept for the next choice. */
  private passagesHolding(phrase: string): number {
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
    if (count >= frequentAt) return this.passagesHolding(phrase);
    this.knownCounts.set(phrase, count);
    return count;
  }
}

/** FTS5's idf (fts5Bm25GetData): log((N - n + 0.5) / (n + 0.5)), and 1e-6 where that is not above zero. */
function idf(rows: number, holding: number): number {
  const value = Math.log((rows - holding + 0.5) / (holding + 0.5));
  return value <= 0 ? 1e-6 : value;
}
