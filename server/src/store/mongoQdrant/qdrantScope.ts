// The privacy boundary in Qdrant. Vector collections are shared by every workspace and folder on
// the server (one per dimension), so isolation is a filter: every point carries the workspace and
// folder in its payload, and every search, scroll, count and delete must match both. ScopedPoints
// is the only way the store reaches Qdrant's points; it checks each request's filter object itself
// and refuses, before anything is sent, one that does not require this scope (the analogue of
// scope.ts for MongoDB).

import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import { SCOPE_FIELDS, UnscopedOperationError, type Scope } from './scope.ts';

export type PointFilter = Schemas['Filter'];
export type PointCondition = Schemas['Condition'];

/** What every point's payload holds, besides the scope: enough to map a hit back to its chunk. */
export interface VectorPayload {
  workspace: string;
  folder: string;
  model_id: string;
  item_id: string;
  chunk_id: string;
  window: number;
  start: number;
  end: number;
}

/** Payload fields with a keyword index: the scope (workspace as the tenant) and what filters select by. */
export const INDEXED_PAYLOAD_FIELDS = ['workspace', 'folder', 'model_id', 'item_id', 'chunk_id'] as const;

export const matchValue = (key: string, value: string | number): Schemas['FieldCondition'] => ({ key, match: { value } });
export const matchAny = (key: string, values: readonly string[]): Schemas['FieldCondition'] => ({ key, match: { any: [...values] } });

/** A filter that requires this scope and the given conditions. */
export function scopedPointFilter(scope: Scope, must: readonly PointCondition[] = [], mustNot: readonly PointCondition[] = []): PointFilter {
  const filter: PointFilter = { must: [matchValue('workspace', scope.workspace), matchValue('folder', scope.folder), ...must] };
  if (mustNot.length > 0) filter.must_not = [...mustNot];
  return filter;
}

/**
 * True when the filter requires both scope fields to equal this scope: a `must` condition
 * `{ key, match: { value } }` for each, and nothing else in that condition. A `should` cannot bind
 * them (one branch could match anything), nor a nested filter; `must_not` and `should` beside a
 * binding `must` only narrow the result further, so they are allowed.
 */
export function pointFilterBindsScope(filter: unknown, scope: Scope): boolean {
  if (!isPlainObject(filter)) return false;
  const must = filter.must;
  const conditions = Array.isArray(must) ? must : isPlainObject(must) ? [must] : [];
  return SCOPE_FIELDS.every((field) => conditions.some((condition) => bindsField(condition, field, scope[field])));
}

function bindsField(condition: unknown, field: string, value: string): boolean {
  if (!isPlainObject(condition) || condition.key !== field) return false;
  if (Object.keys(condition).some((name) => name !== 'key' && name !== 'match')) return false;
  const match = condition.match;
  return isPlainObject(match) && Object.keys(match).length === 1 && match.value === value;
}

/** A point to write carries exactly this scope in its payload. */
export function pointInScope(point: unknown, scope: Scope): boolean {
  if (!isPlainObject(point) || !isPlainObject(point.payload)) return false;
  return point.payload.workspace === scope.workspace && point.payload.folder === scope.folder;
}

/**
 * A query may only search by a vector given in full: a query by point id, a prefetch or a look-up
 * in another collection would read vectors the filter does not govern.
 */
