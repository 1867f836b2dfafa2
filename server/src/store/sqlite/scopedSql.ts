// Prepared statements bound to one workspace. Every statement must name the `@ws` parameter and
// gets the workspace filled in here, so a query that forgets the boundary fails when prepared
// instead of reading someone else's data. Table modules (relationships, discovery) share this.

import type Database from 'better-sqlite3';

export class ScopedSql {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    readonly db: Database.Database,
    readonly workspace: string,
  ) {}

  private prepare(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      if (!text.includes('@ws')) throw new Error(`statement is not scoped to a workspace: ${text}`);
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  row<T>(text: string, params: Record<string, unknown> = {}): T | undefined {
    return this.prepare(text).get({ ...params, ws: this.workspace }) as T | undefined;
  }

  rows<T>(text: string, params: Record<string, unknown> = {}): T[] {
    return this.prepare(text).all({ ...params, ws: this.workspace }) as T[];
  }

  run(text: string, params: Record<string, unknown> = {}): Database.RunResult {
    return this.prepare(text).run({ ...params, ws: this.workspace });
  }

  /** A write transaction that takes the lock at once, so concurrent writers queue instead of failing mid-way. */
  write<T>(body: () => T): T {
    return this.db.transaction(body).immediate();
  }
}
