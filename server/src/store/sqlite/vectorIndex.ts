// Approximate nearest-neighbour search over one workspace's vectors, one HNSW graph (hnswlib-node)
// per model. sqlite-vec's search is exact and linear in the workspace (~90 ms at 100k windows);
// search and relationship discovery need look-ups whose cost stays flat as the folder grows.
//
// SQLite stays the source of truth; a graph is a cache derived from it and can always be rebuilt.
// Several processes (the CLI indexer, the language server) may write the same store, so each keeps
// its graph current by reading what changed since the sequences it covers: rows of `vectors` with a
// larger seq (AUTOINCREMENT, so later rows always have larger ones) and rows of `vector_removals`
// (filled by a trigger, migration 6). A graph is saved under the data directory with those two
// sequences, and checked against a checksum and the database's identity when loaded again.
// Every candidate is looked up in `vectors` (bound to the workspace) and re-scored with a float64
// cosine of its stored vector, so a hit is live, in this workspace, and carries the same similarity
// whichever path found it.

import hnswlib, { type HierarchicalNSW } from 'hnswlib-node';
import { FITTED, project, ProjectionFit, readProjection, saveProjection, type GraphProjection, type SavedProjection } from './graphProjection.ts';
import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, closeSync, createReadStream, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { VectorHit } from '../contract.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../privateFiles.ts';
import type { ScopedSql } from './scopedSql.ts';
import { storeStatement } from './storeWideSql.ts';

/** The design's constants: measured in docs/PERFORMANCE.md ("Approximate vector search"). */
export const VECTOR_INDEX_SETTINGS = {
  /** Below this many vectors of a model, search stays exact: a few milliseconds, no graph to build. */
  exactBelow: 5_000,
  /** Graph links per node (hnswlib's M). */
  m: 16,
  /**
   * Principal components a model's windows are placed by in the graph when it has more dimensions
   * (graphProjection.ts): 660 bytes a window rather than 2,196 at 512 dimensions. 0 keeps them all.
   */
  graphDims: 128,
  /** Candidate list while inserting: higher builds slower and finds better links. */
  efConstruction: 200,
  /** Candidates the graph search keeps per query (hnswlib's ef): recall against query time. */
  efSearch: 160,
  /**
   * Candidates past the k-th that are re-scored with the exact cosine. The graph ranks by float32
   * cosine, which differs from the exact value by up to ~5e-7 (measured at 512 dimensions), so only
   * near-ties at the boundary can change places; re-scoring every candidate would cost ~1 µs each
   * (~20 µs while a loaded graph's vectors are still read from sqlite-vec) for nothing.
   */
  rescoreBeyondK: 16,
  /**
   * Most new vectors a query adds to the graph before answering. Each costs about a millisecond
   * (more on a loaded machine), and while a folder is being embedded every query finds new ones:
   * adding 256 inline was most of a search thread's time during indexing (docs/PERFORMANCE.md).
   */
  inlineCatchUp: 32,
  /**
   * Beyond those, the graph catches up in the background and the query that found them compares up
   * to this many newer vectors exactly, beside the graph's candidates; with more still, and for
   * queries while the catch-up runs, the whole search is exact.
   */
  exactTail: 2_048,
  /** Longest stretch a background catch-up holds the event loop. */
  sliceMs: 20,
  /**
   * A catch-up that ends saves its graph once this many windows, and a quarter of the graph, were
   * added or removed since it was last saved: a save writes the whole graph (1.7 GB at 770,000
   * windows), worth it after a build, not after every few notes while another process indexes.
   */
  saveAfter: 5_000,
  /**
   * ... and never leaves more than this many unsaved, whatever the graph's size: a process killed
   * before it closes (an editor waits two seconds for its language server) leaves a restart that
   * much to insert again: 142,545 windows of a graph of 912,229 took 5.5 minutes
   * (docs/PERFORMANCE.md).
   */
  saveAfterAtMost: 100_000,
  /**
   * Longest stretch the background read of a loaded graph's stored vectors holds the event loop.
   * Searches run between its slices, and each search yields once (retrieveDirect), so a search
   * made while the vectors are read (~1 s at 100k windows) carries about one slice: at 20 ms that
   * was the benchmark's p95 (docs/PERFORMANCE.md, "Search", issue 32).
   */
  holdSliceMs: 5,
} as const;

export type VectorIndexSettings = { -readonly [K in keyof typeof VECTOR_INDEX_SETTINGS]: number };

/**
 * Insertions between two looks at a catch-up slice's clock: at 110,000 windows one costs ~0.5 ms
 * (more on a loaded machine), so 64 held a slice at 30-150 ms against its 20.
 */
const CATCH_UP_BATCH = 8;
/** Bump when the saved file's meaning changes; an older file is then rebuilt. */
const FORMAT = 2;
/** hnswlib-node takes labels as unsigned 32-bit integers. */
const MAX_LABEL = 0xffff_ffff;
const RANDOM_SEED = 100;

export interface VectorModel {
  id: string;
  dims: number;
  /** The sqlite-vec table holding this model's vectors. */
  table: string;
}

interface Manifest {
  format: number;
  workspace: string;
  modelId: string;
  dims: number;
  m: number;
  efConstruction: number;
  /** vector_indexes.generation of the database the graph was built from. */
  generation: string;
  /** Every vector row with a seq up to this one is in the graph, unless it was removed. */
  vectorSeq: number;
  /** Every removal up to this one has been applied. */
  removalSeq: number;
  file: string;
  bytes: number;
  sha256: string;
  /** The components the graph's points are on; null when it holds the vectors' every dimension. */
  projection: SavedProjection | null;
}

interface ModelGraph {
  model: VectorModel;
  graph: HierarchicalNSW;
  /** What a vector's point in the graph is: its components on these (graphProjection.ts), or the vector itself when null. */
  projection: GraphProjection | null;
  /** The stored vectors of the windows in the graph, for re-scoring; null where they are read from sqlite-vec (holdVectors). */
  vectors: VectorSlots | null;
  /** vector_indexes.generation when the graph was built or loaded (undefined: none was recorded yet). */
  generation: string | undefined;
  vectorSeq: number;
  removalSeq: number;
  unsaved: number;
  catchingUp: Promise<void> | null;
  /** Written to its file off the thread (saveOffThread): nothing may change it meanwhile. */
  saving: boolean;
}

