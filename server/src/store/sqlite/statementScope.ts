// Reads a statement's table references and checks that each workspace table is confined to the
// statement's workspace: the guard ScopedSql applies before preparing anything. Checking that the
// text merely contains "@ws" let a join scope one side only, or a comment satisfy the check.
//
// A small tokenizer and a walk over parenthesised groups rather than a SQL parser library: the
// libraries tried (node-sql-parser 5.3) reject SQLite's upsert, FTS5 `MATCH` and sqlite-vec's
// `k =`, all of which the store uses. The walk only needs what decides scoping: the tables in each
// FROM, JOIN, UPDATE, INSERT and DELETE, the conjuncts of each WHERE and ON, and subqueries.

/** What the guard knows about the store's tables. */
export interface ScopeRules {
  /** Tables holding workspace data in a `workspace` column (lower case). */
  workspaceTables: ReadonlySet<string>;
  /** Tables that belong to this workspace alone by name (its FTS indexes, lower case). */
  ownTables: ReadonlySet<string>;
  /** Per-workspace tables of some workspace, this one's or another's (by name). */
  isPerWorkspaceTable(name: string): boolean;
  /**
   * Index tables whose rowid is the `seq` of a row of a workspace table (FTS, sqlite-vec): a rowid
   * taken from a scoped row, or from a scoped subquery, confines them as well as the column would.
   */
  isRowidKeyed(name: string): boolean;
}

type Token = { kind: 'word' | 'param' | 'string' | 'number' | 'symbol'; text: string };
type Node = Token | Group;
interface Group {
  kind: 'group';
  nodes: Node[];
}

const isGroup = (node: Node | undefined): node is Group => node?.kind === 'group';
const word = (node: Node | undefined): string | null => (node && node.kind === 'word' ? node.text.toLowerCase() : null);
const isWord = (node: Node | undefined, ...texts: string[]) => texts.includes(word(node) ?? '');
const isSymbol = (node: Node | undefined, text: string) => node?.kind === 'symbol' && node.text === text;

/** Comments vanish and literals become single tokens, so neither can pass for a scope. */
function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) i += 1;
    else if (sql.startsWith('--', i)) i = sql.indexOf('\n', i) === -1 ? sql.length : sql.indexOf('\n', i);
    else if (sql.startsWith('/*', i)) i = sql.indexOf('*/', i + 2) === -1 ? sql.length : sql.indexOf('*/', i + 2) + 2;
    else if (c === "'") {
      let end = i + 1;
      while (end < sql.length && !(sql[end] === "'" && sql[end + 1] !== "'")) end += sql[end] === "'" ? 2 : 1;
      tokens.push({ kind: 'string', text: sql.slice(i, end + 1) });
      i = end + 1;
    } else if (c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      const end = sql.indexOf(close, i + 1);
      tokens.push({ kind: 'word', text: sql.slice(i + 1, end === -1 ? sql.length : end) });
      i = end === -1 ? sql.length : end + 1;
    } else if ((c === '@' || c === ':' || c === '$') && /[\w]/.test(sql[i + 1] ?? '')) {
      const match = /^[@:$]\w+/.exec(sql.slice(i))![0];
      tokens.push({ kind: 'param', text: match });
      i += match.length;
    } else if (c === '?') {
      const match = /^\?\d*/.exec(sql.slice(i))![0];
      tokens.push({ kind: 'param', text: match });
      i += match.length;
    } else if (/\d/.test(c)) {
      const match = /^[\d.]+(?:e[+-]?\d+)?/i.exec(sql.slice(i))![0];
      tokens.push({ kind: 'number', text: match });
      i += match.length;
    } else if (/[\w\u0080-\uffff]/.test(c)) {
      const match = /^[\w\u0080-\uffff]+/.exec(sql.slice(i))![0];
      tokens.push({ kind: 'word', text: match });
      i += match.length;
    } else {
      const two = sql.slice(i, i + 2);
      const symbol = ['<=', '>=', '<>', '!=', '==', '||', '->'].includes(two) ? two : c;
      tokens.push({ kind: 'symbol', text: symbol });
      i += symbol.length;
    }
  }
  return tokens;
}

function group(tokens: Token[]): Group {
  const stack: Group[] = [{ kind: 'group', nodes: [] }];
  for (const token of tokens) {
    if (isSymbol(token, '(')) {
      const inner: Group = { kind: 'group', nodes: [] };
      stack[stack.length - 1]!.nodes.push(inner);
      stack.push(inner);
    } else if (isSymbol(token, ')')) {
      if (stack.length === 1) throw new Error('unbalanced parentheses');
      stack.pop();
    } else stack[stack.length - 1]!.nodes.push(token);
  }
  if (stack.length !== 1) throw new Error('unbalanced parentheses');
  return stack[0]!;
}

