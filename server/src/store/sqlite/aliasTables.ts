// Entity aliases in SQLite: candidate pairs of entity keys, each pending until a person decides.
// A pair is stored once (keys in sorted order) and a decision is never undone by a new proposal.

import { createHash } from 'node:crypto';
import type { EntityAliasView, RelationshipStatus } from '../../../../shared/types.ts';
import type { AliasCandidate } from '../contract.ts';
import type { ScopedSql } from './scopedSql.ts';

/** An entity_aliases row: the view's fields as they are, its two sides flat. */
export interface AliasRow extends Pick<EntityAliasView, 'id' | 'reason' | 'status' | 'created_at' | 'decided_by' | 'decided_at' | 'note'> {
  key_a: string;
  key_b: string;
  surface_a: string;
  surface_b: string;
}

export const toView = (row: AliasRow): EntityAliasView => ({
  id: row.id,
  a: { key: row.key_a, surface: row.surface_a },
  b: { key: row.key_b, surface: row.surface_b },
  reason: row.reason,
  status: row.status,
  created_at: row.created_at,
  decided_by: row.decided_by,
  decided_at: row.decided_at,
  note: row.note,
});

export class AliasTables {
  constructor(private readonly sql: ScopedSql) {}

  propose(candidates: readonly AliasCandidate[], now: string): number {
    return this.sql.write(() => {
      let added = 0;
      for (const candidate of candidates) {
        const [a, b] =
          candidate.keyA < candidate.keyB
            ? [{ key: candidate.keyA, surface: candidate.surfaceA }, { key: candidate.keyB, surface: candidate.surfaceB }]
            : [{ key: candidate.keyB, surface: candidate.surfaceB }, { key: candidate.keyA, surface: candidate.surfaceA }];
        const id = `alias_${createHash('sha256').update(`${this.sql.workspace}\n${a.key}\n${b.key}`).digest('hex').slice(0, 16)}`;
        added += this.sql.run(
          `INSERT INTO entity_aliases (workspace, id, key_a, key_b, surface_a, surface_b, reason, status, created_at)
           VALUES (@ws, @id, @keyA, @keyB, @surfaceA, @surfaceB, @reason, 'pending', @now)
           ON CONFLICT (workspace, key_a, key_b) DO NOTHING`,
          { id, keyA: a.key, keyB: b.key, surfaceA: a.surface, surfaceB: b.surface, reason: candidate.reason, now },
        ).changes;
      }
      return added;
    });
  }

  /** A decided alias carried from another store (`relata index --rebuild`): the decision wins over a pending proposal of the same pair. */
  restore(alias: EntityAliasView): void {
    const [a, b] = alias.a.key < alias.b.key ? [alias.a, alias.b] : [alias.b, alias.a];
    const id = `alias_${createHash('sha256').update(`${this.sql.workspace}\n${a.key}\n${b.key}`).digest('hex').slice(0, 16)}`;
    this.sql.run(
      `${INSERT_ALIAS}
       ON CONFLICT (workspace, key_a, key_b) DO UPDATE SET status = excluded.status, decided_by = excluded.decided_by,
         decided_at = excluded.decided_at, note = excluded.note`,
      aliasParams(alias, id, a, b),
    );
  }

  list(status: RelationshipStatus | undefined): EntityAliasView[] {
    return this.sql
      .rows<AliasRow>('SELECT * FROM entity_aliases WHERE workspace = @ws AND (@status IS NULL OR status = @status) ORDER BY key_a, key_b', {
        status: status ?? null,
      })
      .map(toView);
  }

  decide(id: string, decision: { status: 'confirmed' | 'rejected'; by: string; note: string | null }, now: string): EntityAliasView {
    const changed = this.sql.run(
      `UPDATE entity_aliases SET status = @status, decided_by = @by, decided_at = @now, note = @note WHERE workspace = @ws AND id = @id`,
      { id, status: decision.status, by: decision.by, note: decision.note, now },
    ).changes;
    if (changed === 0) throw new Error(`no alias ${id} in this workspace`);
    return toView(this.sql.row<AliasRow>('SELECT * FROM entity_aliases WHERE workspace = @ws AND id = @id', { id })!);
  }

  /**
   * After a document is forgotten, pending aliases naming an entity no remaining item mentions
   * would be the last place its names survive. A decided alias stays: it is a person's decision.
   */
  dropUnmentioned(): void {
    this.sql.run(
      `DELETE FROM entity_aliases WHERE workspace = @ws AND status = 'pending'
         AND (NOT EXISTS (SELECT 1 FROM entities a WHERE a.workspace = @ws AND a.key = entity_aliases.key_a)
           OR NOT EXISTS (SELECT 1 FROM entities b WHERE b.workspace = @ws AND b.key = entity_aliases.key_b))`,
    );
  }

  confirmed(keys: readonly string[]): Map<string, { key: string; surface: string }[]> {
    const aliases = new Map<string, { key: string; surface: string }[]>();
    if (keys.length === 0) return aliases;
    const add = (key: string, alias: { key: string; surface: string }) => aliases.set(key, [...(aliases.get(key) ?? []), alias]);
    for (const row of this.sql.rows<AliasRow>(
      `SELECT * FROM entity_aliases WHERE workspace = @ws AND status = 'confirmed'
         AND (key_a IN (SELECT value FROM json_each(@keys)) OR key_b IN (SELECT value FROM json_each(@keys)))`,
      { keys: JSON.stringify(keys) },
    )) {
      if (keys.includes(row.key_a)) add(row.key_a, { key: row.key_b, surface: row.surface_b });
      if (keys.includes(row.key_b)) add(row.key_b, { key: row.key_a, surface: row.surface_a });
    }
    return aliases;
  }
}

/** An alias row with every column, as a restored decision (`restore`) and an import (exchange.ts) write it. */
export const INSERT_ALIAS = `INSERT INTO entity_aliases (workspace, id, key_a, key_b, surface_a, surface_b, reason, status, created_at, decided_by, decided_at, note)
       VALUES (@ws, @id, @keyA, @keyB, @surfaceA, @surfaceB, @reason, @status, @createdAt, @decidedBy, @decidedAt, @note)`;

/** INSERT_ALIAS's parameters: the alias's pair as `a` and `b` under `id`. */
export function aliasParams(alias: EntityAliasView, id: string, a: EntityAliasView['a'], b: EntityAliasView['b']): Record<string, unknown> {
  return {
    id,
    keyA: a.key,
    keyB: b.key,
    surfaceA: a.surface,
    surfaceB: b.surface,
    reason: alias.reason,
    status: alias.status,
    createdAt: alias.created_at,
    decidedBy: alias.decided_by,
    decidedAt: alias.decided_at,
    note: alias.note,
  };
}