interface CandidateRow {
  seq: number;
  chunk_id: string;
  item_id: string;
  window: number;
  /** The window's vector: `vector[offset]` to `vector[offset + dims - 1]`. */
  vector: Float32Array;
  offset: number;
}

const toFloats = (bytes: Buffer) => new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
/** A saved graph that may be read: its manifest, its file and the projection its points are on. */
interface SavedGraph {
  manifest: Manifest;
  file: string;
  projection: GraphProjection | null;
}

function newGraph(model: VectorModel, projection: GraphProjection | null): HierarchicalNSW {
  // Points on components are compared by distance: centred, they are not unit vectors any more,
  // and within the kept components the nearest unit vectors are the most alike.
  return projection ? new hnswlib.HierarchicalNSW('l2', projection.dims) : new hnswlib.HierarchicalNSW('cosine', model.dims);
}

/** A vector's point in the graph (ModelGraph.projection). */
function pointOf(graph: ModelGraph, vector: Float32Array): number[] {
  return graph.projection ? project(graph.projection, vector) : Array.from(vector);
}

const asBlob = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

function cosine(query: Float32Array, queryNorm: number, vector: Float32Array, offset: number): number {
  let dot = 0;
  let norm = 0;
  for (let i = 0; i < query.length; i += 1) {
    const value = vector[offset + i]!;
    dot += query[i]! * value;
    norm += value * value;
  }
  return queryNorm === 0 || norm === 0 ? 0 : dot / (queryNorm * Math.sqrt(norm));
}

/**
 * The stored vectors (as sqlite-vec holds them, not the graph's unit-length copies) of the windows
 * in one graph, side by side in one Float32Array, one slot per window: re-scoring a candidate held
 * here costs ~1 µs. hnswlib hands a point out only as a JavaScript array of numbers (~40 µs, ~60 µs
 * with its copy into a Float32Array), and sqlite-vec reads one in ~20 µs at 100k windows
 * (docs/PERFORMANCE.md, "Search"). The price is a second copy of the vectors beside the graph's:
 * 4 bytes per dimension and window, up to 205 MB at 100k windows of 512 dimensions, next to the
 * graph's ~220 MB. A graph built here holds every vector it added; a graph loaded from its file
 * starts empty, so that loading costs no more than before, and is filled in the background.
 */
class VectorSlots {
  private data: Float32Array;
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];
  private used = 0;

  constructor(readonly dims: number, capacity: number) {
    this.data = new Float32Array(dims * Math.max(1, capacity));
  }

  set(seq: number, vector: Float32Array): void {
    let slot = this.slotOf.get(seq) ?? this.free.pop();
    if (slot === undefined) {
      slot = this.used;
      this.used += 1;
      if (this.used * this.dims > this.data.length) {
        const grown = new Float32Array(Math.ceil(this.used * 1.25 + 1024) * this.dims);
        grown.set(this.data);
        this.data = grown;
      }
    }
    this.data.set(vector, slot * this.dims);
    this.slotOf.set(seq, slot);
  }

  delete(seq: number): void {
    const slot = this.slotOf.get(seq);
    if (slot === undefined) return;
    this.slotOf.delete(seq);
    this.free.push(slot);
  }

  /** Where the vector of `seq` starts in `data`, or -1 when this graph does not hold it. */
  offsetOf(seq: number): number {
    const slot = this.slotOf.get(seq);
    return slot === undefined ? -1 : slot * this.dims;
  }

  get vectors(): Float32Array {
    return this.data;
  }
}