/** Splits at top-level tokens for which `at` is true; the separators are dropped. */
function split(nodes: Node[], at: (node: Node, index: number) => boolean): Node[][] {
  const parts: Node[][] = [[]];
  nodes.forEach((node, index) => (at(node, index) ? parts.push([]) : parts[parts.length - 1]!.push(node)));
  return parts;
}

interface TableReference {
  table: string;
  /** The name the statement calls it by: its alias, else the table name. */
  name: string;
}

const CLAUSE_ENDS = new Set(['where', 'group', 'having', 'window', 'order', 'limit', 'union', 'intersect', 'except', 'returning', 'on', 'using', 'set', 'values', 'do']);
const JOIN_WORDS = new Set(['join', 'left', 'right', 'full', 'inner', 'outer', 'cross', 'natural']);
/** `INDEXED BY name` and `NOT INDEXED` after a table reference. */
const INDEX_HINTS = new Set(['indexed', 'not']);

export class StatementScope {
  private readonly problems: string[] = [];

  private constructor(
    private readonly rules: ScopeRules,
    private readonly ctes = new Set<string>(),
  ) {}

  /** Why the statement is not confined to the workspace; empty when it is. */
  static problems(sql: string, rules: ScopeRules): string[] {
    const scope = new StatementScope(rules);
    try {
      scope.statement(group(tokenize(sql)).nodes);
    } catch (error) {
      scope.problems.push(`it could not be read (${(error as Error).message})`);
    }
    return [...new Set(scope.problems)];
  }

  /** The workspace tables a statement reads or writes, by name (for tests and messages). */
  static tablesOf(sql: string, rules: ScopeRules): string[] {
    const found = new Set<string>();
    const visit = (nodes: Node[]) => {
      nodes.forEach((node, index) => {
        if (isGroup(node)) visit(node.nodes);
        else if (isWord(nodes[index - 1], 'from', 'join', 'update', 'into') && word(node)) {
          const name = word(node)!;
          if (rules.workspaceTables.has(name) || rules.isPerWorkspaceTable(name)) found.add(name);
        }
      });
    };
    visit(group(tokenize(sql)).nodes);
    return [...found].sort();
  }

  private statement(nodes: Node[]): void {
    if (nodes.length === 0) return;
    let start = 0;
    if (isWord(nodes[0], 'with')) start = this.commonTables(nodes);
    const first = word(nodes[start]);
    const body = nodes.slice(start);
    if (first === 'select' || first === 'values') this.compound(body);
    else if (first === 'insert' || first === 'replace') this.insert(body);
    else if (first === 'update') this.update(body);
    else if (first === 'delete') this.delete(body);
    else throw new Error(`not a query or a change of rows: ${first ?? '(nothing)'}`);
  }

  /** `WITH a AS (…), b AS (…)`: the bodies are checked as queries and their names are not tables. Returns where the statement starts. */
  private commonTables(nodes: Node[]): number {
    let index = isWord(nodes[1], 'recursive') ? 2 : 1;
    for (;;) {
      const name = word(nodes[index]);
      if (!name) throw new Error('a WITH clause without a name');
      this.ctes.add(name);
      index += 1;
      if (isGroup(nodes[index])) index += 1; // column list
      if (!isWord(nodes[index], 'as')) throw new Error(`WITH ${name} without AS`);
      index += 1;
      if (isWord(nodes[index], 'not')) index += 1;
      if (isWord(nodes[index], 'materialized')) index += 1;
      const bodyGroup = nodes[index];
      if (!isGroup(bodyGroup)) throw new Error(`WITH ${name} AS without a query`);
      this.subquery(bodyGroup);
      index += 1;
      if (!isSymbol(nodes[index], ',')) return index;
      index += 1;
    }
  }

  /** A query inside this one: its own tables, its own conditions; names of the enclosing WITH are visible. */
  private subquery(inner: Group): void {
    const nested = new StatementScope(this.rules, new Set(this.ctes));
    nested.statement(inner.nodes);
    this.problems.push(...nested.problems);
  }

  /** Checks every group that is a query, anywhere in these nodes (scalar subqueries, IN, EXISTS). */
  private nestedQueries(nodes: Node[]): void {
    for (const node of nodes) {
      if (!isGroup(node)) continue;
      if (isWord(node.nodes[0], 'select', 'with', 'values')) this.subquery(node);
      else this.nestedQueries(node.nodes);
    }
  }

