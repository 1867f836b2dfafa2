// Relationships in SQLite: one row per item pair (the dedupe key), plus an append-only history of
// every proposal, update and decision. Discovery's evidence and the pair's standing decision meet
// inside one write (the review rule is applied to the row as it is then), so neither a decision
// nor a rediscovery overwrites the other. Nothing here deletes a relationship; forgetting a
// document only redacts what its relationships quote from it.

import { restsOnLinks } from '../../../../shared/linkedInDocuments.ts';
import type { UnitMembers } from '../../../../shared/proposalPages.ts';
import { REVIEW_ORDER } from '../../../../shared/reviewOrder.ts';
import type { ChangedSinceDecision, RelationshipStatus, RelationshipType, SignalView } from '../../../../shared/types.ts';
import { evidenceOf, pairKey, redactQuotes, relationshipId } from '../relationshipRules.ts';
import type {
  DecisionBasis,
  ProposalOutcome,
  ProposalQuery,
  RelationshipDecision,
  RelationshipEvent,
  RelationshipFilter,
  RelationshipGroup,
  RelationshipProposal,
  RelationshipRecord,
  ReviewRule,
} from '../contract.ts';
import { toEvent, type EventRow } from './rows.ts';
import type { ScopedSql } from './scopedSql.ts';

export interface RelationshipRow {
  id: string;
  from_item: string;
  to_item: string;
  type: RelationshipType;
  score: number;
  proposed_score: number;
  score_version: string;
  status: RelationshipStatus;
  near_duplicate: number;
  signals: string;
  produced_by: string;
  created_at: string;
  updated_at: string;
  decided_by: string | null;
  decided_at: string | null;
  note: string | null;
  decision_basis: string | null;
  changed_since_decision: string | null;
}

export const toRecord = (row: RelationshipRow): RelationshipRecord => ({
  id: row.id,
  fromItemId: row.from_item,
  toItemId: row.to_item,
  type: row.type,
  score: row.score,
  proposedScore: row.proposed_score,
  scoreVersion: row.score_version,
  status: row.status,
  nearDuplicate: row.near_duplicate === 1,
  signals: JSON.parse(row.signals) as SignalView[],
  producedBy: row.produced_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  decidedBy: row.decided_by,
  decidedAt: row.decided_at,
  note: row.note,
  decisionBasis: row.decision_basis === null ? null : (JSON.parse(row.decision_basis) as DecisionBasis),
  changedSinceDecision: row.changed_since_decision === null ? null : (JSON.parse(row.changed_since_decision) as ChangedSinceDecision),
});

const jsonOrNull = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

/** Only relationships whose two ends are live items are served; the rows stay either way. */
const LIVE_ENDS = `
  EXISTS (SELECT 1 FROM items f WHERE f.workspace = @ws AND f.id = r.from_item AND f.deleted_at IS NULL)
  AND EXISTS (SELECT 1 FROM items t WHERE t.workspace = @ws AND t.id = r.to_item AND t.deleted_at IS NULL)`;

/** The ids of the deleted items, through their partial index (items_tombstone_path). */
const DELETED_ITEMS = 'SELECT id FROM items WHERE workspace = @ws AND deleted_at IS NOT NULL';

/** The conditions of what the Proposals view lists: pending ones over its threshold, and its filter. */
function listedBy(query: ProposalQuery): { conditions: string; params: Record<string, unknown> } {
  const { filter } = query;
  const conditions = [
    "AND (r.status <> 'pending' OR r.score >= @minPendingScore) AND r.score >= @minStrength",
    filter.types === null ? '' : 'AND r.type IN (SELECT value FROM json_each(@types))',
    filter.statuses === null ? '' : 'AND r.status IN (SELECT value FROM json_each(@statuses))',
  ].join(' ');
  return {
    conditions,
    params: {
      minPendingScore: query.minPendingScore,
      minStrength: filter.minStrength,
      ...(filter.types === null ? {} : { types: JSON.stringify(filter.types) }),
      ...(filter.statuses === null ? {} : { statuses: JSON.stringify(filter.statuses) }),
    },
  };
}

export class RelationshipTables {
  constructor(private readonly sql: ScopedSql) {}

