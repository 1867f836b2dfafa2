// `relata check`: whether the store's file and its blobs can still be trusted, and if not, what is
// damaged and what to do. Three checks, each independent of the others' success where possible:
// SQLite's own (integrity_check, or the O(N) quick_check), every referenced blob exists and hashes
// to its name, and every sqlite-vec table can be scanned and searched and holds the vectors that
// `vectors` says it holds.
//
// It opens its own read-only connection (readConnection.ts) and never migrates or writes, so checking cannot make the
// damage worse. The file, the blobs and the vector tables are shared by every workspace of the
// data directory, so the checks span them; what is reported about another workspace is a count,
// never a path.

import type Database from 'better-sqlite3';
import { openToRead } from './readConnection.ts';
import * as sqliteVec from 'sqlite-vec';
import path from 'node:path';
import { FileBlobStore, type BlobStore } from '../blobs.ts';
import { DAMAGE_REMEDY, isDamageError } from '../storeErrors.ts';
import { describeRebuildLeftovers } from './rebuildFiles.ts';

export type ProblemKind = 'unreadable' | 'integrity' | 'blob_missing' | 'blob_mismatch' | 'vectors' | 'rebuild';

export interface StoreProblem {
  kind: ProblemKind;
  /** What is damaged: a table or index (with its page when known), a blob's path, a vector table. */
  where: string;
  message: string;
  /** The items (folder-relative paths, this workspace only) whose bytes the problem concerns. */
  items?: string[];
  /** Items of other workspaces of this data directory that refer to the same bytes. */
  otherWorkspaceItems?: number;
  remedy: string;
}

export interface StoreCheckReport {
  file: string;
  workspace: string;
  /** The folder this workspace indexes, when the store can still say. */
  folder: string | null;
  check: 'integrity_check' | 'quick_check';
  healthy: boolean;
  problems: StoreProblem[];
  checked: { blobs: number; vector_tables: number; vectors: number };
  elapsed_ms: number;
}

export interface StoreCheckOptions {
  dataDir: string;
  workspace: string;
  /** quick_check instead of integrity_check: O(N), skips index-content and UNIQUE checks. */
  quick?: boolean;
  /** Verify blobs (read and hash every referenced file); on by default. */
  blobs?: boolean;
  /** Scan and search the vector tables; on by default. */
  vectors?: boolean;
}

/** SQLite stops reporting after this many problems; enough to say what is damaged. */
const MAX_INTEGRITY_ERRORS = 100;

export async function checkStore(options: StoreCheckOptions): Promise<StoreCheckReport> {
  const started = performance.now();
  const file = path.join(options.dataDir, 'relata.sqlite');
  const check = options.quick ? 'quick_check' : 'integrity_check';
  let folder: string | null = null;
  let rebuild = rebuildCommand(null, options.dataDir);
  const problems: StoreProblem[] = [];
  const checked = { blobs: 0, vector_tables: 0, vectors: 0 };
  const report = (): StoreCheckReport => ({
    file,
    workspace: options.workspace,
    folder,
    check,
    healthy: problems.length === 0,
    problems,
    checked,
    elapsed_ms: Math.round(performance.now() - started),
  });

  let db: Database.Database;
  try {
    db = openToRead(file);
    sqliteVec.load(db);
  } catch (error) {
    problems.push(...leftoverProblems(options.dataDir, rebuild), unreadable(error, rebuild));
    return report();
  }
  try {
    folder = (db.prepare(`SELECT value FROM meta WHERE workspace = ? AND key = 'folder_root'`).pluck().get(options.workspace) as string | undefined) ?? null;
    rebuild = rebuildCommand(folder, options.dataDir);
  } catch {
    // A damaged meta page: the integrity check below says where; the remedy names <folder>.
  }
  problems.push(...leftoverProblems(options.dataDir, rebuild));
  try {
    problems.push(...integrityProblems(db, check, rebuild));
    // The schema itself is unreadable: nothing else can be looked up.
    if (problems.some((problem) => problem.kind === 'unreadable')) return report();
    if (options.blobs !== false) {
      const blobs = await blobProblems(db, new FileBlobStore(path.join(options.dataDir, 'blobs')), options.workspace, rebuild.replace(/ --rebuild\b/, ''));
      checked.blobs = blobs.checked;
      problems.push(...blobs.problems);
    }
    if (options.vectors !== false) {
      const vectors = vectorProblems(db, rebuild);
      checked.vector_tables = vectors.tables;
      checked.vectors = vectors.vectors;
      problems.push(...vectors.problems);
    }
    return report();
  } finally {
    db.close();
  }
}

/** An interrupted rebuild's files beside the store (rebuildFiles.ts): the store was not replaced, and a plain index run settles them. */
function leftoverProblems(dataDir: string, rebuild: string): StoreProblem[] {
  return describeRebuildLeftovers(dataDir).map((leftover) => ({
    kind: 'rebuild' as const,
    where: leftover.file,
    message: leftover.message,
    remedy: `\`${rebuild.replace(/ --rebuild\b/, '')}\` settles what an interrupted rebuild left; add --rebuild to rebuild again`,
  }));
}

