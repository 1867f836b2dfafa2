// The privacy boundary on a shared MongoDB: a store is opened for one workspace and one folder,
// and every document it reads or writes carries both. Every operation goes through a
// ScopedCollection, which refuses, before anything reaches the server, a filter, an update, a
// document or a pipeline that is not bound to the scope. It checks the objects themselves (the
// analogue of the SQLite statement guard), so a forgotten filter is an error in a test, not a
// leak in production.

import type {
  AggregateOptions,
  AnyBulkWriteOperation,
  BulkWriteOptions,
  Collection,
  CountDocumentsOptions,
  Db,
  DeleteOptions,
  Document,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  InsertOneOptions,
  OptionalUnlessRequiredId,
  UpdateFilter,
  UpdateOptions,
  WithId,
} from 'mongodb';

export interface Scope {
  workspace: string;
  folder: string;
}

/** The fields that carry the scope on every document (and, in Qdrant, on every point's payload). */
export const SCOPE_FIELDS = ['workspace', 'folder'] as const;

export class UnscopedOperationError extends Error {
  constructor(collection: string, what: string) {
    super(`refused an unscoped ${what} on ${collection}: every operation must be bound to the store's workspace and folder`);
    this.name = 'UnscopedOperationError';
  }
}

/** The scope's equality fields with `filter`'s own conditions. */
export function scopedFilter<T extends Document>(scope: Scope, filter: Filter<T> = {}): Filter<T> {
  return { workspace: scope.workspace, folder: scope.folder, ...filter } as Filter<T>;
}

/**
 * True when the filter binds both scope fields to exactly this scope: as top-level equalities
 * (plain values or `{ $eq: value }`), or inside one clause of a top-level `$and`. An `$or` or a
 * `$nor` cannot bind them, since one branch could match anything.
 */
export function bindsScope(filter: unknown, scope: Scope): boolean {
  if (!isPlainObject(filter)) return false;
  return SCOPE_FIELDS.every((field) => bindsField(filter, field, scope[field]));
}

function bindsField(filter: Record<string, unknown>, field: string, value: string): boolean {
  if (Object.hasOwn(filter, field)) {
    const condition = filter[field];
    if (condition === value) return true;
    if (isPlainObject(condition) && Object.keys(condition).length === 1 && condition.$eq === value) return true;
    return false;
  }
  const and = filter.$and;
  return Array.isArray(and) && and.some((clause) => isPlainObject(clause) && bindsField(clause, field, value));
}

/**
 * An update may not move a document out of its scope: no operator touches a scope field, except
 * `$setOnInsert` of exactly the scope's own values (how an upsert creates a scoped document).
 * Without a scope, `$setOnInsert` of a scope field is refused too: an upsert could otherwise
 * create its document in another workspace, since the update's values win over the filter's.
 */
export function updateKeepsScope(update: unknown, scope?: Scope): boolean {
  if (Array.isArray(update)) return false; // update pipelines can compute anything; the store never needs them
  if (!isPlainObject(update)) return false;
  const touchesScope = (path: string) => SCOPE_FIELDS.some((field) => path === field || path.startsWith(`${field}.`));
  for (const [operator, fields] of Object.entries(update)) {
    if (!operator.startsWith('$')) return false; // a replacement passed as an update
    if (!isPlainObject(fields)) continue;
    for (const [path, value] of Object.entries(fields)) {
      if (!touchesScope(path)) continue;
      const ownValue = scope !== undefined && SCOPE_FIELDS.some((field) => path === field && value === scope[field]);
      if (operator === '$setOnInsert' && ownValue) continue;
      return false;
    }
    if (operator === '$rename' && Object.values(fields).some((target) => typeof target !== 'string' || touchesScope(target))) return false;
  }
  return true;
}

/** A document to insert (or a replacement) carries exactly this scope. */
export function documentInScope(document: unknown, scope: Scope): boolean {
  return isPlainObject(document) && document.workspace === scope.workspace && document.folder === scope.folder;
}

