// Vectors of the MongoDB + Qdrant store, with the SQLite store's semantics (sqliteStore.ts,
// "Vectors"; sqlite/searchQueries.ts; sqlite/discoveryQueries.ts vectorsOf): each chunk's windows
// are embedded by one model at a time, a chunk never ends with vectors from two models, and search
// serves only current chunks of live items.
//
// The vectors themselves are Qdrant points, one collection per dimension shared by every scope
// (pointIds.ts names them; qdrantScope.ts binds every request to this scope). Which chunks have
// vectors, from which model, in which windows, is MongoDB's `vector_coverage`: one document per
// chunk, the source of truth. A point no coverage document names is not a vector of the store.
//
// Order of writes, so that a crash between the two systems is harmless:
//   storeVectors: 1. upsert the points (ids derived from scope, model, chunk and window: a rerun
//                    overwrites them); 2. replace the chunks' coverage documents (the commit: from
//                    here the new model's windows are the chunk's vectors, and no longer the old
//                    model's); 3. delete the chunks' other points (the old model's, windows no
//                    longer used). A crash after 1 leaves points no coverage names; after 2, old
//                    points the coverage no longer names. Searches check every hit against the
//                    coverage (right model, a window it lists) and against the live chunks, so
//                    neither is ever served; the next embedding of the chunk overwrites or deletes
//                    them, and dropping the item's vectors deletes them all.
//   dropItemVectors: 1. delete the coverage (the vectors stop counting at once); 2. delete the
//                    points. A crash between leaves points no coverage names: ignored as above.

import { randomUUID } from 'node:crypto';
import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import type { ModelDescriptor } from '../../embed/types.ts';
import type { ChunkRecord, ModelUsage, VectorEntry, VectorHit } from '../contract.ts';
import type { EmbeddingModelExchange, VectorExchange } from '../exchange/records.ts';
import { decodeVector, encodeVector } from '../exchange/vectorText.ts';
import type { IndexSpec } from './collections.ts';
import { isDuplicateKey } from './duplicateKey.ts';
import type { RecordImporter, VectorItemHooks, VectorMaintenance } from './hooks.ts';
import { DEFAULT_COLLECTION_PREFIX, pointIdIn, vectorCollectionName } from './pointIds.ts';
import { ensureVectorCollection, matchAny, matchValue, ScopedPoints, type VectorPayload } from './qdrantScope.ts';
import type { Scope, ScopedCollection, ScopedDb } from './scope.ts';

export const EMBEDDING_MODELS_COLLECTION = 'embedding_models';
export const VECTOR_COVERAGE_COLLECTION = 'vector_coverage';

export interface EmbeddingModelDocument {
  workspace: string;
  folder: string;
  id: string;
  dims: number;
  version: string;
  maxTokens: number;
  firstUsedAt: string;
}

/** One window of a chunk: its place and its character offsets in the chunk text. */
export interface CoverageWindow {
  window: number;
  start: number;
  end: number;
}

/** Which model's vectors a chunk has, in which windows: the record the points are checked against. */
export interface CoverageDocument {
  workspace: string;
  folder: string;
  chunkId: string;
  itemId: string;
  modelId: string;
  dims: number;
  windows: CoverageWindow[];
  createdAt: string;
  /** The storeVectors call that wrote it: its clean-up acts only while its own record stands. */
  writeId: string;
}

export const VECTOR_INDEXES: readonly IndexSpec[] = [
  { collection: EMBEDDING_MODELS_COLLECTION, key: { workspace: 1, folder: 1, id: 1 }, unique: true, name: 'embedding_models_id' },
  { collection: VECTOR_COVERAGE_COLLECTION, key: { workspace: 1, folder: 1, chunkId: 1 }, unique: true, name: 'vector_coverage_chunk' },
  { collection: VECTOR_COVERAGE_COLLECTION, key: { workspace: 1, folder: 1, itemId: 1, modelId: 1 }, unique: false, name: 'vector_coverage_item' },
  // itemsNeedingVectors reads a model's covered chunk ids from this index alone; modelUsage groups by it.
  { collection: VECTOR_COVERAGE_COLLECTION, key: { workspace: 1, folder: 1, modelId: 1, chunkId: 1 }, unique: false, name: 'vector_coverage_model' },
  { collection: VECTOR_COVERAGE_COLLECTION, key: { workspace: 1, folder: 1, createdAt: 1 }, unique: false, name: 'vector_coverage_created' },
];