  /**
   * The pair's row is read, the review rule applied to it and the result written in one
   * transaction, so a decision committed while discovery was weighing the pair is the one applied.
   */
  upsert(proposal: RelationshipProposal, review: ReviewRule, now: string): { id: string; outcome: ProposalOutcome } {
    if (proposal.fromItemId === proposal.toItemId) throw new Error(`an item cannot be related to itself (${proposal.fromItemId})`);
    return this.sql.write(() => {
      const key = pairKey(proposal.fromItemId, proposal.toItemId);
      const existing = this.sql.row<RelationshipRow>('SELECT * FROM relationships WHERE workspace = @ws AND pair_key = @key', { key });
      const reviewed = review(proposal, existing ? toRecord(existing) : null);
      const values = {
        from: reviewed.fromItemId,
        to: reviewed.toItemId,
        type: reviewed.type,
        score: reviewed.score,
        proposedScore: reviewed.proposedScore,
        version: reviewed.scoreVersion,
        status: reviewed.status,
        nearDuplicate: reviewed.nearDuplicate ? 1 : 0,
        signals: JSON.stringify(reviewed.signals),
        linked: restsOnLinks(reviewed.signals) ? 1 : 0,
        producedBy: reviewed.producedBy,
        decidedBy: reviewed.decidedBy,
        decidedAt: reviewed.decidedAt,
        note: reviewed.note,
        basis: jsonOrNull(reviewed.decisionBasis),
        changed: jsonOrNull(reviewed.changedSinceDecision),
        now,
      };
      const changeNote = reviewed.changedSinceDecision?.changes.join('; ') ?? null;
      if (!existing) {
        const id = relationshipId(this.sql.workspace, key);
        this.sql.run(
          `INSERT INTO relationships (workspace, id, pair_key, from_item, to_item, type, score, proposed_score, score_version,
             status, near_duplicate, signals, linked, produced_by, created_at, updated_at)
           VALUES (@ws, @id, @key, @from, @to, @type, @score, @proposedScore, @version, 'pending', @nearDuplicate, @signals,
             @linked, @producedBy, @now, @now)`,
          { ...values, id, key },
        );
        this.recordEvent(id, 'proposed', proposal.producedBy, reviewed, null, now);
        return { id, outcome: 'created' };
      }
      const outcome = existing.status === 'rejected' ? 'kept_rejected' : 'updated';
      const unchanged =
        existing.from_item === values.from &&
        existing.to_item === values.to &&
        existing.type === values.type &&
        existing.score === values.score &&
        existing.proposed_score === values.proposedScore &&
        existing.score_version === values.version &&
        existing.status === values.status &&
        existing.near_duplicate === values.nearDuplicate &&
        existing.signals === values.signals &&
        existing.decided_by === values.decidedBy &&
        existing.note === values.note &&
        existing.decision_basis === values.basis &&
        existing.changed_since_decision === values.changed;
      if (unchanged) return { id: existing.id, outcome: outcome === 'kept_rejected' ? outcome : 'unchanged' };
      this.sql.run(
        `UPDATE relationships SET from_item = @from, to_item = @to, type = @type, score = @score, proposed_score = @proposedScore,
           score_version = @version, status = @status, near_duplicate = @nearDuplicate, signals = @signals, linked = @linked, produced_by = @producedBy,
           decided_by = @decidedBy, decided_at = @decidedAt, note = @note, decision_basis = @basis,
           changed_since_decision = @changed, updated_at = @now
         WHERE workspace = @ws AND id = @id`,
        { ...values, id: existing.id },
      );
      const eventNote = reviewed.event === 'returned_to_review' || reviewed.event === 'evidence_changed' ? changeNote : null;
      this.recordEvent(existing.id, reviewed.event, proposal.producedBy, reviewed, eventNote, now);
      return { id: existing.id, outcome };
    });
  }