  private compound(nodes: Node[]): void {
    const cores = split(nodes, (node) => isWord(node, 'union', 'intersect', 'except'));
    for (const core of cores) {
      const body = isWord(core[0], 'all') ? core.slice(1) : core;
      if (isWord(body[0], 'values')) this.nestedQueries(body);
      else this.selectCore(body);
    }
  }

  private selectCore(nodes: Node[]): void {
    const from = nodes.findIndex((node) => isWord(node, 'from'));
    if (from === -1) {
      this.nestedQueries(nodes);
      return;
    }
    this.nestedQueries(nodes.slice(0, from));
    const { references, conditions, rest } = this.fromClause(nodes.slice(from + 1));
    const where = clause(rest, 'where');
    this.nestedQueries(rest);
    this.requireScoped(references, [...conditions, ...(where ? [where] : [])]);
  }

  /** The table references of a FROM clause and its ON conditions; `rest` is what follows it. */
  private fromClause(nodes: Node[]): { references: TableReference[]; conditions: Node[][]; rest: Node[] } {
    const references: TableReference[] = [];
    const conditions: Node[][] = [];
    let index = 0;
    while (index < nodes.length) {
      while (JOIN_WORDS.has(word(nodes[index]) ?? '')) index += 1;
      const source = nodes[index];
      index += 1;
      let table: string | null = null;
      if (isGroup(source)) this.subquery(source);
      else if (isGroup(nodes[index])) {
        this.nestedQueries([nodes[index]!]); // a table-valued function such as json_each(…)
        index += 1;
      } else table = word(source);
      if (isWord(nodes[index], 'as')) index += 1;
      let name = table;
      const alias = word(nodes[index]);
      if (alias && !CLAUSE_ENDS.has(alias) && !JOIN_WORDS.has(alias) && !INDEX_HINTS.has(alias) && nodes[index]?.kind === 'word') {
        name = alias;
        index += 1;
      }
      // An index hint names an index, not a table or an alias: the reference is still the table.
      if (isWord(nodes[index], 'indexed') && isWord(nodes[index + 1], 'by')) index += 3;
      else if (isWord(nodes[index], 'not') && isWord(nodes[index + 1], 'indexed')) index += 2;
      if (table && !this.ctes.has(table)) references.push({ table, name: name ?? table });
      if (isWord(nodes[index], 'on')) {
        const end = findIndexFrom(nodes, index + 1, (node) => isSymbol(node, ',') || JOIN_WORDS.has(word(node) ?? '') || CLAUSE_ENDS.has(word(node) ?? ''));
        conditions.push(nodes.slice(index + 1, end));
        this.nestedQueries(nodes.slice(index + 1, end));
        index = end;
      } else if (isWord(nodes[index], 'using')) {
        index += 2;
      }
      if (isSymbol(nodes[index], ',')) index += 1;
      else if (!JOIN_WORDS.has(word(nodes[index]) ?? '')) break;
    }
    return { references, conditions, rest: nodes.slice(index) };
  }

  private insert(nodes: Node[]): void {
    const into = nodes.findIndex((node) => isWord(node, 'into'));
    const table = word(nodes[into + 1]);
    if (into === -1 || !table) throw new Error('an INSERT without a table');
    let index = into + 2;
    if (isWord(nodes[index], 'as')) index += 2;
    const columns = isGroup(nodes[index]) ? columnNames(nodes[index] as Group) : null;
    if (columns) index += 1;
    const upsert = findIndexFrom(nodes, index, (node) => isWord(node, 'returning') || (isWord(node, 'on') && isWord(nodes[nodes.indexOf(node) + 1], 'conflict')));
    const source = nodes.slice(index, upsert);
    if (isWord(source[0], 'values')) this.nestedQueries(source);
    else this.statement(source);
    if (this.foreign(table)) return;
    if (this.rules.workspaceTables.has(table)) {
      const position = columns?.indexOf('workspace') ?? -1;
      if (position === -1) this.problems.push(`INSERT INTO ${table} does not set its workspace column`);
      else if (!insertedValues(source, position).every((value) => value.length === 1 && isWorkspaceParam(value[0]))) {
        this.problems.push(`INSERT INTO ${table} does not bind @ws into its workspace column`);
      }
      this.upsert(table, nodes.slice(upsert));
    }
  }