/** Candidates a search asks Qdrant for beyond k, so that a few ignored points do not cost a second request. */
const SEARCH_SLACK = 16;
/** The most candidates one query asks for before it answers with what it found. */
const MAX_CANDIDATES = 4096;
/** Points per upsert request (each carries its vector as JSON). */
const UPSERT_BATCH = 256;
/** Point ids per request that names them (has_id). */
const ID_BATCH = 1000;

const now = (): string => new Date().toISOString();

/** The point of one window: its id, its vector and the payload every filter and hit mapping reads. */
export function vectorPoint(scope: Scope, model: Pick<ModelDescriptor, 'id'>, itemId: string, entry: VectorEntry): Schemas['PointStruct'] {
  const payload: VectorPayload = {
    workspace: scope.workspace,
    folder: scope.folder,
    model_id: model.id,
    item_id: itemId,
    chunk_id: entry.chunkId,
    window: entry.window,
    start: entry.start,
    end: entry.end,
  };
  return { id: pointIdIn(scope, model.id, entry.chunkId, entry.window), vector: Array.from(entry.vector), payload: { ...payload } };
}

/** A hit's chunk, item and window from its payload; null for a point that is not one of the store's. */
export function hitOf(point: Pick<Schemas['ScoredPoint'], 'payload' | 'score'>): VectorHit | null {
  const payload = point.payload ?? {};
  const { chunk_id: chunkId, item_id: itemId, window } = payload as Partial<Record<string, unknown>>;
  if (typeof chunkId !== 'string' || typeof itemId !== 'string' || typeof window !== 'number') return null;
  return { chunkId, itemId, window, similarity: point.score };
}

/** The dense vector of a point as Qdrant returns it (an unnamed vector), or null. */
export function denseVector(vector: Schemas['Record']['vector']): Float32Array | null {
  return Array.isArray(vector) && vector.every((value) => typeof value === 'number') ? Float32Array.from(vector as number[]) : null;
}

/** The windows of each chunk, in window order, from a storeVectors call's entries. */
export function windowsByChunk(entries: readonly VectorEntry[]): Map<string, CoverageWindow[]> {
  const windows = new Map<string, CoverageWindow[]>();
  for (const entry of entries) {
    windows.set(entry.chunkId, [...(windows.get(entry.chunkId) ?? []), { window: entry.window, start: entry.start, end: entry.end }]);
  }
  for (const list of windows.values()) list.sort((a, b) => a.window - b.window);
  return windows;
}

/** What a search hit is checked against: the coverage of its chunk, and whether the chunk is live. */
export interface HitEvidence {
  coverage: ReadonlyMap<string, Pick<CoverageDocument, 'modelId' | 'windows'>>;
  liveChunks: ReadonlySet<string>;
}

/** A hit is a vector of the store when its chunk is live and the coverage names its model and its window. */
export function hitIsCurrent(hit: VectorHit, modelId: string, evidence: HitEvidence): boolean {
  const coverage = evidence.coverage.get(hit.chunkId);
  return (
    evidence.liveChunks.has(hit.chunkId) &&
    coverage !== undefined &&
    coverage.modelId === modelId &&
    coverage.windows.some((window) => window.window === hit.window)
  );
}

export interface VectorPointsOptions {
  /** The Qdrant collections' name prefix (default relata_vectors_); tests use one of their own. */
  collectionPrefix?: string;
}