function rebuildCommand(folder: string | null, dataDir: string): string {
  return `relata index ${folder ?? '<folder>'} --rebuild --data ${dataDir}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function unreadable(error: unknown, rebuild: string): StoreProblem {
  return {
    kind: 'unreadable',
    where: 'the database file',
    message: messageOf(error),
    remedy: isDamageError(error)
      ? `SQLite cannot read the file's header or schema. Rebuild it from the folder: \`${rebuild}\` (what can still be read of decisions and history is kept)`
      : 'the file could not be opened; see the message',
  };
}

// SQLite's integrity report ------------------------------------------------------

function integrityProblems(db: Database.Database, check: string, rebuild: string): StoreProblem[] {
  const lines: string[] = [];
  let failure: unknown = null;
  try {
    // Row by row: on some damage SQLite reports what it found, then fails a later step.
    for (const line of db.prepare(`PRAGMA ${check}(${MAX_INTEGRITY_ERRORS})`).pluck().iterate() as Iterable<string>) {
      lines.push(...line.split('\n').filter((part) => !/^\*\*\* in database \w+ \*\*\*$/.test(part)));
    }
  } catch (error) {
    failure = error;
  }
  if (failure && lines.length === 0) return [unreadable(failure, rebuild)];
  if (!failure && lines.length === 1 && lines[0] === 'ok') return [];
  const names = pageOwners(db);
  const remedy = `the file's pages are damaged; rebuild the store from the folder: \`${rebuild}\` (decisions and history are kept as far as they can be read)`;
  const problems = lines.map((line) => ({ kind: 'integrity' as const, where: whereOf(line, names), message: line, remedy }));
  if (failure) problems.push({ kind: 'integrity', where: 'the database file', message: `${check} stopped: ${messageOf(failure)}`, remedy });
  return problems;
}

interface PageOwners {
  byRoot: Map<number, string>;
  ofPage(page: number): string | null;
}

/** Which table or index a page number in SQLite's report belongs to, as far as the damaged file still says. */
function pageOwners(db: Database.Database): PageOwners {
  const byRoot = new Map<number, string>();
  try {
    for (const row of db.prepare('SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0').all() as { name: string; rootpage: number }[]) {
      byRoot.set(row.rootpage, row.name);
    }
  } catch {
    // The schema page itself is damaged; the report then speaks in page numbers only.
  }
  let dbstat: Database.Statement | null = null;
  try {
    dbstat = db.prepare('SELECT name FROM dbstat WHERE pageno = ?').pluck();
  } catch {
    dbstat = null;
  }
  return {
    byRoot,
    ofPage(page) {
      try {
        return (dbstat?.get(page) as string | undefined) ?? null;
      } catch {
        // dbstat walks the b-trees, and the damage may be on its way.
        return null;
      }
    },
  };
}

function whereOf(line: string, owners: PageOwners): string {
  const index = /(?:missing from|in) index (\S+)/.exec(line)?.[1];
  if (index) return `index ${index}`;
  const tree = /Tree (\d+)/.exec(line);
  const page = /page (\d+)/i.exec(line);
  const owner = (tree && owners.byRoot.get(Number(tree[1]))) ?? (page ? owners.ofPage(Number(page[1])) : null);
  if (owner) return `${owner}${page ? ` (page ${page[1]})` : ''}`;
  if (page) return `page ${page[1]}`;
  return 'the database file';
}

// Blobs --------------------------------------------------------------------------

/**
 * Every content hash an item or version refers to, with the workspace that refers to it. This
 * reads across workspaces because blobs are shared by all of them (as blob reference counts do,
 * storeWideSql.ts); only this workspace's paths are reported.
 */
const REFERENCED_BLOBS = `
  SELECT content_hash AS hash, workspace, path, version FROM items
   WHERE content_hash IS NOT NULL AND forgotten_at IS NULL
  UNION
  SELECT v.content_hash, v.workspace, i.path, v.version FROM item_versions v JOIN items i ON i.id = v.item_id
   WHERE i.forgotten_at IS NULL`;