  /** `ON CONFLICT … DO UPDATE` changes a row found by the conflict target: it must be this workspace's. */
  private upsert(table: string, nodes: Node[]): void {
    const doIndex = nodes.findIndex((node) => isWord(node, 'do'));
    if (doIndex === -1 || isWord(nodes[doIndex + 1], 'nothing')) return;
    const conflict = nodes.findIndex((node) => isWord(node, 'conflict'));
    const target = isGroup(nodes[conflict + 1]) ? (nodes[conflict + 1] as Group) : undefined;
    const where = clause(nodes.slice(doIndex), 'where');
    this.nestedQueries(nodes.slice(doIndex));
    const targetScoped = target !== undefined && columnNames(target).includes('workspace');
    if (!targetScoped && !(where && conjuncts(where).some((c) => scopesColumn(c, null, table)))) {
      this.problems.push(`the upsert into ${table} can update a row of another workspace (its conflict target has no workspace)`);
    }
  }

  private update(nodes: Node[]): void {
    let index = 1;
    if (isWord(nodes[index], 'or')) index += 2;
    const table = word(nodes[index]);
    if (!table) throw new Error('an UPDATE without a table');
    index += 1;
    let name = table;
    if (isWord(nodes[index], 'as')) index += 1;
    if (!isWord(nodes[index], 'set')) {
      name = word(nodes[index]) ?? table;
      index += 1;
    }
    const rest = nodes.slice(index);
    this.nestedQueries(rest);
    const assignments = clauseUntil(rest, 'set', ['from', 'where', 'returning']);
    if (assignments && split(assignments, (node) => isSymbol(node, ',')).some((a) => isWord(a[0], 'workspace') && !isWorkspaceParam(a[2]))) {
      this.problems.push(`UPDATE ${table} moves rows to another workspace`);
    }
    const where = clause(rest, 'where');
    this.requireScoped([{ table, name }], where ? [where] : []);
  }

  private delete(nodes: Node[]): void {
    const table = word(nodes[2]);
    if (!isWord(nodes[1], 'from') || !table) throw new Error('a DELETE without FROM');
    let index = 3;
    if (isWord(nodes[index], 'as')) index += 1;
    let name = table;
    if (nodes[index]?.kind === 'word' && !isWord(nodes[index], 'where', 'returning', 'indexed', 'not')) {
      name = word(nodes[index])!;
      index += 1;
    }
    const rest = nodes.slice(index);
    this.nestedQueries(rest);
    const where = clause(rest, 'where');
    this.requireScoped([{ table, name }], where ? [where] : []);
  }

  /** A per-workspace table of another workspace: refused outright. */
  private foreign(table: string): boolean {
    if (!this.rules.isPerWorkspaceTable(table) || this.rules.ownTables.has(table)) return false;
    this.problems.push(`${table} belongs to another workspace`);
    return true;
  }

  private requireScoped(references: TableReference[], conditions: Node[][]): void {
    const terms = conditions.flatMap(conjuncts);
    const workspaceRefs = references.filter((ref) => this.rules.workspaceTables.has(ref.table));
    const single = workspaceRefs.length === 1;
    const scoped = new Set<string>();
    for (const ref of workspaceRefs) {
      if (terms.some((term) => scopesColumn(term, single ? null : ref.name, ref.name))) scoped.add(ref.name);
    }
    for (const ref of references) {
      if (this.foreign(ref.table) || this.rules.ownTables.has(ref.table)) continue;
      if (!this.rules.workspaceTables.has(ref.table) || scoped.has(ref.name)) continue;
      const keyed =
        this.rules.isRowidKeyed(ref.table) &&
        terms.some((term) => rowidFromScopedRow(term, ref.name, scoped, single || workspaceRefs.length === 0));
      if (!keyed) this.problems.push(`${ref.table}${ref.name === ref.table ? '' : ` (as ${ref.name})`} is not limited to the workspace (no ${ref.name}.workspace = @ws)`);
    }
  }
}

function findIndexFrom(nodes: Node[], from: number, test: (node: Node) => boolean): number {
  for (let index = from; index < nodes.length; index += 1) if (test(nodes[index]!)) return index;
  return nodes.length;
}

/** The nodes of a clause that starts with `keyword` at this level and ends at the next clause. */
function clause(nodes: Node[], keyword: string): Node[] | null {
  return clauseUntil(nodes, keyword, ['group', 'having', 'window', 'order', 'limit', 'returning', 'union', 'intersect', 'except']);
}