  /**
   * A decision and its history carried from another store (`relata index --rebuild`), already
   * mapped to this store's item ids. When discovery has proposed the pair here, its evidence meets
   * the carried decision through the review rule, as a rediscovery would (a confirmation whose
   * evidence changed returns to review); otherwise the relationship is recorded as it stood. The
   * history keeps its own times, so it reads before what this store has added since.
   */
  restore(carried: RelationshipRecord, history: readonly RelationshipEvent[], review: ReviewRule, now: string): 'reattached' | 'recorded' {
    return this.sql.write(() => {
      const key = pairKey(carried.fromItemId, carried.toItemId);
      const existing = this.sql.row<RelationshipRow>('SELECT * FROM relationships WHERE workspace = @ws AND pair_key = @key', { key });
      const id = existing?.id ?? relationshipId(this.sql.workspace, key);
      for (const event of history) {
        this.sql.run(
          `INSERT INTO relationship_events (workspace, relationship_id, at, kind, actor, type, score, score_version, signals, note)
           VALUES (@ws, @id, @at, @kind, @actor, @type, @score, @version, @signals, @note)`,
          { id, at: event.at, kind: event.kind, actor: event.actor, type: event.type, score: event.score, version: event.scoreVersion, signals: JSON.stringify(event.signals), note: event.note },
        );
      }
      if (existing) {
        const evidence = evidenceOf(toRecord(existing));
        this.upsert(evidence, (proposal) => review(proposal, { ...carried, id }), now);
        return 'reattached';
      }
      this.sql.run(
        `INSERT INTO relationships (workspace, id, pair_key, from_item, to_item, type, score, proposed_score, score_version,
           status, near_duplicate, signals, linked, produced_by, created_at, updated_at, decided_by, decided_at, note, decision_basis,
           changed_since_decision)
         VALUES (@ws, @id, @key, @from, @to, @type, @score, @proposedScore, @version, @status, @nearDuplicate, @signals,
           @linked, @producedBy, @createdAt, @now, @decidedBy, @decidedAt, @note, @basis, @changed)`,
        {
          id,
          key,
          from: carried.fromItemId,
          to: carried.toItemId,
          type: carried.type,
          score: carried.score,
          proposedScore: carried.proposedScore,
          version: carried.scoreVersion,
          status: carried.status,
          nearDuplicate: carried.nearDuplicate ? 1 : 0,
          signals: JSON.stringify(carried.signals),
          linked: restsOnLinks(carried.signals) ? 1 : 0,
          producedBy: carried.producedBy,
          createdAt: carried.createdAt,
          now,
          decidedBy: carried.decidedBy,
          decidedAt: carried.decidedAt,
          note: carried.note,
          basis: jsonOrNull(carried.decisionBasis),
          changed: jsonOrNull(carried.changedSinceDecision),
        },
      );
      return 'recorded';
    });
  }

  get(id: string): RelationshipRecord | null {
    const row = this.sql.row<RelationshipRow>('SELECT * FROM relationships WHERE workspace = @ws AND id = @id', { id });
    return row ? toRecord(row) : null;
  }

  between(itemA: string, itemB: string): RelationshipRecord | null {
    const row = this.sql.row<RelationshipRow>('SELECT * FROM relationships WHERE workspace = @ws AND pair_key = @key', {
      key: pairKey(itemA, itemB),
    });
    return row ? toRecord(row) : null;
  }

  list(filter: RelationshipFilter = {}): RelationshipRecord[] {
    const written = filter.writtenSince === undefined ? '' : 'AND r.updated_at >= @since';
    const conditions = `AND (@status IS NULL OR r.status = @status) AND (r.status <> 'pending' OR r.score >= @minPendingScore) ${written}`;
    const params = { status: filter.status ?? null, minPendingScore: filter.minPendingScore ?? 0, ...(written ? { since: filter.writtenSince } : {}) };
    if (filter.itemId !== undefined) return this.touchingWhere([filter.itemId], conditions, params);
    return this.sql
      .rows<RelationshipRow>(
        `SELECT * FROM relationships r WHERE r.workspace = @ws AND ${LIVE_ENDS} ${conditions} ORDER BY r.score DESC, r.id`,
        params,
      )
      .map(toRecord);
  }