export class MongoVectorPoints implements VectorMaintenance {
  private readonly points: ScopedPoints;
  private readonly models: ScopedCollection<EmbeddingModelDocument>;
  private readonly coverage: ScopedCollection<CoverageDocument>;
  private readonly prefix: string;
  /** Dimensions whose collection this process has made sure of. */
  private readonly collectionsReady = new Set<number>();
  /** A model's dimension never changes once registered (the first registration stands, as in SQLite). */
  private readonly dimsOfModel = new Map<string, number>();

  constructor(
    private readonly qdrant: QdrantClient,
    db: ScopedDb,
    private readonly scope: Scope,
    private readonly items: VectorItemHooks,
    options: VectorPointsOptions = {},
  ) {
    if (db.scope.workspace !== scope.workspace || db.scope.folder !== scope.folder) {
      throw new Error('the vector points and their MongoDB records must be opened for the same workspace and folder');
    }
    this.points = new ScopedPoints(qdrant, scope);
    this.models = db.collection<EmbeddingModelDocument>(EMBEDDING_MODELS_COLLECTION);
    this.coverage = db.collection<CoverageDocument>(VECTOR_COVERAGE_COLLECTION);
    this.prefix = options.collectionPrefix ?? DEFAULT_COLLECTION_PREFIX;
  }

  private collectionOf(dims: number): string {
    return vectorCollectionName(dims, this.prefix);
  }

  private async ensureCollection(dims: number): Promise<string> {
    const name = this.collectionOf(dims);
    if (!this.collectionsReady.has(dims)) {
      await ensureVectorCollection(this.qdrant, name, dims);
      this.collectionsReady.add(dims);
    }
    return name;
  }

  private async modelDims(modelId: string): Promise<number | null> {
    const known = this.dimsOfModel.get(modelId);
    if (known !== undefined) return known;
    const model = await this.models.findOne(this.models.filter({ id: modelId }));
    if (!model) return null;
    this.dimsOfModel.set(modelId, model.dims);
    return model.dims;
  }

  /** The collections of every model this scope has used: where any of its points can be. */
  private async scopeCollections(): Promise<string[]> {
    const dims = (await this.models.distinct('dims', this.models.filter())) as number[];
    return [...new Set(dims)].map((size) => this.collectionOf(size));
  }

  // Models ----------------------------------------------------------------------------------

  async registerModel(model: ModelDescriptor): Promise<void> {
    await this.ensureCollection(model.dims);
    if (this.dimsOfModel.has(model.id)) return;
    try {
      await this.models.updateOne(
        this.models.filter({ id: model.id }),
        { $setOnInsert: { dims: model.dims, version: model.version, maxTokens: model.maxTokens, firstUsedAt: now() } },
        { upsert: true },
      );
    } catch (error) {
      if (!isDuplicateKey(error)) throw error; // registered by another process at the same moment
    }
    await this.modelDims(model.id);
  }

  async modelUsage(): Promise<ModelUsage[]> {
    const models = await this.models.find(this.models.filter(), { sort: { firstUsedAt: 1, id: 1 } }).toArray();
    const counts = new Map(
      (
        await this.coverage
          .aggregate<{ _id: string; chunks: number; vectors: number }>([
            { $match: this.coverage.filter() },
            { $group: { _id: '$modelId', chunks: { $sum: 1 }, vectors: { $sum: { $size: '$windows' } } } },
          ])
          .toArray()
      ).map((group) => [group._id, group]),
    );
    return models.map((model) => ({
      id: model.id,
      dims: model.dims,
      version: model.version,
      maxTokens: model.maxTokens,
      vectors: counts.get(model.id)?.vectors ?? 0,
      chunks: counts.get(model.id)?.chunks ?? 0,
    }));
  }

  async hasVectors(modelId: string): Promise<boolean> {
    return (await this.coverage.findOne(this.coverage.filter({ modelId }), { projection: { _id: 1 } })) !== null;
  }

  // What needs embedding ----------------------------------------------------------------------