function queryIsPlainVector(request: Record<string, unknown>): boolean {
  if (request.prefetch != null || request.lookup_from != null) return false;
  const query = request.query;
  const plain = (vector: unknown) => Array.isArray(vector) && vector.every((value) => typeof value === 'number');
  return plain(query) || (isPlainObject(query) && Object.keys(query).length === 1 && plain(query.nearest));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type PointQuery = Omit<Schemas['QueryRequest'], 'filter'> & { filter: PointFilter };
export type PointScroll = Omit<Schemas['ScrollRequest'], 'filter'> & { filter: PointFilter };

/**
 * Qdrant's points, bound to one scope. Each method checks its request with the functions above and
 * throws UnscopedOperationError before the client is called. Reading a point by id (`retrieve`) is
 * not offered: it takes no filter; a scroll with a `has_id` condition inside the scope does the same.
 */
export class ScopedPoints {
  constructor(
    private readonly client: QdrantClient,
    readonly scope: Scope,
  ) {}

  /** The scope's conditions with the given ones. */
  filter(must: readonly PointCondition[] = [], mustNot: readonly PointCondition[] = []): PointFilter {
    return scopedPointFilter(this.scope, must, mustNot);
  }

  /** Waits until the points are written, so what the caller records next describes points that exist. */
  async upsert(collection: string, points: Schemas['PointStruct'][]): Promise<void> {
    for (const point of points) {
      if (!pointInScope(point, this.scope)) throw new UnscopedOperationError(collection, 'upsert point (its payload must carry the workspace and folder)');
    }
    if (points.length === 0) return;
    await this.client.upsert(collection, { wait: true, points });
  }

  async query(collection: string, request: PointQuery): Promise<Schemas['ScoredPoint'][]> {
    this.requireQuery(collection, request, 'query');
    return (await this.client.query(collection, request)).points;
  }

  async queryBatch(collection: string, searches: readonly PointQuery[]): Promise<Schemas['ScoredPoint'][][]> {
    for (const request of searches) this.requireQuery(collection, request, 'batch query');
    if (searches.length === 0) return [];
    return (await this.client.queryBatch(collection, { searches: [...searches] })).map((response) => response.points);
  }

  /** The best points of each group (e.g. each item), grouped by a payload field. */
  async queryGroups(collection: string, request: PointQuery & { group_by: string; group_size: number }): Promise<Schemas['PointGroup'][]> {
    this.requireQuery(collection, request, 'grouped query');
    return (await this.client.queryGroups(collection, request)).groups;
  }

  async scroll(collection: string, request: PointScroll): Promise<Schemas['ScrollResult']> {
    this.requireFilter(collection, request.filter, 'scroll');
    return this.client.scroll(collection, request);
  }

  async count(collection: string, filter: PointFilter): Promise<number> {
    this.requireFilter(collection, filter, 'count');
    return (await this.client.count(collection, { filter, exact: true })).count;
  }

  /** Deletes by filter only (a list of ids would not be bound to the scope), and waits until it is applied. */
  async delete(collection: string, filter: PointFilter): Promise<void> {
    this.requireFilter(collection, filter, 'delete');
    await this.client.delete(collection, { wait: true, filter });
  }

  private requireQuery(collection: string, request: PointQuery, what: string): void {
    this.requireFilter(collection, request.filter, what);
    if (!queryIsPlainVector(request as unknown as Record<string, unknown>)) {
      throw new UnscopedOperationError(collection, `${what} (only a nearest-vector query given in full, without prefetch or look-up, stays inside the filter)`);
    }
  }

  private requireFilter(collection: string, filter: unknown, what: string): void {
    if (!pointFilterBindsScope(filter, this.scope)) throw new UnscopedOperationError(collection, `${what} filter`);
  }
}

/**
 * Creating the per-dimension collections and their payload indexes touches no workspace's points,
 * so it is outside ScopedPoints. Idempotent, and safe when two processes race to create the same
 * collection: the loser's "already exists" is checked and accepted.
 */
export async function ensureVectorCollection(client: QdrantClient, name: string, dims: number): Promise<void> {
  if (!(await client.collectionExists(name)).exists) {
    try {
      await client.createCollection(name, { vectors: { size: dims, distance: 'Cosine' } });
    } catch (error) {
      if (!(await client.collectionExists(name)).exists) throw error;
    }
  }
  const info = await client.getCollection(name);
  const vectors = info.config.params.vectors;
  const size = vectors && typeof (vectors as { size?: unknown }).size === 'number' ? (vectors as { size: number }).size : null;
  if (size !== dims) throw new Error(`Qdrant collection ${name} holds vectors of ${size ?? 'another shape'}, not ${dims} dimensions; it was not created by Relata`);
  const existing = info.payload_schema ?? {};
  for (const field of INDEXED_PAYLOAD_FIELDS) {
    if (existing[field]) continue;
    // The workspace is the tenant: Qdrant keeps each workspace's points together on disk.
    const schema: Schemas['KeywordIndexParams'] = field === 'workspace' ? { type: 'keyword', is_tenant: true } : { type: 'keyword' };
    await client.createPayloadIndex(name, { wait: true, field_name: field, field_schema: schema });
  }
}