  /**
   * Counted from the relationships_units index alone, then less the relationships with a deleted
   * end, found from the deleted items (their own index) and their relationships: checking both
   * ends of every relationship cost two look-ups a row, most of the count's time. Every end is an
   * item row (rows are never removed: a deleted item keeps its row, an import writes its items first).
   */
  groups(query: ProposalQuery): RelationshipGroup[] {
    const listed = listedBy(query);
    const count = (among: string) =>
      this.sql.rows<{ status: RelationshipStatus; type: RelationshipType; linked: number; n: number }>(
        `SELECT r.status, r.type, r.linked, COUNT(*) AS n FROM relationships r
         WHERE r.workspace = @ws ${among} ${listed.conditions} GROUP BY r.status, r.linked, r.type`,
        listed.params,
      );
    const key = (row: { status: string; type: string; linked: number }) => `${row.status}|${row.type}|${row.linked}`;
    const dead = new Map(
      count(
        `AND r.id IN (
           SELECT id FROM relationships WHERE workspace = @ws AND from_item IN (${DELETED_ITEMS})
           UNION SELECT id FROM relationships WHERE workspace = @ws AND to_item IN (${DELETED_ITEMS}))`,
      ).map((row) => [key(row), row.n]),
    );
    return count('')
      .map((row) => ({ status: row.status, type: row.type, linked: row.linked === 1, count: row.n - (dead.get(key(row)) ?? 0) }))
      .filter((group) => group.count > 0);
  }

