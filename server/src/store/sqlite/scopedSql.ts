// Prepared statements bound to one workspace. Before a statement is prepared, every table it reads
// or writes is checked (statementScope.ts): each workspace table, on every side of every join and in
// every subquery, must be limited by `<table>.workspace = @ws` (or be this workspace's own index,
// or be keyed by a scoped row's seq), and an INSERT must bind @ws into the workspace column. A
// query that forgets the boundary fails when prepared instead of reading someone else's data.
// Statements about the store itself (schema, sequences) go through storeWideSql.ts instead.

import type Database from 'better-sqlite3';
import { StatementScope, type ScopeRules } from './statementScope.ts';
import { namingDamage } from '../storeErrors.ts';
import { workspaceTables as workspaceTablesOf } from './storeWideSql.ts';
import { PER_WORKSPACE_INDEX, statisticsTables, workspaceIndexNames } from './workspaceIndexNames.ts';

/** sqlite-vec tables: partitioned by workspace, and their rowid is the seq of a `vectors` row. */
const ROWID_KEYED = /^vec_f32_\d+$/;

/** What the statement guard knows about this store's tables, for one workspace. */
export function scopeRulesFor(db: Database.Database, workspace: string): ScopeRules {
  const own = workspaceIndexNames(workspace);
  return {
    workspaceTables: workspaceTablesOf(db),
    ownTables: new Set([own.items, own.chunks, own.titles, ...statisticsTables(own)]),
    isPerWorkspaceTable: (name) => PER_WORKSPACE_INDEX.test(name),
    isRowidKeyed: (name) => ROWID_KEYED.test(name),
  };
}

export class ScopedSql {
  private readonly statements = new Map<string, Database.Statement>();
  private rules: { schemaVersion: number; rules: ScopeRules } | null = null;

  constructor(
    readonly db: Database.Database,
    readonly workspace: string,
  ) {}

  private prepare(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      const rules = this.scopeRules();
      const problems = StatementScope.problems(text, rules);
      if (problems.length === 0 && StatementScope.tablesOf(text, rules).length === 0) {
        problems.push('it touches no workspace table (a statement about the store itself goes through storeWideSql.ts)');
      }
      if (problems.length > 0) throw new Error(`statement is not scoped to the workspace: ${problems.join('; ')}: ${text}`);
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Which tables hold workspace data, read from the schema again whenever it changed. */
  private scopeRules(): ScopeRules {
    const schemaVersion = this.db.pragma('schema_version', { simple: true }) as number;
    if (this.rules?.schemaVersion !== schemaVersion) this.rules = { schemaVersion, rules: scopeRulesFor(this.db, this.workspace) };
    return this.rules.rules;
  }

  row<T>(text: string, params: Record<string, unknown> = {}): T | undefined {
    return this.naming(() => this.prepare(text).get({ ...params, ws: this.workspace }) as T | undefined);
  }

  rows<T>(text: string, params: Record<string, unknown> = {}): T[] {
    return this.naming(() => this.prepare(text).all({ ...params, ws: this.workspace }) as T[]);
  }

  run(text: string, params: Record<string, unknown> = {}): Database.RunResult {
    return this.naming(() => this.prepare(text).run({ ...params, ws: this.workspace }));
  }

  /** Every statement of the store passes here, so a damaged page met by any of them names the file (storeErrors.ts). */
  private naming<T>(body: () => T): T {
    try {
      return body();
    } catch (error) {
      throw namingDamage(error, this.db.name);
    }
  }

  /** A write transaction that takes the lock at once, so concurrent writers queue instead of failing mid-way. */
  write<T>(body: () => T): T {
    return this.naming(() => this.db.transaction(body).immediate());
  }
}