  async chunksWithoutVectors(itemId: string, modelId: string): Promise<ChunkRecord[]> {
    const chunks = await this.items.listChunks(itemId);
    if (chunks.length === 0) return [];
    const covered = await this.coveredChunks(chunks.map((chunk) => chunk.id), modelId);
    return chunks.filter((chunk) => !covered.has(chunk.id));
  }

  private async coveredChunks(chunkIds: readonly string[], modelId: string): Promise<Set<string>> {
    const covered = new Set<string>();
    for (let start = 0; start < chunkIds.length; start += ID_BATCH) {
      const filter = this.coverage.filter({ chunkId: { $in: chunkIds.slice(start, start + ID_BATCH) }, modelId });
      for (const found of await this.coverage.find(filter, { projection: { chunkId: 1 } }).toArray()) covered.add(found.chunkId);
    }
    return covered;
  }

  /** Live indexed items (in path order) with a chunk this model has not embedded. */
  async itemsNeedingVectors(modelId: string): Promise<string[]> {
    const chunksByItem = await this.items.liveChunkIds();
    const covered = new Set<string>();
    for await (const found of this.coverage.find(this.coverage.filter({ modelId }), { projection: { _id: 0, chunkId: 1 } })) covered.add(found.chunkId);
    return [...chunksByItem].filter(([, chunkIds]) => chunkIds.some((chunkId) => !covered.has(chunkId))).map(([itemId]) => itemId);
  }

  // Storing ---------------------------------------------------------------------------------

  /**
   * The order is the one the top of this file gives: points, then coverage, then the other points
   * of these chunks. The item is checked before anything is written and again after the coverage
   * is, since without a transaction the item may move on meanwhile (a new version, new chunks: the
   * facade drops its vectors then); a write that lost that race takes back what it wrote.
   */
  async storeVectors(itemId: string, contentHash: string, model: ModelDescriptor, entries: VectorEntry[]): Promise<boolean> {
    const windows = windowsByChunk(entries);
    const chunkIds = [...windows.keys()];
    if (!(await this.holdsChunks(itemId, contentHash, chunkIds))) return false;
    for (const entry of entries) {
      if (entry.vector.length !== model.dims) {
        throw new Error(`vector for chunk ${entry.chunkId} has ${entry.vector.length} dimensions, model ${model.id} has ${model.dims}`);
      }
    }
    await this.registerModel(model);
    const collection = this.collectionOf(model.dims);
    const points = entries.map((entry) => vectorPoint(this.scope, model, itemId, entry));
    for (let start = 0; start < points.length; start += UPSERT_BATCH) await this.points.upsert(collection, points.slice(start, start + UPSERT_BATCH));

    const writeId = randomUUID();
    const stamp = now();
    await this.writeCoverage(
      chunkIds.map((chunkId) => ({ chunkId, itemId, modelId: model.id, dims: model.dims, windows: windows.get(chunkId)!, createdAt: stamp, writeId })),
    );

    if (!(await this.holdsChunks(itemId, contentHash, chunkIds))) {
      await this.coverage.deleteMany(this.coverage.filter({ chunkId: { $in: chunkIds }, writeId }));
      await this.deleteIds(collection, points.map((point) => String(point.id)));
      return false;
    }
    await this.removeSupersededPoints(chunkIds, writeId, collection, points);
    return true;
  }

  /** The item is live with these bytes and these chunks are its chunks now. */
  private async holdsChunks(itemId: string, contentHash: string, chunkIds: readonly string[]): Promise<boolean> {
    if ((await this.items.currentHash(itemId)) !== contentHash) return false;
    if (chunkIds.length === 0) return true;
    const owned = await this.items.chunksOfItem(itemId, chunkIds);
    return chunkIds.every((chunkId) => owned.has(chunkId)); // re-chunked meanwhile: these vectors describe nothing current
  }