function clauseUntil(nodes: Node[], keyword: string, ends: string[]): Node[] | null {
  const start = nodes.findIndex((node) => isWord(node, keyword));
  if (start === -1) return null;
  return nodes.slice(start + 1, findIndexFrom(nodes, start + 1, (node) => ends.includes(word(node) ?? '')));
}

function columnNames(columns: Group): string[] {
  return split(columns.nodes, (node) => isSymbol(node, ',')).map((column) => word(column[column.length - 1]) ?? '');
}

/** The value given to one column by each row of VALUES, or by the SELECT's result columns. */
function insertedValues(source: Node[], position: number): Node[][] {
  if (isWord(source[0], 'values')) {
    return source.filter(isGroup).map((row) => split(row.nodes, (node) => isSymbol(node, ','))[position] ?? []);
  }
  const select = source.findIndex((node) => isWord(node, 'select'));
  const from = findIndexFrom(source, select + 1, (node) => isWord(node, 'from'));
  const columns = split(source.slice(select + 1, from), (node) => isSymbol(node, ','));
  const value = columns[position] ?? [];
  return [isWord(value[value.length - 2], 'as') ? value.slice(0, -2) : value];
}

/**
 * The terms ANDed together at the top of a condition (and inside parentheses that only group
 * ANDs). With an OR at the top, no term holds on its own, so there are none. The AND of a
 * BETWEEN, and anything inside CASE … END, belong to a value rather than to the condition.
 */
function conjuncts(condition: Node[]): Node[][] {
  const parts: Node[][] = [[]];
  let caseDepth = 0;
  let openBetweens = 0;
  for (const node of condition) {
    if (isWord(node, 'case')) caseDepth += 1;
    else if (isWord(node, 'end')) caseDepth -= 1;
    else if (caseDepth === 0 && isWord(node, 'or')) return [];
    else if (caseDepth === 0 && isWord(node, 'between')) openBetweens += 1;
    else if (caseDepth === 0 && isWord(node, 'and')) {
      if (openBetweens === 0) {
        parts.push([]);
        continue;
      }
      openBetweens -= 1;
    }
    parts[parts.length - 1]!.push(node);
  }
  return parts.flatMap((part) => (part.length === 1 && isGroup(part[0]) ? conjuncts(part[0].nodes) : [part]));
}

const isWorkspaceParam = (node: Node | undefined) => node?.kind === 'param' && node.text === '@ws';

/** `[+][name.]workspace = @ws` (either way round); an unqualified column counts when `qualifier` is null or it is the only table. */
function scopesColumn(term: Node[], qualifier: string | null, name: string): boolean {
  const sides = split(term, (node) => isSymbol(node, '=') || isSymbol(node, '=='));
  if (sides.length !== 2) return false;
  const [left, right] = sides as [Node[], Node[]];
  const [column, value] = isWorkspaceParam(right[0]) && right.length === 1 ? [left, right] : [right, left];
  if (!(value.length === 1 && isWorkspaceParam(value[0]))) return false;
  const bare = isSymbol(column[0], '+') ? column.slice(1) : column;
  if (bare.length === 1) return isWord(bare[0], 'workspace') && qualifier === null;
  return bare.length === 3 && word(bare[0]) === name && isSymbol(bare[1], '.') && isWord(bare[2], 'workspace');
}

/** `name.rowid = other.seq` with `other` scoped, or `rowid = (SELECT …)` / `rowid IN (SELECT …)` (the subquery is checked itself). */
function rowidFromScopedRow(term: Node[], name: string, scoped: ReadonlySet<string>, unqualifiedOk: boolean): boolean {
  const isRowid = (side: Node[]) =>
    (side.length === 1 && unqualifiedOk && isWord(side[0], 'rowid')) ||
    (side.length === 3 && word(side[0]) === name && isSymbol(side[1], '.') && isWord(side[2], 'rowid'));
  const isScopedSeq = (side: Node[]) =>
    (side.length === 3 && scoped.has(word(side[0]) ?? '') && isSymbol(side[1], '.') && isWord(side[2], 'seq')) ||
    (side.length === 1 && isGroup(side[0]) && isWord(side[0].nodes[0], 'select'));
  const inAt = term.findIndex((node) => isWord(node, 'in'));
  if (inAt > 0) return isRowid(term.slice(0, inAt)) && isScopedSeq(term.slice(inAt + 1));
  const sides = split(term, (node) => isSymbol(node, '=') || isSymbol(node, '=='));
  if (sides.length !== 2) return false;
  const [left, right] = sides as [Node[], Node[]];
  return (isRowid(left) && isScopedSeq(right)) || (isRowid(right) && isScopedSeq(left));
}