/** Stages that read another collection or write one; each must be scoped on its own. */
const FORBIDDEN_STAGES = new Set(['$out', '$merge', '$graphLookup', '$collStats', '$indexStats', '$currentOp', '$listSessions', '$documents', '$changeStream']);

/**
 * A pipeline is scoped when its first stage is a `$match` that binds the scope (a `$search` or
 * text stage is not used by this store), and every `$lookup` or `$unionWith` runs a sub-pipeline
 * that is itself scoped: a `$lookup` by localField/foreignField alone would join across
 * workspaces.
 */
export function pipelineIsScoped(pipeline: unknown, scope: Scope): boolean {
  if (!Array.isArray(pipeline) || pipeline.length === 0) return false;
  const [first] = pipeline;
  if (!isPlainObject(first) || !bindsScope(first.$match, scope)) return false;
  return pipeline.every((stage) => stageIsScoped(stage, scope));
}

function stageIsScoped(stage: unknown, scope: Scope): boolean {
  if (!isPlainObject(stage)) return false;
  const names = Object.keys(stage);
  const name = names[0];
  if (names.length !== 1 || name === undefined) return false;
  if (FORBIDDEN_STAGES.has(name)) return false;
  if (name === '$lookup') {
    const lookup = stage.$lookup;
    return isPlainObject(lookup) && pipelineIsScoped(lookup.pipeline, scope);
  }
  if (name === '$unionWith') {
    const union = stage.$unionWith;
    return isPlainObject(union) && pipelineIsScoped(union.pipeline, scope);
  }
  if (name === '$facet') {
    const facets = stage.$facet;
    return isPlainObject(facets) && Object.values(facets).every((sub) => Array.isArray(sub) && sub.every((inner) => stageIsScoped(inner, scope)));
  }
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * A collection bound to one scope. Every method checks its arguments with the functions above and
 * throws UnscopedOperationError before the driver is called. The store holds only these, never a
 * bare Collection.
 */
export class ScopedCollection<T extends Document> {
  constructor(
    private readonly collection: Collection<T>,
    readonly scope: Scope,
  ) {}

  get name(): string {
    return this.collection.collectionName;
  }

  /** The scope's equality fields with the given conditions. */
  filter(conditions: Filter<T> = {}): Filter<T> {
    return scopedFilter(this.scope, conditions);
  }

  /** A document of this scope: the scope's fields added to its own. */
  document(fields: Omit<T, 'workspace' | 'folder'>): OptionalUnlessRequiredId<T> {
    return { ...fields, workspace: this.scope.workspace, folder: this.scope.folder } as unknown as OptionalUnlessRequiredId<T>;
  }

  find(filter: Filter<T>, options?: FindOptions) {
    this.requireFilter(filter, 'find');
    return this.collection.find(filter, options);
  }

  findOne(filter: Filter<T>, options?: FindOptions): Promise<WithId<T> | null> {
    this.requireFilter(filter, 'findOne');
    return this.collection.findOne(filter, options);
  }

  countDocuments(filter: Filter<T>, options?: CountDocumentsOptions): Promise<number> {
    this.requireFilter(filter, 'countDocuments');
    return this.collection.countDocuments(filter, options);
  }

  distinct(key: string, filter: Filter<T>) {
    this.requireFilter(filter, 'distinct');
    return this.collection.distinct(key, filter);
  }

  insertOne(document: OptionalUnlessRequiredId<T>, options?: InsertOneOptions) {
    this.requireDocument(document, 'insertOne');
    return this.collection.insertOne(document, options);
  }

  insertMany(documents: readonly OptionalUnlessRequiredId<T>[], options?: BulkWriteOptions) {
    for (const document of documents) this.requireDocument(document, 'insertMany');
    return this.collection.insertMany(documents, options);
  }

  updateOne(filter: Filter<T>, update: UpdateFilter<T>, options?: UpdateOptions) {
    this.requireFilter(filter, 'updateOne');
    this.requireUpdate(update, 'updateOne');
    return this.collection.updateOne(filter, update, options);
  }

  updateMany(filter: Filter<T>, update: UpdateFilter<T>, options?: UpdateOptions) {
    this.requireFilter(filter, 'updateMany');
    this.requireUpdate(update, 'updateMany');
    return this.collection.updateMany(filter, update, options);
  }

  replaceOne(filter: Filter<T>, replacement: T, options?: UpdateOptions) {
    this.requireFilter(filter, 'replaceOne');
    this.requireDocument(replacement, 'replaceOne');
    return this.collection.replaceOne(filter, replacement, options);
  }

  findOneAndUpdate(filter: Filter<T>, update: UpdateFilter<T>, options: FindOneAndUpdateOptions = {}): Promise<WithId<T> | null> {
    this.requireFilter(filter, 'findOneAndUpdate');
    this.requireUpdate(update, 'findOneAndUpdate');
    return this.collection.findOneAndUpdate(filter, update, { ...options, includeResultMetadata: false });
  }

  deleteOne(filter: Filter<T>, options?: DeleteOptions) {
    this.requireFilter(filter, 'deleteOne');
    return this.collection.deleteOne(filter, options);
  }

  deleteMany(filter: Filter<T>, options?: DeleteOptions) {
    this.requireFilter(filter, 'deleteMany');
    return this.collection.deleteMany(filter, options);
  }

  aggregate<R extends Document = Document>(pipeline: Document[], options?: AggregateOptions) {
    if (!pipelineIsScoped(pipeline, this.scope)) throw new UnscopedOperationError(this.name, 'aggregation pipeline');
    return this.collection.aggregate<R>(pipeline, options);
  }

  bulkWrite(operations: readonly AnyBulkWriteOperation<T>[], options?: BulkWriteOptions) {
    for (const operation of operations) this.requireBulkOperation(operation);
    return this.collection.bulkWrite(operations, options);
  }

  private requireBulkOperation(operation: AnyBulkWriteOperation<T>): void {
    if ('insertOne' in operation) return this.requireDocument(operation.insertOne.document, 'bulk insertOne');
    if ('replaceOne' in operation) {
      this.requireFilter(operation.replaceOne.filter, 'bulk replaceOne');
      return this.requireDocument(operation.replaceOne.replacement, 'bulk replaceOne');
    }
    if ('updateOne' in operation) {
      this.requireFilter(operation.updateOne.filter, 'bulk updateOne');
      return this.requireUpdate(operation.updateOne.update, 'bulk updateOne');
    }
    if ('updateMany' in operation) {
      this.requireFilter(operation.updateMany.filter, 'bulk updateMany');
      return this.requireUpdate(operation.updateMany.update, 'bulk updateMany');
    }
    if ('deleteOne' in operation) return this.requireFilter(operation.deleteOne.filter, 'bulk deleteOne');
    if ('deleteMany' in operation) return this.requireFilter(operation.deleteMany.filter, 'bulk deleteMany');
    throw new UnscopedOperationError(this.name, 'bulk operation of an unknown kind');
  }

  private requireFilter(filter: unknown, what: string): void {
    if (!bindsScope(filter, this.scope)) throw new UnscopedOperationError(this.name, `${what} filter`);
  }

  private requireUpdate(update: unknown, what: string): void {
    if (!updateKeepsScope(update, this.scope)) throw new UnscopedOperationError(this.name, `${what} update (it may not change workspace or folder)`);
  }

  private requireDocument(document: unknown, what: string): void {
    if (!documentInScope(document, this.scope)) throw new UnscopedOperationError(this.name, `${what} document`);
  }
}

/** The database as the store sees it: every collection it hands out is bound to the scope. */
export class ScopedDb {
  constructor(
    private readonly db: Db,
    readonly scope: Scope,
  ) {}

  collection<T extends Document>(name: string): ScopedCollection<T> {
    return new ScopedCollection<T>(this.db.collection<T>(name), this.scope);
  }

  /**
   * The unscoped collection, for what is not a workspace's data: creating indexes (each of which
   * leads with the scope fields) and GridFS, whose files are content-addressed and shared like the
   * SQLite store's blobs. Named so that every use stands out in review.
   */
  storeWide<T extends Document>(name: string): Collection<T> {
    return this.db.collection<T>(name);
  }
}