function sha256OfFile(file: string): string {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(1 << 22);
  const fd = openSync(file, 'r');
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) hash.update(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** The same digest read as a stream, so the thread goes on meanwhile (a graph file is ~2.2 KiB a window). */
async function sha256OfFileInBackground(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 22 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** How a look-up was answered: sqlite-vec over every vector, or a graph (with the vectors newer than it compared exactly). */
export type VectorLookupPath = 'exact' | 'graph';

export interface VectorIndexOptions {
  log: (message: string) => void;
  /** False for a store opened to read: graphs are built and caught up in memory, never saved. */
  persist?: boolean;
  /**
   * False where a look-up's milliseconds matter less than memory (every thread of the language
   * server: discovery's, the searches', the main one): candidates are re-scored from sqlite-vec
   * (~20 µs each, some 300 an item discovered or a search) instead of from a second copy of every
   * vector beside the graph's (2 KiB a window at 512 dimensions: ~1.7 GiB a thread at 100,000 notes).
   */
  holdVectors?: boolean;
  /**
   * True (the default) where a look-up's answer must not depend on how far a background catch-up
   * had got when it was asked (discovery proposes from its neighbours): while a graph catches up,
   * search is exact, linear in the workspace (1.4 s at 110,000 windows on a loaded machine), so the
   * store first waits for the catch-up (caughtUp) and searches exactly only what is newer still. False
   * where the answer's milliseconds matter more (the language server's searches and Related while
   * a folder is embedded): the graph as far as it got, and the vectors newer than it compared
   * exactly, as before a catch-up starts; when more than exactTail are newer, the oldest exactTail
   * of them, the rest being found as the catch-up reaches them.
   */
  exactWhileCatchingUp?: boolean;
  /**
   * A store opened to read saves its graphs too, to their files only (saveOffThread): the language
   * server's search threads, the only holders of a graph there until discovery runs, so that a
   * restart in the middle of a cold index loads a recent graph instead of catching up from an old one.
   */
  saveWhenReading?: boolean;
  /**
   * A writer saves its graphs off the thread too (saveOffThread), rather than holding the event loop
   * for hnswlib's synchronous write (~1 s at 100k windows): the language server's shared graph
   * (sharedGraph.ts), whose thread answers every vector look-up of the process. Closing still saves
   * what is left synchronously.
   */
  saveInBackground?: boolean;
  /**
   * A saved graph is read off the thread (its checksum streamed, hnswlib's asynchronous read) and
   * `lookupReady` says not yet meanwhile, so that a search can answer from its other paths: the
   * language server's search threads, whose first search after a restart waited for the whole file
   * (4.3 s at 430,000 windows, ~9 s at the 895,000 of 100,000 notes). Look-ups made meanwhile wait
   * for it (`whenLoaded`).
   */
  loadInBackground?: boolean;
  /** Told how each look-up was answered (tests, benchmarks). */
  onLookup?: (path: VectorLookupPath) => void;
}

export class WorkspaceVectorIndex {
  private readonly graphs = new Map<string, ModelGraph>();
  /** Models whose missing or unusable file was already reported by this process. */
  private readonly reported = new Set<string>();
  private closed = false;
  private readonly directory: string;

  private readonly log: (message: string) => void;
  private readonly persist: boolean;
  private readonly holdVectors: boolean;
  private readonly exactWhileCatchingUp: boolean;
  private readonly saveWhenReading: boolean;
  private readonly saveInBackground: boolean;
  private readonly loadInBackground: boolean;
  /** Saved graphs being read off the thread (loadInBackground), by model. */
  private readonly loading = new Map<string, Promise<void>>();
  /** Components fitted off the event loop (fitInBackground) for the graph readyGraph builds next, by model id. */
  private readonly fitted = new Map<string, GraphProjection | null>();
  private readonly onLookup: ((path: VectorLookupPath) => void) | undefined;

  constructor(
    private readonly sql: ScopedSql,
    indexRoot: string,
    private readonly settings: VectorIndexSettings,
    options: VectorIndexOptions,
  ) {
    // One folder per workspace, named by a digest because a workspace name may hold any character.
    this.directory = path.join(indexRoot, digest(sql.workspace));
    this.log = options.log;
    this.persist = options.persist ?? true;
    this.holdVectors = options.holdVectors ?? true;
    this.exactWhileCatchingUp = options.exactWhileCatchingUp ?? true;
    this.saveWhenReading = options.saveWhenReading ?? false;
    this.saveInBackground = options.saveInBackground ?? false;
    this.loadInBackground = options.loadInBackground ?? false;
    this.onLookup = options.onLookup;
  }

  /**
   * Whether a look-up would answer now without reading a saved graph first: false while one is
   * read off the thread (loadInBackground), whose read this starts if none has.
   */
  lookupReady(model: VectorModel): boolean {
    return this.whenLoaded(model) === null;
  }

  /** The read of this model's saved graph off the thread, started if it is due; null when none is (or will be) needed. */
  whenLoaded(model: VectorModel): Promise<void> | null {
    if (!this.loadInBackground || this.closed) return null;
    const reading = this.loading.get(model.id);
    if (reading) return reading;
    if (this.graphs.get(model.id)?.model.dims === model.dims) return null;
    if (this.countUpTo(model, this.settings.exactBelow) < this.settings.exactBelow) return null;
    // Nothing saved to read (or not for this database): readyGraph builds the graph, and says why
    // once, on components fitted first off the event loop when the model has more dimensions.
    const saved = this.savedGraph(model);
    if (typeof saved === 'string' && (!this.projects(model) || this.fitted.has(model.id))) return null;
    const started = (typeof saved === 'string' ? this.fitInBackground(model) : this.readSavedInBackground(model, saved)).finally(() =>
      this.loading.delete(model.id),
    );
    this.loading.set(model.id, started);
    return started;
  }

  /**
   * Resolves once the model's graph holds the vectors stored when it is asked (catching up, off the
   * event loop in slices, if it was behind by more than a few), or at once when search is exact:
   * what a look-up waits for whose answer must not depend on how far a catch-up got (discovery's).
   * Those look-ups used to search every vector exactly meanwhile, seconds each at 895,000 windows,
   * and each held the thread the catch-up runs on: discovery after a restart at 100,000 notes did
   * 0.1 items a second (docs/PERFORMANCE.md, "One graph per process").
   */
  async caughtUp(model: VectorModel): Promise<void> {
    // Vectors stored during a catch-up are caught up in the next; a few rounds at most, then the
    // look-up compares what is still newer exactly (readyGraph), or searches exactly.
    for (let round = 0; round < 4 && !this.closed; round += 1) {
      this.readyGraph(model, false);
      const catchingUp = this.graphs.get(model.id)?.catchingUp;
      if (!catchingUp) return;
      await catchingUp;
    }
  }

  /**
   * The k nearest windows to each query among this model's vectors in this workspace.
   * `exactWhileCatchingUp` overrides the store's choice (VectorIndexOptions) for this look-up: a
   * graph shared by several threads (sharedGraph.ts) answers each as its asker would.
   */
  search(model: VectorModel, queries: readonly Float32Array[], k: number, exactWhileCatchingUp = this.exactWhileCatchingUp): VectorHit[][] {
    if (this.closed) throw new Error('the store is closed');
    if (queries.length === 0) return [];
    if (k <= 0) return queries.map(() => []);
    const ready = this.readyGraph(model, exactWhileCatchingUp);
    this.onLookup?.(ready ? 'graph' : 'exact');
    if (!ready) return queries.map((query) => this.exact(model, query, k));
    const { graph, tail } = ready;
    const depth = Math.min(Math.max(k, this.settings.efSearch), graph.graph.getMaxElements());
    graph.graph.setEf(depth);
    const inGraph = graph.graph.getCurrentCount() > 0;
    const candidates = queries.map((query) => (inGraph ? graph.graph.searchKnn(pointOf(graph, query), depth).neighbors : []));
    return this.rescore(model, queries, candidates, k, graph.vectors, tail);
  }

  /**
   * A graph marks a removed vector deleted but keeps it in its file, so after a document is forgotten
   * no saved graph of this workspace may survive: the files go, and a new generation makes every
   * process's graph built before now (which may hold the forgotten vectors) unsavable.
   */
  discardSaved(): void {
    this.graphs.clear();
    this.sql.write(() => {
      this.sql.run(
        `INSERT INTO vector_indexes (workspace, model_id, generation)
         SELECT @ws, id, @generation FROM embedding_models WHERE workspace = @ws
         ON CONFLICT (workspace, model_id) DO UPDATE SET generation = excluded.generation`,
        { generation: randomUUID() },
      );
    });
    rmSync(this.directory, { recursive: true, force: true });
  }

  /** Saves every graph with changes not yet on disk. The store closes the database afterwards. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const graph of this.graphs.values()) {
      if (graph.unsaved > 0 && this.persist) this.trySave(graph);
    }
    this.graphs.clear();
  }

  /**
   * A graph and the vectors newer than it (`tail`, compared exactly), which together cover every
   * current vector of the model; or null when search should be exact.
   */
  private readyGraph(model: VectorModel, exactWhileCatchingUp: boolean): { graph: ModelGraph; tail: number[] } | null {
    let graph = this.graphs.get(model.id);
    if (graph && graph.model.dims !== model.dims) {
      this.graphs.delete(model.id);
      graph = undefined;
    }
    if (!graph) {
      if (this.countUpTo(model, this.settings.exactBelow) < this.settings.exactBelow) return null;
      const loaded = this.load(model);
      if (typeof loaded === 'string') this.reportOnce(model, loaded);
      graph = typeof loaded === 'string' ? this.emptyGraph(model) : loaded;
      this.graphs.set(model.id, graph);
      if (typeof loaded !== 'string' && graph.vectors) this.holdVectorsInBackground(graph, graph.vectors);
    }
    try {
      if (!graph.saving) this.applyRemovals(graph);
      const limit = Math.max(this.settings.inlineCatchUp, this.settings.exactTail);
      const pending = this.sql.rows<{ seq: number }>(
        `SELECT seq FROM vectors WHERE workspace = @ws AND model_id = @modelId AND seq > @after ORDER BY seq LIMIT @limit`,
        { modelId: model.id, after: graph.vectorSeq, limit: limit + 1 },
      );
      if (pending.length > 0 && pending[pending.length - 1]!.seq > MAX_LABEL) {
        this.graphs.delete(model.id);
        return null;
      }
      if (pending.length === 0) return { graph, tail: [] };
      if (graph.catchingUp) {
        // While it catches up, a graph's contents depend on how far the slices got: answering from
        // it made discovery's neighbours, and so its proposals, depend on when it asked.
        if (exactWhileCatchingUp) return null;
      } else if (pending.length <= this.settings.inlineCatchUp) {
        this.addNext(graph, pending.length);
        return { graph, tail: [] };
      } else {
        this.catchUpInBackground(graph);
      }
      if (pending.length <= this.settings.exactTail) return { graph, tail: pending.map((row) => row.seq) };
      // Far behind (a restart that loaded an older saved graph: 40,000-170,000 windows at 100,000
      // notes). An exact search of every window took 2-6 s there, and Related, which looks up
      // several windows, 11-14 s. Where answers must come quickly the graph and the oldest
      // exactTail newer vectors answer, and the rest are found as the catch-up reaches them.
      return exactWhileCatchingUp ? null : { graph, tail: pending.slice(0, this.settings.exactTail).map((row) => row.seq) };
    } catch (error) {
      this.graphs.delete(model.id);
      this.log(`vector index for model ${model.id} failed (${(error as Error).message}); searching exactly and rebuilding`);
      return null;
    }
  }

  private countUpTo(model: VectorModel, limit: number): number {
    return this.sql.row<{ n: number }>(
      'SELECT COUNT(*) AS n FROM (SELECT 1 FROM vectors WHERE workspace = @ws AND model_id = @modelId LIMIT @limit)',
      { modelId: model.id, limit },
    )!.n;
  }

  private removalState(model: VectorModel): { last: number; prunedThrough: number } {
    const last = this.sql.row<{ seq: number | null }>(
      'SELECT MAX(seq) AS seq FROM vector_removals WHERE workspace = @ws AND model_id = @modelId',
      { modelId: model.id },
    )!.seq;
    const prunedThrough =
      this.sql.row<{ through: number }>(
        'SELECT removals_pruned_through AS through FROM vector_indexes WHERE workspace = @ws AND model_id = @modelId',
        { modelId: model.id },
      )?.through ?? 0;
    return { last: Math.max(last ?? 0, prunedThrough), prunedThrough };
  }

  private emptyGraph(model: VectorModel): ModelGraph {
    const count = this.sql.row<{ n: number }>('SELECT COUNT(*) AS n FROM vectors WHERE workspace = @ws AND model_id = @modelId', {
      modelId: model.id,
    })!.n;
    const projection = this.fitted.has(model.id) ? this.fitted.get(model.id)! : this.fitNow(model);
    this.fitted.delete(model.id);
    const graph = newGraph(model, projection);
    const capacity = Math.max(1024, Math.ceil(count * 1.1));
    graph.initIndex(capacity, this.settings.m, this.settings.efConstruction, RANDOM_SEED, true);
    // Removals before this point concern rows that are gone already; the rows are read afterwards.
    const { last } = this.removalState(model);
    const vectors = this.holdVectors ? new VectorSlots(model.dims, capacity) : null;
    return { model, graph, projection, vectors, generation: this.generation(model), vectorSeq: 0, removalSeq: last, unsaved: 0, catchingUp: null, saving: false };
  }

  /** Whether the model's graph places its windows by components (VECTOR_INDEX_SETTINGS.graphDims). */
  private projects(model: VectorModel): boolean {
    return this.settings.graphDims > 0 && model.dims > this.settings.graphDims;
  }

  /**
   * The components a new graph of the model places its windows by (graphProjection.ts), fitted on
   * FITTED of its stored vectors spread over all of them by seq (the same rows for the same
   * database); null when the model has no more dimensions than settings.graphDims or too few
   * vectors are stored to say. On the calling thread: seconds at 10,000 vectors.
   */
  private fitNow(model: VectorModel): GraphProjection | null {
    if (!this.projects(model)) return null;
    const started = performance.now();
    const fit = new ProjectionFit(model.dims);
    const vectors = this.fitSample(model);
    fit.add(vectors);
    return this.fittedWith(model, fit, vectors.length, started);
  }

  /**
   * fitNow off the event loop, a hundred vectors a slice (~20 ms), for a store whose look-ups must
   * not wait seconds behind it (loadInBackground): look-ups go without the graph meanwhile, as while
   * a saved one is read. The eigen-decomposition at the end is one block: 2.2 s for 512 dimensions at load 5 here.
   */
  private async fitInBackground(model: VectorModel): Promise<void> {
    const started = performance.now();
    const fit = new ProjectionFit(model.dims);
    const vectors = this.fitSample(model);
    for (let start = 0; start < vectors.length; start += 100) {
      fit.add(vectors.slice(start, start + 100));
      await new Promise((resolve) => setImmediate(resolve));
      if (this.closed) return;
    }
    this.fitted.set(model.id, this.fittedWith(model, fit, vectors.length, started));
  }

  private fitSample(model: VectorModel): Float32Array[] {
    const count = this.sql.row<{ n: number }>('SELECT COUNT(*) AS n FROM vectors WHERE workspace = @ws AND model_id = @modelId', { modelId: model.id })!.n;
    return this.sql
      .rows<{ embedding: Buffer }>(
        `SELECT e.embedding FROM vectors v JOIN ${model.table} e ON e.rowid = v.seq
         WHERE v.workspace = @ws AND v.model_id = @modelId AND v.seq % @stride = 0 ORDER BY v.seq LIMIT @limit`,
        { modelId: model.id, stride: Math.max(1, Math.floor(count / FITTED)), limit: FITTED },
      )
      .map((row) => toFloats(row.embedding));
  }

  private fittedWith(model: VectorModel, fit: ProjectionFit, fitted: number, started: number): GraphProjection | null {
    const projection = fit.components(this.settings.graphDims);
    if (projection) {
      this.log(
        `vector index for model ${model.id} in workspace ${this.sql.workspace}: windows placed by their first ${projection.dims} of ${model.dims} components ` +
          `(${(projection.varianceKept * 100).toFixed(1)}% of the variance of ${fitted} windows, fitted in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    return projection;
  }

  /** Marks removed vectors deleted; after the log was pruned past this graph, compares ids instead. */
  private applyRemovals(graph: ModelGraph): void {
    const { model } = graph;
    const { prunedThrough } = this.removalState(model);
    if (prunedThrough > graph.removalSeq) {
      this.reconcile(graph);
      return;
    }
    const removals = this.sql.rows<{ seq: number; vector_seq: number }>(
      `SELECT seq, vector_seq FROM vector_removals WHERE workspace = @ws AND model_id = @modelId AND seq > @after ORDER BY seq`,
      { modelId: model.id, after: graph.removalSeq },
    );
    for (const removal of removals) {
      // A row added and removed since the graph last looked was never in it (a search may have
      // held its vector, as one of the tail's).
      if (removal.vector_seq <= graph.vectorSeq) this.markDeleted(graph, removal.vector_seq);
      else graph.vectors?.delete(removal.vector_seq);
      graph.removalSeq = removal.seq;
    }
  }

  private markDeleted(graph: ModelGraph, label: number): void {
    graph.vectors?.delete(label);
    try {
      graph.graph.markDelete(label);
      graph.unsaved += 1;
    } catch {
      // Not in the graph, or already marked: either way it is not served.
    }
  }

  /** Brings a graph in line with the rows it claims to cover, without the removal log. */
  private reconcile(graph: ModelGraph): void {
    const { model } = graph;
    const { live, removalSeq } = this.sql.db.transaction(() => ({
      live: new Set(
        this.sql
          .rows<{ seq: number }>('SELECT seq FROM vectors WHERE workspace = @ws AND model_id = @modelId AND seq <= @through', {
            modelId: model.id,
            through: graph.vectorSeq,
          })
          .map((row) => row.seq),
      ),
      removalSeq: this.removalState(model).last,
    }))();
    const present = new Set(graph.graph.getIdsList());
    for (const label of present) if (!live.has(label)) this.markDeleted(graph, label);
    const missing = [...live].filter((seq) => !present.has(seq));
    for (let start = 0; start < missing.length; start += 512) {
      const rows = this.sql.rows<{ seq: number; embedding: Buffer }>(
        `SELECT v.seq, e.embedding FROM vectors v JOIN ${model.table} e ON e.rowid = v.seq
         WHERE v.workspace = @ws AND v.model_id = @modelId AND v.seq IN (SELECT value FROM json_each(@seqs))`,
        { modelId: model.id, seqs: JSON.stringify(missing.slice(start, start + 512)) },
      );
      for (const row of rows) this.insert(graph, row.seq, row.embedding);
    }
    graph.removalSeq = removalSeq;
  }

  /** Adds up to `limit` of the next rows by seq; returns how many there were. */
  private addNext(graph: ModelGraph, limit: number): number {
    const { model } = graph;
    const rows = this.sql.rows<{ seq: number; embedding: Buffer }>(
      `SELECT v.seq, e.embedding FROM vectors v JOIN ${model.table} e ON e.rowid = v.seq
       WHERE v.workspace = @ws AND v.model_id = @modelId AND v.seq > @after ORDER BY v.seq LIMIT @limit`,
      { modelId: model.id, after: graph.vectorSeq, limit },
    );
    for (const row of rows) {
      if (row.seq > MAX_LABEL) throw new Error(`vector id ${row.seq} is beyond what the index can label`);
      this.insert(graph, row.seq, row.embedding);
      graph.vectorSeq = row.seq;
    }
    return rows.length;
  }

  private insert(graph: ModelGraph, label: number, embedding: Buffer): void {
    const point = pointOf(graph, toFloats(embedding));
    if (graph.graph.getCurrentCount() >= graph.graph.getMaxElements()) {
      // Full (unless a deleted slot is free for reuse): grow by a quarter rather than one at a time.
      graph.graph.resizeIndex(Math.ceil(graph.graph.getMaxElements() * 1.25) + 1024);
    }
    graph.graph.addPoint(point, label, true);
    graph.vectors?.set(label, toFloats(embedding));
    graph.unsaved += 1;
  }

  /** Catches up in slices of at most sliceMs, so the event loop stays free; saves when done. */
  private catchUpInBackground(graph: ModelGraph): void {
    const run = async () => {
      try {
        // Not one slice inside the query that found the graph behind: it compares the newer vectors
        // exactly, and a slice held it 30-150 ms at 110,000 windows.
        await yieldToEventLoop();
        for (;;) {
          if (this.closed || this.graphs.get(graph.model.id) !== graph) return;
          const started = performance.now();
          let added: number;
          do {
            this.applyRemovals(graph);
            added = this.addNext(graph, CATCH_UP_BATCH);
          } while (added > 0 && performance.now() - started < this.settings.sliceMs);
          if (added === 0) break;
          await yieldToEventLoop();
        }
        // A writer's save holds the event loop (~1 s at 100k windows); close() saves the rest.
        const { saveAfter, saveAfterAtMost } = this.settings;
        if (graph.unsaved >= Math.max(saveAfter, Math.min(graph.graph.getCurrentCount() / 4, saveAfterAtMost))) {
          if (this.persist && !this.saveInBackground) this.trySave(graph);
          else if (this.persist || this.saveWhenReading) {
            // A graph that could not be saved still serves this thread from memory.
            await this.saveOffThread(graph).catch((error: unknown) => {
              if (!this.closed) this.log(`vector index for model ${graph.model.id} could not be saved (${(error as Error).message}); it will be caught up next time`);
            });
          }
        }
      } catch (error) {
        if (this.closed) return;
        this.graphs.delete(graph.model.id);
        this.log(`vector index for model ${graph.model.id} failed while catching up (${(error as Error).message}); it will be rebuilt`);
      } finally {
        graph.catchingUp = null;
      }
    };
    graph.catchingUp = run();
  }

  /**
   * Reads the stored vectors of a graph loaded from its file into the array beside it, in slices of
   * at most holdSliceMs (~1.4 s in all at 100k windows); until then a search reads the ones it needs.
   */
  private holdVectorsInBackground(graph: ModelGraph, vectors: VectorSlots): void {
    const { model } = graph;
    const run = async () => {
      for (let after = 0; ; ) {
        await yieldToEventLoop();
        if (this.closed || this.graphs.get(model.id) !== graph) return;
        const started = performance.now();
        do {
          const rows = this.sql.rows<{ seq: number; embedding: Buffer }>(
            `SELECT v.seq, e.embedding FROM vectors v JOIN ${model.table} e ON e.rowid = v.seq
             WHERE v.workspace = @ws AND v.model_id = @modelId AND v.seq > @after AND v.seq <= @through ORDER BY v.seq LIMIT 64`,
            { modelId: model.id, after, through: graph.vectorSeq },
          );
          if (rows.length === 0) return;
          for (const row of rows) if (vectors.offsetOf(row.seq) < 0) vectors.set(row.seq, toFloats(row.embedding));
          after = rows[rows.length - 1]!.seq;
        } while (performance.now() - started < this.settings.holdSliceMs);
      }
    };
    run().catch((error: unknown) => {
      // Searches still read the vectors they need.
      if (!this.closed) this.log(`vector index for model ${model.id}: stored vectors not read ahead (${(error as Error).message})`);
    });
  }

  // Exact search and re-scoring --------------------------------------------------------

  private exact(model: VectorModel, query: Float32Array, k: number): VectorHit[] {
    const seqs = this.sql
      .rows<{ rowid: number }>(
        `SELECT rowid FROM ${model.table} WHERE embedding MATCH @query AND k = @k AND workspace = @ws AND model_id = @modelId`,
        { query: asBlob(query), k: BigInt(k), modelId: model.id },
      )
      .map((row) => row.rowid);
    return this.rescore(model, [query], [seqs], k, null)[0]!;
  }

  /**
   * Exact cosine of the leading candidates that still exist (best first, ties by age, k per query).
   * Candidates come best first; when rows removed meanwhile leave fewer than k, the rest are read too.
   * Which candidates exist, and where, is read from `vectors`; the vector itself from the vectors
   * kept beside the graph when there is one (the same bytes as in sqlite-vec, so both paths give the
   * same similarity), otherwise from sqlite-vec.
   */
  private rescore(
    model: VectorModel,
    queries: readonly Float32Array[],
    candidates: number[][],
    k: number,
    stored: VectorSlots | null,
    /** Candidates for every query beyond its own: the vectors the graph does not hold yet. */
    tail: readonly number[] = [],
  ): VectorHit[][] {
    const rows = new Map<number, CandidateRow>();
    const withVectors = (seqs: number[]) =>
      this.sql
        .rows<Omit<CandidateRow, 'vector' | 'offset'> & { embedding: Buffer }>(
          `SELECT v.seq, v.chunk_id, v.item_id, v.window, e.embedding
           FROM vectors v JOIN ${model.table} e ON e.rowid = v.seq
           WHERE v.workspace = @ws AND v.model_id = @modelId AND v.seq IN (SELECT value FROM json_each(@seqs))`,
          { modelId: model.id, seqs: JSON.stringify(seqs) },
        )
        .map(({ embedding, ...row }) => ({ ...row, vector: toFloats(embedding), offset: 0 }));
    const read = (seqs: number[]) => {
      const unique = [...new Set(seqs)].filter((seq) => !rows.has(seq));
      for (let start = 0; start < unique.length; start += 2048) {
        const batch = unique.slice(start, start + 2048);
        if (!stored) {
          for (const row of withVectors(batch)) rows.set(row.seq, row);
          continue;
        }
        const unheld: number[] = [];
        for (const row of this.sql.rows<Omit<CandidateRow, 'vector' | 'offset'>>(
          `SELECT seq, chunk_id, item_id, window FROM vectors
           WHERE workspace = @ws AND model_id = @modelId AND seq IN (SELECT value FROM json_each(@seqs))`,
          { modelId: model.id, seqs: JSON.stringify(batch) },
        )) {
          const offset = stored.offsetOf(row.seq);
          if (offset >= 0) rows.set(row.seq, { ...row, vector: stored.vectors, offset });
          else unheld.push(row.seq);
        }
        // A graph loaded from its file holds a vector from the first time it is re-scored.
        if (unheld.length === 0) continue;
        for (const row of withVectors(unheld)) {
          stored.set(row.seq, row.vector);
          rows.set(row.seq, { ...row, vector: stored.vectors, offset: stored.offsetOf(row.seq) });
        }
      }
    };
    const leading = k + this.settings.rescoreBeyondK;
    const considered = candidates.map((list) => [...list.slice(0, leading), ...tail]);
    read(considered.flat());
    const short = candidates.flatMap((list, index) =>
      list.length > leading && considered[index]!.filter((seq) => rows.has(seq)).length < k ? [index] : [],
    );
    for (const index of short) considered[index] = [...candidates[index]!, ...tail];
    read(short.flatMap((index) => candidates[index]!));
    return queries.map((query, index) => {
      const queryNorm = Math.sqrt(query.reduce((sum, value) => sum + value * value, 0));
      return considered[index]!
        .flatMap((seq) => {
          const row = rows.get(seq);
          return row ? [{ seq, row, similarity: cosine(query, queryNorm, row.vector, row.offset) }] : [];
        })
        .sort((a, b) => b.similarity - a.similarity || a.seq - b.seq)
        .slice(0, k)
        .map(({ row, similarity }) => ({ chunkId: row.chunk_id, itemId: row.item_id, window: row.window, similarity }));
    });
  }

  // Files --------------------------------------------------------------------------------

  private manifestPath(model: VectorModel): string {
    return path.join(this.directory, `${digest(model.id)}.json`);
  }

  private generation(model: VectorModel): string | undefined {
    return this.sql.row<{ generation: string }>(
      'SELECT generation FROM vector_indexes WHERE workspace = @ws AND model_id = @modelId',
      { modelId: model.id },
    )?.generation;
  }

  /** The saved graph if it is usable for this database; otherwise why not. */
  private load(model: VectorModel): ModelGraph | string {
    const saved = this.savedGraph(model);
    if (typeof saved === 'string') return saved;
    try {
      if (statSync(saved.file).size !== saved.manifest.bytes || sha256OfFile(saved.file) !== saved.manifest.sha256) return `${saved.file} does not match its checksum`;
      const graph = newGraph(model, saved.projection);
      graph.readIndexSync(saved.file, true);
      return this.loaded(model, graph, saved);
    } catch (error) {
      return `${saved.file} could not be read (${(error as Error).message})`;
    }
  }

  /**
   * load() off the thread: the graph it reads (or the empty one a failed read leaves, as readyGraph
   * does) is taken only if no graph of the model arrived meanwhile and the saved one still belongs
   * to this database (a forget discards every saved graph: discardSaved).
   */
  private async readSavedInBackground(model: VectorModel, saved: SavedGraph): Promise<void> {
    let outcome: ModelGraph | string;
    try {
      const { size } = await stat(saved.file);
      if (size !== saved.manifest.bytes || (await sha256OfFileInBackground(saved.file)) !== saved.manifest.sha256) {
        outcome = `${saved.file} does not match its checksum`;
      } else {
        const graph = newGraph(model, saved.projection);
        await graph.readIndex(saved.file, true);
        outcome = this.loaded(model, graph, saved);
      }
    } catch (error) {
      outcome = `${saved.file} could not be read (${(error as Error).message})`;
    }
    if (this.closed || this.graphs.has(model.id)) return;
    if (typeof outcome !== 'string' && outcome.generation !== this.generation(model)) outcome = 'discarded while it was read';
    if (typeof outcome === 'string') this.reportOnce(model, outcome);
    const graph = typeof outcome === 'string' ? this.emptyGraph(model) : outcome;
    this.graphs.set(model.id, graph);
    if (typeof outcome !== 'string' && graph.vectors) this.holdVectorsInBackground(graph, graph.vectors);
  }

  /** The manifest of this model's saved graph, its file and its projection, if they are for this database; otherwise why not. */
  private savedGraph(model: VectorModel): SavedGraph | string {
    const manifestPath = this.manifestPath(model);
    let manifest: Manifest;
    try {
      manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no saved index' : `${manifestPath} is unreadable`;
    }
    const problem = this.manifestProblem(model, manifest);
    if (problem) return `${manifestPath} was ${problem}`;
    const projection = manifest.projection === null ? null : readProjection(manifest.projection, model.dims);
    if (typeof projection === 'string') return `${manifestPath} is unusable: ${projection}`;
    return { manifest, file: path.join(this.directory, manifest.file), projection };
  }

  private loaded(model: VectorModel, graph: HierarchicalNSW, { manifest, projection }: SavedGraph): ModelGraph {
    // Components fitted for a graph that a saved one replaced are not kept for a later build.
    this.fitted.delete(model.id);
    return {
      model,
      graph,
      projection,
      // Filled in the background (holdVectorsInBackground) and by searches meanwhile.
      vectors: this.holdVectors ? new VectorSlots(model.dims, graph.getCurrentCount()) : null,
      generation: manifest.generation,
      vectorSeq: manifest.vectorSeq,
      removalSeq: manifest.removalSeq,
      unsaved: 0,
      catchingUp: null,
      saving: false,
    };
  }

  private manifestProblem(model: VectorModel, manifest: Manifest): string | null {
    if (manifest.format !== FORMAT) return 'written by another version';
    if (manifest.workspace !== this.sql.workspace || manifest.modelId !== model.id) return 'written for another workspace or model';
    if (manifest.dims !== model.dims || manifest.m !== this.settings.m || manifest.efConstruction !== this.settings.efConstruction) {
      return 'built with other parameters';
    }
    // A graph too small to fit components on when it was built keeps every dimension (fitNow).
    if (manifest.projection === undefined || (manifest.projection !== null && (!this.projects(model) || manifest.projection.dims !== this.settings.graphDims))) {
      return 'built with other parameters';
    }
    if (manifest.generation !== this.generation(model)) return 'built from another database';
    // A database restored from an older copy has fewer rows than the graph claims to cover.
    const sequence = (name: string) =>
      (storeStatement(this.sql.db, 'SELECT seq FROM sqlite_sequence WHERE name = ?').get(name) as { seq: number } | undefined)?.seq ?? 0;
    if (manifest.vectorSeq > sequence('vectors') || manifest.removalSeq > sequence('vector_removals')) {
      return 'ahead of the database (restored from an older copy?)';
    }
    return null;
  }

  private reportOnce(model: VectorModel, reason: string): void {
    if (this.reported.has(model.id)) return;
    this.reported.add(model.id);
    this.log(`vector index for model ${model.id} in workspace ${this.sql.workspace}: ${reason}; building it from the store`);
  }

  private trySave(graph: ModelGraph): void {
    try {
      this.save(graph);
    } catch (error) {
      this.log(`vector index for model ${graph.model.id} could not be saved (${(error as Error).message}); it will be caught up or rebuilt next time`);
    }
  }

  /**
   * Writes the graph under a unique name, then points the manifest at it with one rename: a crash
   * leaves either the old manifest or the new one, each naming a complete file or failing its
   * checksum. The removal log is pruned up to what the saved graph covers; a process whose graph is
   * older reconciles by ids instead.
   */
  private save(graph: ModelGraph): void {
    const { model } = graph;
    mkdirSync(this.directory, { recursive: true, mode: PRIVATE_DIR_MODE });
    const generation = this.claimGeneration(graph);
    // Documents were forgotten since this graph was built, or another process saved first: this
    // graph may hold forgotten vectors, so it serves this process from memory and is never saved.
    if (generation === null) return;
    graph.generation = generation;
    const { fileName, file } = this.newGraphFile(model);
    graph.graph.writeIndexSync(file);
    this.publish(graph, { generation, vectorSeq: graph.vectorSeq, removalSeq: graph.removalSeq }, fileName, sha256OfFile(file));
    graph.unsaved = 0;
    this.pruneRemovals(graph, graph.removalSeq);
  }

  /**
   * The generation a graph may be saved under: the database's, recorded now if none was, when the
   * graph was built under it; null when it was not (see save).
   */
  private claimGeneration(graph: ModelGraph): string | null {
    return this.sql.write(() => {
      const created = this.sql.run(
        `INSERT INTO vector_indexes (workspace, model_id, generation) VALUES (@ws, @modelId, @generation)
         ON CONFLICT (workspace, model_id) DO NOTHING`,
        { modelId: graph.model.id, generation: randomUUID() },
      ).changes;
      const current = this.generation(graph.model)!;
      return created === 1 || current === graph.generation ? current : null;
    });
  }

  /** The removal log up to what a saved graph covers: a process whose graph is older reconciles by ids instead. */
  private pruneRemovals(graph: ModelGraph, through: number): void {
    this.sql.write(() => {
      this.sql.run('DELETE FROM vector_removals WHERE workspace = @ws AND model_id = @modelId AND seq <= @through', {
        modelId: graph.model.id,
        through,
      });
      this.sql.run(
        `UPDATE vector_indexes SET removals_pruned_through = MAX(removals_pruned_through, @through)
         WHERE workspace = @ws AND model_id = @modelId`,
        { modelId: graph.model.id, through },
      );
    });
  }

  /**
   * A save off the thread: a reader's (the language server's search threads, which open the store
   * to read) writes the file and its manifest only, never the database; a writer's
   * (saveInBackground) also records the generation and prunes the removal log, as save does. The
   * file is written by hnswlib's asynchronous write while the graph is held still: no insertion
   * (the catch-up that calls this is still under way, so no other starts) and no removal marked
   * (readyGraph skips them meanwhile; removed vectors are never returned in any case, hits being
   * read back from SQLite). A reader saves only a graph of the generation the database records:
   * one built before documents were forgotten, or before any writer recorded a generation, may
   * hold forgotten vectors and stays in memory.
   */
  private async saveOffThread(graph: ModelGraph): Promise<void> {
    const { model, vectorSeq, removalSeq } = graph;
    const generation = this.persist ? this.claimGeneration(graph) : graph.generation;
    if (generation === null || generation === undefined || this.generation(model) !== generation) return;
    graph.generation = generation;
    mkdirSync(this.directory, { recursive: true, mode: PRIVATE_DIR_MODE });
    const { fileName, file } = this.newGraphFile(model);
    graph.saving = true;
    try {
      await graph.graph.writeIndex(file);
    } finally {
      graph.saving = false;
    }
    graph.unsaved = 0;
    const sha256 = await sha256OfFileInBackground(file);
    if (this.closed) {
      rmSync(file, { force: true });
      return;
    }
    this.publish(graph, { generation, vectorSeq, removalSeq }, fileName, sha256);
    if (this.persist) this.pruneRemovals(graph, removalSeq);
  }

  private newGraphFile(model: VectorModel): { fileName: string; file: string } {
    const fileName = `${digest(model.id)}.${process.pid}-${randomUUID().slice(0, 8)}.hnsw`;
    return { fileName, file: path.join(this.directory, fileName) };
  }

  /** Points the model's manifest at a graph file just written, and removes the files it replaces. */
  private publish({ model, projection }: ModelGraph, covers: Pick<Manifest, 'generation' | 'vectorSeq' | 'removalSeq'>, fileName: string, sha256: string): void {
    const file = path.join(this.directory, fileName);
    // hnswlib creates the file with the umask's mode; the directory is already owner-only.
    chmodSync(file, PRIVATE_FILE_MODE);
    const manifest: Manifest = {
      format: FORMAT,
      workspace: this.sql.workspace,
      modelId: model.id,
      dims: model.dims,
      m: this.settings.m,
      efConstruction: this.settings.efConstruction,
      ...covers,
      file: fileName,
      bytes: statSync(file).size,
      sha256,
      projection: projection ? saveProjection(projection) : null,
    };
    const manifestPath = this.manifestPath(model);
    const previous = this.previousFile(manifestPath);
    const temporary = `${manifestPath}.${process.pid}-${randomUUID().slice(0, 8)}.tmp`;
    writeFileSync(temporary, JSON.stringify(manifest, null, 2), { mode: PRIVATE_FILE_MODE });
    renameSync(temporary, manifestPath);
    this.removeOldFiles(digest(model.id), fileName, previous);
  }

  private previousFile(manifestPath: string): string | null {
    try {
      return (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest).file;
    } catch {
      return null;
    }
  }

  /**
   * The graph the manifest named before, and leftovers of crashed saves. A file written by another
   * process within the last ten minutes may be its save in progress, and is left alone.
   */
  private removeOldFiles(stem: string, keep: string, previous: string | null): void {
    const settled = Date.now() - 10 * 60_000;
    for (const name of readdirSync(this.directory)) {
      if (!name.startsWith(`${stem}.`) || name === keep || name.endsWith('.json')) continue;
      const file = path.join(this.directory, name);
      try {
        if (name === previous || statSync(file).mtimeMs < settled) rmSync(file, { force: true });
      } catch {
        // Removed by another process meanwhile.
      }
    }
  }
}