  /**
   * The ids in the view's order from the relationships_units index alone (it holds the ends for
   * LIVE_ENDS), then those rows. The index orders each status, linked-or-not and type by strength,
   * so the unit is read one type at a time in the view's order of types, each of its status and
   * linked parts up to the rows still wanted and merged: a request reads about the rows it shows.
   */
  inViewOrder(query: ProposalQuery, members: UnitMembers, limit: number): RelationshipRecord[] {
    const listed = listedBy(query);
    const parts = members.statuses.flatMap((status) => (members.linked === null ? [0, 1] : [members.linked ? 1 : 0]).map((linked) => ({ status, linked })));
    const ids: string[] = [];
    const read = (typeCondition: string, order: string, params: Record<string, unknown>) =>
      parts
        .flatMap(({ status, linked }) =>
          this.sql.rows<{ id: string; type: string; score: number }>(
            `SELECT r.id, r.type, r.score FROM relationships r
             WHERE r.workspace = @ws AND r.status = @status AND r.linked = @linked AND ${typeCondition} ${listed.conditions} AND ${LIVE_ENDS}
             ORDER BY ${order} LIMIT @limit`,
            { ...listed.params, ...params, status, linked, limit: limit - ids.length },
          ),
        )
        .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) || b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, limit - ids.length)
        .map((row) => row.id);
    for (const type of members.type === null ? REVIEW_ORDER : [members.type]) {
      if (ids.length >= limit) break;
      ids.push(...read('r.type = @type', 'r.score DESC, r.id', { type }));
    }
    // Types this build does not know (a newer one wrote them) go last, by name.
    if (members.type === null && ids.length < limit) {
      ids.push(...read('r.type NOT IN (SELECT value FROM json_each(@known))', 'r.type, r.score DESC, r.id', { known: JSON.stringify(REVIEW_ORDER) }));
    }
    const rows = new Map(
      this.sql
        .rows<RelationshipRow>('SELECT * FROM relationships WHERE workspace = @ws AND id IN (SELECT value FROM json_each(@ids))', { ids: JSON.stringify(ids) })
        .map((row) => [row.id, row]),
    );
    return ids.flatMap((id) => (rows.has(id) ? [toRecord(rows.get(id)!)] : []));
  }

  touching(itemIds: readonly string[], options: { minScore?: number; statuses?: readonly RelationshipStatus[] }): RelationshipRecord[] {
    if (itemIds.length === 0) return [];
    return this.touchingWhere(itemIds, 'AND r.status IN (SELECT value FROM json_each(@statuses)) AND r.score >= @minScore', {
      statuses: JSON.stringify(options.statuses ?? ['pending', 'confirmed', 'rejected']),
      minScore: options.minScore ?? 0,
    });
  }

  /**
   * Relationships with one of these items at either end: two index look-ups (from, to) drive the
   * query, so its cost follows the items' own relationships, not the workspace's. The indexes are
   * named: without statistics SQLite takes `workspace = ?` as selective and preferred scanning the
   * workspace's whole relationships_units index, which holds both ends too (27 ms a call at 60,000
   * relationships, against 0.06 ms). (Written as a CROSS JOIN because SQLite would otherwise prefer
   * scanning the status index.)
   */
  private touchingWhere(itemIds: readonly string[], conditions: string, params: Record<string, unknown>): RelationshipRecord[] {
    return this.sql
      .rows<RelationshipRow>(
        `SELECT r.* FROM (
           SELECT id FROM relationships INDEXED BY relationships_from WHERE workspace = @ws AND from_item IN (SELECT value FROM json_each(@ids))
           UNION SELECT id FROM relationships INDEXED BY relationships_to WHERE workspace = @ws AND to_item IN (SELECT value FROM json_each(@ids))
         ) AS mine
         CROSS JOIN relationships r ON r.workspace = @ws AND r.id = mine.id
         WHERE ${LIVE_ENDS} ${conditions}
         ORDER BY r.score DESC, r.id`,
        { ...params, ids: JSON.stringify(itemIds) },
      )
      .map(toRecord);
  }

  decide(id: string, decide: (current: RelationshipRecord) => RelationshipDecision, now: string): RelationshipRecord {
    return this.sql.write(() => {
      const existing = this.get(id);
      if (!existing) throw new Error(`no relationship ${id} in this workspace`);
      const decision = decide(existing);
      this.sql.run(
        `UPDATE relationships SET status = @status, score = @score, signals = @signals, linked = @linked, decided_by = @by, decided_at = @now,
           note = @note, decision_basis = @basis, changed_since_decision = NULL, updated_at = @now
         WHERE workspace = @ws AND id = @id`,
        {
          id,
          status: decision.status,
          score: decision.score,
          signals: JSON.stringify(decision.signals),
          linked: restsOnLinks(decision.signals) ? 1 : 0,
          by: decision.by,
          note: decision.note,
          basis: JSON.stringify(decision.basis),
          now,
        },
      );
      const decided = this.get(id)!;
      this.recordEvent(id, decision.status, decision.by, decided, decision.note, now);
      return decided;
    });
  }

  history(id: string): RelationshipEvent[] {
    return this.sql
      .rows<EventRow>(
        // By time first: a history carried from a rebuilt store (restore) is older than the rows added here before it.
        'SELECT * FROM relationship_events WHERE workspace = @ws AND relationship_id = @id ORDER BY at, rowid',
        { id },
      )
      .map(toEvent);
  }

  /** The relationships of a forgotten item, and their history, keep every row and lose the quotes. */
  redactQuotesOf(itemId: string): void {
    const ids = this.sql
      .rows<{ id: string; signals: string }>(
        'SELECT id, signals FROM relationships WHERE workspace = @ws AND (from_item = @itemId OR to_item = @itemId)',
        { itemId },
      )
      .map((row) => {
        const signals = JSON.stringify(redactQuotes(JSON.parse(row.signals) as SignalView[]));
        this.sql.run('UPDATE relationships SET signals = @signals WHERE workspace = @ws AND id = @id', { id: row.id, signals });
        return row.id;
      });
    for (const event of this.sql.rows<{ rowid: number; signals: string }>(
      'SELECT rowid, signals FROM relationship_events WHERE workspace = @ws AND relationship_id IN (SELECT value FROM json_each(@ids))',
      { ids: JSON.stringify(ids) },
    )) {
      const signals = JSON.stringify(redactQuotes(JSON.parse(event.signals) as SignalView[]));
      this.sql.run('UPDATE relationship_events SET signals = @signals WHERE workspace = @ws AND rowid = @rowid', { rowid: event.rowid, signals });
    }
  }

  private recordEvent(
    id: string,
    kind: RelationshipEvent['kind'],
    actor: string,
    state: Pick<RelationshipProposal, 'type' | 'score' | 'scoreVersion' | 'signals'>,
    note: string | null,
    now: string,
  ): void {
    this.sql.run(
      `INSERT INTO relationship_events (workspace, relationship_id, at, kind, actor, type, score, score_version, signals, note)
       VALUES (@ws, @id, @now, @kind, @actor, @type, @score, @version, @signals, @note)`,
      { id, now, kind, actor, type: state.type, score: state.score, version: state.scoreVersion, signals: JSON.stringify(state.signals), note },
    );
  }
}