async function blobProblems(
  db: Database.Database,
  blobs: BlobStore,
  workspace: string,
  /** `relata index <folder> --data DIR`, which stores a file's bytes again. */
  reindex: string,
): Promise<{ checked: number; problems: StoreProblem[] }> {
  let rows: { hash: string; workspace: string; path: string; version: number }[];
  try {
    rows = db.prepare(REFERENCED_BLOBS).all() as typeof rows;
  } catch (error) {
    return {
      checked: 0,
      problems: [{ kind: 'integrity', where: 'items', message: `the items cannot be read to find their blobs: ${messageOf(error)}`, remedy: `\`${reindex} --rebuild\`` }],
    };
  }
  const byHash = new Map<string, { mine: Set<string>; others: number }>();
  for (const row of rows) {
    if (!/^[0-9a-f]{64}$/.test(row.hash)) continue;
    const entry = byHash.get(row.hash) ?? { mine: new Set<string>(), others: 0 };
    if (row.workspace === workspace) entry.mine.add(row.path);
    else entry.others += 1;
    byHash.set(row.hash, entry);
  }
  const problems: StoreProblem[] = [];
  for (const [hash, refs] of byHash) {
    const state = await blobs.verify(hash);
    if (state === 'ok') continue;
    const where = path.join('blobs', hash.slice(0, 2), hash);
    const items = [...refs.mine].sort();
    problems.push({
      kind: state === 'missing' ? 'blob_missing' : 'blob_mismatch',
      where,
      message:
        state === 'missing'
          ? `the original bytes ${hash.slice(0, 12)}… are missing`
          : `the file's bytes no longer hash to its name ${hash.slice(0, 12)}… (they were changed or damaged)`,
      items,
      ...(refs.others > 0 ? { otherWorkspaceItems: refs.others } : {}),
      remedy:
        (state === 'mismatch' ? `delete ${where}, then ` : '') +
        `run \`${reindex}\`: a file in the folder that still has these bytes stores them again; ` +
        `an earlier version whose file has changed since cannot be restored from the folder`,
    });
  }
  return { checked: byHash.size, problems };
}

// Vector tables --------------------------------------------------------------------

function vectorProblems(db: Database.Database, rebuild: string): { tables: number; vectors: number; problems: StoreProblem[] } {
  const problems: StoreProblem[] = [];
  let tables: { name: string; dims: number }[];
  try {
    tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'vec_f32_[0-9]*' AND sql LIKE '%USING vec0%'`).pluck().all() as string[])
      .map((name) => ({ name, dims: Number(name.slice('vec_f32_'.length)) }));
  } catch (error) {
    return { tables: 0, vectors: 0, problems: [{ kind: 'vectors', where: 'sqlite_master', message: messageOf(error), remedy: `\`${rebuild}\`` }] };
  }
  const remedy = `the vector table is damaged; rebuild the store from the folder: \`${rebuild}\` (search answers from its other paths meanwhile)`;
  let vectors = 0;
  for (const { name, dims } of tables) {
    try {
      const partitions = new Map<string, Buffer>();
      for (const row of db.prepare(`SELECT rowid, workspace, embedding FROM ${name}`).iterate() as Iterable<{ rowid: number; workspace: string; embedding: Buffer }>) {
        vectors += 1;
        if (row.embedding.length !== dims * 4) {
          throw new Error(`vector ${row.rowid} has ${row.embedding.length} bytes, not ${dims * 4}`);
        }
        // Every embedder stores unit vectors (embed/types.ts), so bytes overwritten in place show as a wrong length.
        const norm = euclideanNorm(row.embedding);
        if (!(Math.abs(norm - 1) <= UNIT_TOLERANCE)) throw new Error(`vector ${row.rowid} is not a unit vector (length ${norm}): its bytes are damaged`);
        if (!partitions.has(row.workspace)) partitions.set(row.workspace, row.embedding);
      }
      // The search path reads the chunks differently from a scan: one nearest-neighbour query per workspace.
      for (const [workspace, query] of partitions) {
        db.prepare(`SELECT rowid FROM ${name} WHERE embedding MATCH ? AND k = 1 AND workspace = ?`).all(query, workspace);
      }
      const missing = db
        .prepare(`SELECT COUNT(*) FROM vectors v WHERE v.dims = ? AND NOT EXISTS (SELECT 1 FROM ${name} e WHERE e.rowid = v.seq)`)
        .pluck()
        .get(dims) as number;
      if (missing > 0) throw new Error(`${missing} of the vectors recorded in \`vectors\` have no row in ${name}`);
    } catch (error) {
      problems.push({ kind: 'vectors', where: name, message: messageOf(error), remedy });
    }
  }
  return { tables: tables.length, vectors, problems };
}

/** float32 rounding leaves a stored unit vector within ~1e-6 of length 1; damage lands far outside this. */
const UNIT_TOLERANCE = 1e-3;

function euclideanNorm(bytes: Buffer): number {
  // A Buffer may start at any offset of its pool; a Float32Array needs 4-byte alignment.
  const values = bytes.byteOffset % 4 === 0 ? new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) : new Float32Array(new Uint8Array(bytes).buffer);
  let sum = 0;
  for (const value of values) sum += value * value;
  return Math.sqrt(sum);
}

/** The report in one sentence for a status line, in the words of a StoreDamagedError; null when healthy. */
export function damageSummary(report: StoreCheckReport): string | null {
  const [first, ...rest] = report.problems;
  if (!first) return null;
  const more = rest.length > 0 ? ` and ${rest.length} more problem${rest.length === 1 ? '' : 's'}` : '';
  return `${report.file}: the store is damaged (${first.where}: ${first.message}${more}). ${DAMAGE_REMEDY}`;
}