  /** One coverage document per chunk, replacing the chunk's earlier one whichever model wrote it. */
  private async writeCoverage(documents: Omit<CoverageDocument, 'workspace' | 'folder'>[]): Promise<void> {
    if (documents.length === 0) return;
    const operations = documents.map((fields) => ({
      replaceOne: { filter: this.coverage.filter({ chunkId: fields.chunkId }), replacement: this.coverage.document(fields) as CoverageDocument, upsert: true },
    }));
    try {
      await this.coverage.bulkWrite(operations, { ordered: false });
    } catch (error) {
      // Two first writes of one chunk at once: the loser's upsert met the unique index. Once more, as a replacement.
      const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [error]) as unknown[];
      if (!list.every(isDuplicateKey)) throw error;
      await this.coverage.bulkWrite(operations, { ordered: false });
    }
  }

  /**
   * Deletes every point of these chunks but the ones this write made, in every collection of the
   * scope, for the chunks whose coverage is still this write's (a later write of a chunk owns its
   * clean-up). Then checks this write's points are all there: a concurrent write of the same chunk
   * by another model that read its coverage before ours replaced it may have deleted them in its
   * own clean-up; they are written again.
   */
  private async removeSupersededPoints(chunkIds: readonly string[], writeId: string, collection: string, points: Schemas['PointStruct'][]): Promise<void> {
    const standing = new Set(
      (await this.coverage.find(this.coverage.filter({ chunkId: { $in: [...chunkIds] }, writeId }), { projection: { chunkId: 1 } }).toArray()).map(
        (found) => found.chunkId,
      ),
    );
    if (standing.size === 0) return;
    const mine = points.filter((point) => standing.has(String((point.payload as VectorPayload | undefined)?.chunk_id)));
    const keep = mine.map((point) => point.id);
    for (const name of new Set([...(await this.scopeCollections()), collection])) {
      for (let start = 0; start < standing.size; start += ID_BATCH) {
        const chunks = [...standing].slice(start, start + ID_BATCH);
        await this.points.delete(name, this.points.filter([matchAny('chunk_id', chunks)], name === collection ? [{ has_id: keep }] : []));
      }
    }
    const present = await this.points.count(collection, this.points.filter([{ has_id: keep }]));
    if (present < keep.length) {
      for (let start = 0; start < mine.length; start += UPSERT_BATCH) await this.points.upsert(collection, mine.slice(start, start + UPSERT_BATCH));
    }
  }

  private async deleteIds(collection: string, ids: readonly string[]): Promise<void> {
    for (let start = 0; start < ids.length; start += ID_BATCH) {
      await this.points.delete(collection, this.points.filter([{ has_id: ids.slice(start, start + ID_BATCH) }]));
    }
  }

  async dropItemVectors(itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    const ids = [...itemIds];
    await this.coverage.deleteMany(this.coverage.filter({ itemId: { $in: ids } }));
    for (const name of await this.scopeCollections()) {
      for (let start = 0; start < ids.length; start += ID_BATCH) {
        await this.points.delete(name, this.points.filter([matchAny('item_id', ids.slice(start, start + ID_BATCH))]));
      }
    }
  }

  // Searching --------------------------------------------------------------------------------

  async searchVectors(modelId: string, query: Float32Array, k: number): Promise<VectorHit[]> {
    return (await this.searchVectorsMany(modelId, [query], k))[0] ?? [];
  }

  /**
   * Qdrant's nearest points among this model's, each checked against the coverage and the live
   * chunks (hitIsCurrent). A query whose candidates included ignored points and fell short of k
   * asks again for four times as many, up to MAX_CANDIDATES. The similarity is Qdrant's cosine
   * score (float32: within ~1e-7 of SQLite's float64 re-scoring).
   */
  async searchVectorsMany(modelId: string, queries: readonly Float32Array[], k: number): Promise<VectorHit[][]> {
    const dims = await this.modelDims(modelId);
    if (dims === null) return queries.map(() => []);
    for (const query of queries) {
      if (query.length !== dims) throw new Error(`query vector has ${query.length} dimensions, model ${modelId} has ${dims}`);
    }
    if (queries.length === 0) return [];
    if (k <= 0) return queries.map(() => []);
    const collection = this.collectionOf(dims);
    const results: VectorHit[][] = queries.map(() => []);
    const evidence = { coverage: new Map<string, Pick<CoverageDocument, 'modelId' | 'windows'>>(), liveChunks: new Set<string>(), checkedItems: new Set<string>() };
    let open = queries.map((_, index) => index);
    for (let limit = k + SEARCH_SLACK; open.length > 0; limit *= 4) {
      const answers = await this.points.queryBatch(
        collection,
        open.map((index) => ({
          query: Array.from(queries[index]!),
          filter: this.points.filter([matchValue('model_id', modelId)]),
          limit,
          with_payload: ['item_id', 'chunk_id', 'window'],
        })),
      );
      const hits = answers.map((points) => points.map(hitOf).filter((hit): hit is VectorHit => hit !== null));
      await this.gatherEvidence(hits.flat(), evidence);
      const stillOpen: number[] = [];
      open.forEach((queryIndex, position) => {
        const found = hits[position]!;
        const current = found.filter((hit) => hitIsCurrent(hit, modelId, evidence));
        results[queryIndex] = current.slice(0, k);
        const exhausted = answers[position]!.length < limit || limit >= MAX_CANDIDATES;
        if (current.length < k && !exhausted) stillOpen.push(queryIndex);
      });
      open = stillOpen;
    }
    return results;
  }

  /** Reads the coverage and liveness of the hits' chunks not read yet. */
  private async gatherEvidence(
    hits: readonly VectorHit[],
    evidence: { coverage: Map<string, Pick<CoverageDocument, 'modelId' | 'windows'>>; liveChunks: Set<string>; checkedItems: Set<string> },
  ): Promise<void> {
    const chunkIds = [...new Set(hits.map((hit) => hit.chunkId))].filter((chunkId) => !evidence.coverage.has(chunkId));
    for (let start = 0; start < chunkIds.length; start += ID_BATCH) {
      const filter = this.coverage.filter({ chunkId: { $in: chunkIds.slice(start, start + ID_BATCH) } });
      for (const found of await this.coverage.find(filter, { projection: { chunkId: 1, modelId: 1, windows: 1 } }).toArray()) {
        evidence.coverage.set(found.chunkId, { modelId: found.modelId, windows: found.windows });
      }
    }
    const itemIds = [...new Set(hits.map((hit) => hit.itemId))].filter((itemId) => !evidence.checkedItems.has(itemId));
    if (itemIds.length === 0) return;
    for (const [, chunks] of await this.items.liveChunkIds(itemIds)) for (const chunkId of chunks) evidence.liveChunks.add(chunkId);
    for (const itemId of itemIds) evidence.checkedItems.add(itemId);
  }

  /**
   * The current windows of these items from this model, as point ids, with what each id stands for:
   * the coverage of their live chunks. Requests that name these ids can only meet current vectors.
   */
  private async currentPoints(itemIds: readonly string[], modelId: string): Promise<Map<string, { itemId: string; chunkId: string; window: CoverageWindow; createdAt: string }>> {
    const points = new Map<string, { itemId: string; chunkId: string; window: CoverageWindow; createdAt: string }>();
    if (itemIds.length === 0) return points;
    const live = new Set([...(await this.items.liveChunkIds(itemIds)).values()].flat());
    for (let start = 0; start < itemIds.length; start += ID_BATCH) {
      const filter = this.coverage.filter({ itemId: { $in: itemIds.slice(start, start + ID_BATCH) }, modelId });
      for (const found of await this.coverage.find(filter).toArray()) {
        if (!live.has(found.chunkId)) continue;
        for (const window of found.windows) {
          points.set(pointIdIn(this.scope, modelId, found.chunkId, window.window), { itemId: found.itemId, chunkId: found.chunkId, window, createdAt: found.createdAt });
        }
      }
    }
    return points;
  }

  /** Each listed item's best window by cosine to the query (Qdrant searches exactly among the named points). */
  async bestSimilarities(modelId: string, query: Float32Array, itemIds: readonly string[]): Promise<VectorHit[]> {
    if (itemIds.length === 0) return [];
    const dims = await this.modelDims(modelId);
    if (dims === null || dims !== query.length) return [];
    const ids = [...(await this.currentPoints(itemIds, modelId)).keys()];
    const best = new Map<string, VectorHit>();
    for (let start = 0; start < ids.length; start += ID_BATCH) {
      const groups = await this.points.queryGroups(this.collectionOf(dims), {
        query: Array.from(query),
        filter: this.points.filter([{ has_id: ids.slice(start, start + ID_BATCH) }]),
        group_by: 'item_id',
        group_size: 1,
        limit: itemIds.length,
        with_payload: ['item_id', 'chunk_id', 'window'],
      });
      for (const group of groups) {
        const hit = group.hits[0] ? hitOf(group.hits[0]) : null;
        if (hit && (best.get(hit.itemId)?.similarity ?? -Infinity) < hit.similarity) best.set(hit.itemId, hit);
      }
    }
    return [...best.values()];
  }

  /** One model's window vectors of each item, ordered by chunk id then window (sqlite discoveryQueries vectorsOf). */
  async vectorsOfItems(itemIds: readonly string[], modelId: string): Promise<Map<string, Float32Array[]>> {
    const byItem = new Map<string, Float32Array[]>();
    const dims = await this.modelDims(modelId);
    if (dims === null) return byItem;
    const current = await this.currentPoints(itemIds, modelId);
    const vectors = await this.readVectors(this.collectionOf(dims), [...current.keys()]);
    const ordered = [...current].sort(([, a], [, b]) => (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : a.window.window - b.window.window));
    for (const [id, point] of ordered) {
      const vector = vectors.get(id);
      if (!vector) continue; // coverage committed, points lost: the item is served without that window until re-embedded
      byItem.set(point.itemId, [...(byItem.get(point.itemId) ?? []), vector]);
    }
    return byItem;
  }

  /** The vectors of these points (Qdrant keeps a cosine collection's vectors scaled to unit length). */
  private async readVectors(collection: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    const vectors = new Map<string, Float32Array>();
    for (let start = 0; start < ids.length; start += ID_BATCH) {
      const batch = ids.slice(start, start + ID_BATCH);
      const page = await this.points.scroll(collection, {
        filter: this.points.filter([{ has_id: batch }]),
        limit: batch.length,
        with_payload: false,
        with_vector: true,
      });
      for (const point of page.points) {
        const vector = denseVector(point.vector);
        if (vector) vectors.set(String(point.id), vector);
      }
    }
    return vectors;
  }

  // Export and import ---------------------------------------------------------------------------

  async *exportModels(): AsyncIterable<EmbeddingModelExchange> {
    for await (const model of this.models.find(this.models.filter(), { sort: { firstUsedAt: 1, id: 1 } })) {
      yield { record: 'embedding_model', id: model.id, dims: model.dims, version: model.version, maxTokens: model.maxTokens, firstUsedAt: model.firstUsedAt };
    }
  }

  /**
   * Every vector the coverage names, in the order chunks were embedded, each chunk's windows in
   * order. A window whose point is missing from Qdrant is an error naming it: an export that
   * silently left vectors out would not be a copy of the store.
   */
  async *exportVectors(): AsyncIterable<VectorExchange> {
    let page: CoverageDocument[] = [];
    for await (const found of this.coverage.find(this.coverage.filter(), { sort: { createdAt: 1, _id: 1 } })) {
      page.push(found);
      if (page.length < 256) continue;
      yield* this.exportPage(page);
      page = [];
    }
    yield* this.exportPage(page);
  }

  private async *exportPage(page: readonly CoverageDocument[]): AsyncIterable<VectorExchange> {
    const idsByDims = new Map<number, string[]>();
    for (const found of page) {
      const ids = found.windows.map((window) => pointIdIn(this.scope, found.modelId, found.chunkId, window.window));
      idsByDims.set(found.dims, [...(idsByDims.get(found.dims) ?? []), ...ids]);
    }
    const vectors = new Map<string, Float32Array>();
    for (const [dims, ids] of idsByDims) for (const [id, vector] of await this.readVectors(this.collectionOf(dims), ids)) vectors.set(id, vector);
    for (const found of page) {
      for (const window of found.windows) {
        const vector = vectors.get(pointIdIn(this.scope, found.modelId, found.chunkId, window.window));
        if (!vector) {
          throw new Error(
            `vector ${window.window} of chunk ${found.chunkId} (model ${found.modelId}) is recorded but has no point in Qdrant collection ${this.collectionOf(found.dims)}`,
          );
        }
        yield {
          record: 'vector',
          itemId: found.itemId,
          chunkId: found.chunkId,
          window: window.window,
          start: window.start,
          end: window.end,
          modelId: found.modelId,
          vector: encodeVector(vector),
          createdAt: found.createdAt,
        };
      }
    }
  }

  async holdsRecords(): Promise<boolean> {
    return (await this.models.findOne(this.models.filter())) !== null || (await this.coverage.findOne(this.coverage.filter())) !== null;
  }

  /**
   * Models, then vectors, as exported. Points are written before the coverage that names them, a
   * batch at a time, as storeVectors does; a chunk's windows may arrive in several batches (its
   * coverage document gathers them).
   */
  importer(): RecordImporter<EmbeddingModelExchange | VectorExchange> {
    let batch: VectorExchange[] = [];
    const flush = async () => {
      const vectors = batch;
      batch = [];
      if (vectors.length === 0) return;
      const pointsByDims = new Map<number, Schemas['PointStruct'][]>();
      for (const record of vectors) {
        const dims = await this.modelDims(record.modelId);
        if (dims === null) throw new Error(`vector ${record.window} of chunk ${record.chunkId} names model ${record.modelId}, which the import has not declared`);
        const vector = decodeVector(record.vector);
        if (vector.length !== dims) throw new Error(`vector ${record.window} of chunk ${record.chunkId} has ${vector.length} dimensions, model ${record.modelId} has ${dims}`);
        const entry = { chunkId: record.chunkId, window: record.window, start: record.start, end: record.end, vector };
        pointsByDims.set(dims, [...(pointsByDims.get(dims) ?? []), vectorPoint(this.scope, { id: record.modelId }, record.itemId, entry)]);
      }
      for (const [dims, points] of pointsByDims) await this.points.upsert(await this.ensureCollection(dims), points);
      const byChunk = new Map<string, VectorExchange[]>();
      for (const record of vectors) byChunk.set(record.chunkId, [...(byChunk.get(record.chunkId) ?? []), record]);
      await this.coverage.bulkWrite(
        [...byChunk].map(([chunkId, records]) => {
          const first = records[0]!;
          return {
            updateOne: {
              filter: this.coverage.filter({ chunkId }),
              update: {
                $setOnInsert: { itemId: first.itemId, modelId: first.modelId, dims: this.dimsOfModel.get(first.modelId)!, createdAt: first.createdAt, writeId: 'import' },
                $push: { windows: { $each: records.map((record) => ({ window: record.window, start: record.start, end: record.end })) } },
              },
              upsert: true,
            },
          };
        }),
        { ordered: true },
      );
    };
    return {
      add: async (record) => {
        if (record.record === 'embedding_model') {
          await this.ensureCollection(record.dims);
          await this.models.insertOne(
            this.models.document({ id: record.id, dims: record.dims, version: record.version, maxTokens: record.maxTokens, firstUsedAt: record.firstUsedAt }),
          );
          this.dimsOfModel.set(record.id, record.dims);
          return;
        }
        batch.push(record);
        if (batch.length >= UPSERT_BATCH) await flush();
      },
      finish: flush,
    };
  }
}
