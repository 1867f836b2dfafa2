// Items on MongoDB: what ingest decides for a path (created, new version, unchanged, renamed,
// duplicate), the choice of an original among copies, skipped, failed and deleted files. The
// decisions are the SQLite store's (sqlite/sqliteStore.ts, decideIngest and its helpers), made
// without a multi-document transaction:
//
// - An item's versions live in its own document, so a new version and its record are one write.
// - Every decision ends in one write of the item, made only if the item is still as it was read
//   (its `rev`), or an insert the unique live-path index admits once; a lost race decides again.
// - What a decision must do to other documents after that write (parse the item, re-ingest its
//   copies, demote the original it displaced) is noted in the same write (`followUp`), done, and
//   then cleared. A crash in between leaves the note, and the next operation on the path finishes
//   it first, so no copy is left pointing at bytes its original no longer holds.
// - What must go before the write (the item's passages, vectors and extraction) is removed first:
//   a crash then leaves an item that serves less, never one that serves stale text.

import { randomUUID } from 'node:crypto';
import type { Filter, UpdateFilter } from 'mongodb';
import type { ItemStatus, PipelineStage } from '../../../../shared/types.ts';
import type { FileCheck, FileObservation, FileStats, IngestOutcome, IngestRun, ItemPath, ItemRecord, ItemStateCounts, ItemVersionRecord, ListItemsOptions, PathRange } from '../contract.ts';
import { compareOriginals } from '../preferredOriginal.ts';
import type { IngestFollowUp, ItemDocument } from './collections.ts';
import { toItemRecord, toVersionRecords } from './documents.ts';
import { isDuplicateKey } from './duplicateKey.ts';
import type { ScopedCollection } from './scope.ts';

/** What the items' decisions do to the rest of the store (the facade provides them). */
export interface ItemEffects {
  /** Everything derived from the item's bytes goes: vectors first, then passages, lexical entry and extraction. */
  dropContent(itemId: string): Promise<void>;
  enqueue(stage: PipelineStage, subject: string): Promise<void>;
  resetDiscovery(itemIds: readonly string[]): Promise<void>;
}

/** An item as read for a decision: the record, with what the guarded write compares. */
type ItemState = ItemRecord & Pick<ItemDocument, 'rev' | 'followUp' | 'versions'>;

/** An item's guarded write matched nothing: another process changed it after it was read. */
class LostRace extends Error {
  constructor(itemId: string) {
    super(`item ${itemId} changed while an ingest decision was made`);
  }
}

/** How often a decision is made again after losing a race, before the error is reported. */
const DECISION_ATTEMPTS = 5;

const now = (): string => new Date().toISOString();

const toState = (document: ItemDocument): ItemState => ({
  ...toItemRecord(document),
  rev: document.rev,
  followUp: document.followUp ?? null,
  versions: document.versions,
});

/** Reads of an item list leave out what only decisions need. */
const RECORD_ONLY = { projection: { versions: 0, followUp: 0 } } as const;

export class Items {
  constructor(
    private readonly items: ScopedCollection<ItemDocument>,
    private readonly effects: ItemEffects,
  ) {}

  // Reads ---------------------------------------------------------------------------------

  private async state(filter: Filter<ItemDocument>, sort?: Record<string, 1 | -1>): Promise<ItemState | null> {
    const document = await this.items.findOne(this.items.filter(filter), sort ? { sort } : undefined);
    return document ? toState(document) : null;
  }

  async byId(id: string): Promise<ItemRecord | null> {
    const document = await this.items.findOne(this.items.filter({ id }), RECORD_ONLY);
    return document ? toItemRecord(document) : null;
  }

  async liveAt(path: string): Promise<ItemRecord | null> {
    const document = await this.items.findOne(this.items.filter({ path, live: true }), RECORD_ONLY);
    return document ? toItemRecord(document) : null;
  }

  async list(options: ListItemsOptions = {}): Promise<ItemRecord[]> {
    const written = options.writtenSince !== undefined ? { updatedAt: { $gte: options.writtenSince } } : {};
    const cursor = options.includeDeleted
      ? this.items.find(this.items.filter(written), RECORD_ONLY).sort({ path: 1, createdAt: 1, _id: 1 })
      : this.items.find(this.items.filter({ live: true, ...written }), RECORD_ONLY).sort({ path: 1 });
    return (await cursor.toArray()).map(toItemRecord);
  }

  async versions(itemId: string): Promise<ItemVersionRecord[]> {
    const document = await this.items.findOne(this.items.filter({ id: itemId }), { projection: { versions: 1 } });
    return document ? toVersionRecords(document) : [];
  }

  async livePaths(): Promise<string[]> {
    const documents = await this.items.find(this.items.filter({ live: true }), { projection: { path: 1 } }).toArray();
    return documents.map((document) => document.path);
  }

  async recordFileCheck(itemPath: string, check: FileStats & { checkedMs: number }): Promise<void> {
    const { size, mtimeMs, ctimeMs, checkedMs } = check;
    await this.items.updateOne(this.items.filter({ live: true, path: itemPath }), { $set: { fileCheck: { size, mtimeMs, ctimeMs, checkedMs } } });
  }

  async fileChecks(): Promise<FileCheck[]> {
    const documents = await this.items
      .find(this.items.filter({ live: true, status: { $in: ['indexed', 'duplicate'] }, fileCheck: { $exists: true } }), {
        projection: { path: 1, status: 1, parserVersion: 1, fileCheck: 1 },
      })
      .toArray();
    return documents.map((document) => ({
      path: document.path,
      ...document.fileCheck!,
      parserVersion: document.parserVersion ?? null,
      duplicate: document.status === 'duplicate',
    }));
  }

  /**
   * Live indexed items in a stretch of paths whose folder is `slashes` deep. The items_status index
   * bounds the paths; the depth is checked on the index's keys by the pattern, as MongoDB indexes
   * no expression of a field.
   */
  async inPathRange(range: PathRange, limit: number): Promise<ItemPath[]> {
    const depth = new RegExp(`^[^/]*(?:/[^/]*){${range.slashes}}$`);
    const path = range.to === null ? { $gte: range.from, $regex: depth } : { $gte: range.from, $lt: range.to, $regex: depth };
    const documents = await this.items
      .find(this.items.filter({ status: 'indexed', live: true, path }), { projection: { id: 1, path: 1 } })
      .sort({ path: 1 })
      .limit(limit)
      .toArray();
    return documents.map(({ id, path: itemPath }) => ({ id, path: itemPath }));
  }

  /** The most slashes in a live indexed item's path: one pass over the items_status index's paths. */
  async deepestIndexedPath(): Promise<number | null> {
    const [deepest] = await this.items
      .aggregate<{ slashes: number }>([
        { $match: this.items.filter({ status: 'indexed', live: true }) },
        { $group: { _id: null, slashes: { $max: { $subtract: [{ $size: { $split: ['$path', '/'] } }, 1] } } } },
      ])
      .toArray();
    return deepest ? deepest.slashes : null;
  }

  async countByState(): Promise<ItemStateCounts> {
    const counts: ItemStateCounts = { pending: 0, indexed: 0, failed: 0, skipped: 0, duplicate: 0, unread: 0 };
    const groups = await this.items
      .aggregate<{ _id: { status: ItemStatus; unread: boolean }; n: number }>([
        { $match: this.items.filter({ live: true }) },
        {
          $group: {
            _id: {
              status: '$status',
              unread: { $and: [{ $eq: ['$status', 'indexed'] }, { $in: ['little_text', { $ifNull: ['$flags', []] }] }] },
            },
            n: { $sum: 1 },
          },
        },
      ])
      .toArray();
    for (const { _id, n } of groups) {
      if (_id.unread) counts.unread += n;
      else if (_id.status !== 'deleted') counts[_id.status] += n;
    }
    return counts;
  }

  async countIndexed(): Promise<number> {
    return this.items.countDocuments(this.items.filter({ status: 'indexed', live: true }));
  }

  /** Those of `ids` that are live items. */
  async liveIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const documents = await this.items.find(this.items.filter({ id: { $in: [...new Set(ids)] }, live: true }), { projection: { id: 1 } }).toArray();
    return new Set(documents.map((document) => document.id));
  }

  /** Live indexed items in path order, optionally only these. */
  async liveIndexedIds(itemIds?: readonly string[]): Promise<string[]> {
    const filter: Filter<ItemDocument> = { status: 'indexed', live: true, ...(itemIds ? { id: { $in: [...new Set(itemIds)] } } : {}) };
    const documents = await this.items.find(this.items.filter(filter), { projection: { id: 1 } }).sort({ path: 1 }).toArray();
    return documents.map((document) => document.id);
  }

  /** The paths of the live copies of an item. */
  private async copyPaths(itemId: string): Promise<string[]> {
    const copies = await this.items.find(this.items.filter({ duplicateOf: itemId, live: true }), { projection: { path: 1 } }).toArray();
    return copies.map((copy) => copy.path);
  }

  /** Live copies of the item that do not hold `held` (any bytes at all when null), as SQLite's `content_hash IS NOT @held`. */
  private async copiesNotHolding(itemId: string, held: string | null): Promise<string[]> {
    const copies = await this.items
      .find(this.items.filter({ duplicateOf: itemId, live: true, contentHash: { $ne: held } }), { projection: { path: 1 } })
      .toArray();
    return copies.map((copy) => copy.path);
  }

  // Writes -----------------------------------------------------------------------------------

  /** One write of an item, counted in its `rev`; with `rev`, only if nobody wrote it since it was read. */
  async update(id: string, set: Partial<ItemDocument>, conditions: Filter<ItemDocument> = {}, extra: UpdateFilter<ItemDocument> = {}): Promise<boolean> {
    const result = await this.items.updateOne(this.items.filter({ ...conditions, id }), { ...extra, $set: set, $inc: { rev: 1 } });
    return result.matchedCount === 1;
  }

  private async guardedUpdate(item: ItemState, set: Partial<ItemDocument>, extra: UpdateFilter<ItemDocument> = {}): Promise<void> {
    if (!(await this.update(item.id, set, { rev: item.rev }, extra))) throw new LostRace(item.id);
  }

  private async insert(fields: Omit<ItemDocument, 'workspace' | 'folder' | 'rev' | 'versions' | 'followUp' | 'live'> & Partial<ItemDocument>): Promise<void> {
    await this.items.insertOne(this.items.document({ versions: [], followUp: null, rev: 0, ...fields, live: fields.deletedAt === null }));
  }

  /** Decide again after a lost race or after another process created the live item at this path first. */
  private async decided<T>(decide: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await decide();
      } catch (error) {
        if (attempt >= DECISION_ATTEMPTS || !(error instanceof LostRace || isDuplicateKey(error))) throw error;
      }
    }
  }

  /** The live item at a path, after finishing what an earlier decision on it left undone. */
  private async liveStateAt(path: string): Promise<ItemState | null> {
    const live = await this.state({ path, live: true });
    if (!live?.followUp) return live;
    await this.finishFollowUp(live.id, live.followUp);
    return this.state({ path, live: true });
  }

  private async finishFollowUp(itemId: string, followUp: IngestFollowUp): Promise<void> {
    if (followUp.demote) await this.demoteOriginal(followUp.demote, itemId);
    if (followUp.parse) await this.effects.enqueue('parse', itemId);
    if (followUp.requeueCopies) {
      for (const path of await this.copiesNotHolding(itemId, followUp.requeueCopies.holding)) await this.effects.enqueue('ingest', path);
    }
    // Only this note: a later decision's note stays until that decision finishes it.
    await this.items.updateOne(this.items.filter({ id: itemId, 'followUp.token': followUp.token }), { $set: { followUp: null } });
  }

  private followUp(parts: Partial<Omit<IngestFollowUp, 'token'>>): IngestFollowUp {
    return { token: randomUUID(), parse: false, requeueCopies: null, demote: null, ...parts };
  }

  async recordIngest(observation: FileObservation, isOnDisk: (path: string) => boolean, run?: IngestRun): Promise<IngestOutcome> {
    return this.decided(() => this.decideIngest(observation, isOnDisk, run));
  }

  private async decideIngest(observation: FileObservation, isOnDisk: (path: string) => boolean, run?: IngestRun): Promise<IngestOutcome> {
    const { path: itemPath, contentHash } = observation;
    const live = await this.liveStateAt(itemPath);

    if (live && live.contentHash === contentHash && live.status !== 'skipped') {
      const original = live.duplicateOf ? await this.byId(live.duplicateOf) : null;
      const stillDuplicate = original && !original.deletedAt && original.contentHash === contentHash;
      if (live.status !== 'duplicate' || stillDuplicate) return { kind: 'unchanged', itemId: live.id };
    }

    // Other items holding these exact bytes: the live ones make this a duplicate, unless their file
    // is gone from disk, in which case this is the same document under a new path.
    const sameBytes = (
      await this.items
        .find(this.items.filter({ contentHash, path: { $ne: itemPath }, status: { $nin: ['duplicate', 'skipped'] } }))
        .sort({ live: -1, createdAt: 1, _id: 1 })
        .toArray()
    ).map(toState);
    const original = sameBytes.find((item) => !item.deletedAt && isOnDisk(item.path));
    if (original) {
      if (run && this.displacesOriginal(observation, original, run)) return this.recordOriginal(live, observation, original.id);
      const itemId = await this.upsertDuplicate(live, observation, original.id);
      return { kind: 'duplicate', itemId, duplicateOf: original.id };
    }
    const moved = live ? undefined : sameBytes[0];
    if (moved) {
      const wasTombstoned = moved.deletedAt !== null;
      const followUp = wasTombstoned ? this.followUp({ parse: true }) : null;
      await this.guardedUpdate(moved, {
        path: itemPath,
        deletedAt: null,
        forgottenAt: null,
        live: true,
        updatedAt: now(),
        ...(wasTombstoned ? { status: 'pending' as const } : {}),
        // A live item moved keeps any note an earlier decision left on it, finished by the next ingest of its new path.
        ...(followUp ? { followUp } : {}),
      });
      if (followUp) await this.finishFollowUp(moved.id, followUp);
      return { kind: 'renamed', itemId: moved.id, fromPath: moved.path, needsParse: wasTombstoned };
    }

    return this.recordOriginal(live, observation, null);
  }

  /**
   * These bytes become the item at this path (created, revived or a new version) and are parsed;
   * with `displaced`, the original it takes the place of becomes its copy.
   */
  private async recordOriginal(
    live: ItemState | null,
    observation: FileObservation,
    displaced: string | null,
  ): Promise<{ kind: 'created' | 'new_version'; itemId: string }> {
    const { path: itemPath, contentHash, size } = observation;
    const reusable = live ?? (await this.state({ path: itemPath, live: false }, { deletedAt: -1 }));
    const itemId = reusable?.id ?? randomUUID();
    const version = (reusable?.version ?? 0) + 1;
    const stamp = now();
    // Its copies take over its old bytes, and with them its passages, whose ids come from those
    // bytes (chunkId): dropped first, so the copy's own chunking cannot collide with them.
    if (live && (await this.copiesNotHolding(live.id, contentHash)).length > 0) await this.effects.dropContent(live.id);
    // A copy that becomes the original was discovered as a copy, with these very bytes: that says nothing of its content.
    await this.effects.resetDiscovery([itemId]);
    const followUp = this.followUp({ parse: true, requeueCopies: live ? { holding: contentHash } : null, demote: displaced });
    const fields = {
      status: 'pending' as const,
      reason: null,
      duplicateOf: null,
      contentHash,
      size,
      version,
      flags: [],
      deletedAt: null,
      forgottenAt: null,
      live: true,
      updatedAt: stamp,
      followUp,
    };
    const versionRecord = { version, contentHash, size, createdAt: stamp };
    if (reusable) {
      await this.guardedUpdate(reusable, fields, { $push: { versions: versionRecord } });
    } else {
      await this.insert({ ...fields, id: itemId, path: itemPath, title: null, parserVersion: null, createdAt: stamp, versions: [versionRecord] });
    }
    await this.finishFollowUp(itemId, followUp);
    return { kind: reusable ? 'new_version' : 'created', itemId };
  }

  /**
   * True when the file being ingested should take the place of the live original with its bytes:
   * that original's bytes were first recorded in this same run (an established original is never
   * displaced) and the newcomer is the one store/preferredOriginal.ts prefers.
   */
  private displacesOriginal(observation: FileObservation, original: ItemState, run: IngestRun): boolean {
    const recorded = original.versions.find((version) => version.version === original.version);
    if (!recorded || recorded.createdAt < run.startedAt) return false;
    const newcomer = { path: observation.path, modifiedMs: observation.modifiedMs ?? null };
    return compareOriginals(newcomer, { path: original.path, modifiedMs: run.modifiedMs(original.path) }) < 0;
  }

  /** The former original and its copies become copies of the new one; nothing of it is served any more. Idempotent. */
  private async demoteOriginal(formerId: string, originalId: string): Promise<void> {
    await this.effects.dropContent(formerId);
    const stamp = now();
    await this.update(formerId, { status: 'duplicate', reason: null, duplicateOf: originalId, updatedAt: stamp });
    await this.items.updateMany(this.items.filter({ duplicateOf: formerId, id: { $ne: originalId } }), {
      $set: { duplicateOf: originalId, updatedAt: stamp },
      $inc: { rev: 1 },
    });
  }

  private async upsertDuplicate(live: ItemState | null, observation: FileObservation, originalId: string): Promise<string> {
    const stamp = now();
    if (live) {
      await this.effects.dropContent(live.id);
      const followUp = this.followUp({ requeueCopies: { holding: observation.contentHash } });
      await this.guardedUpdate(live, {
        status: 'duplicate',
        reason: null,
        duplicateOf: originalId,
        contentHash: observation.contentHash,
        size: observation.size,
        updatedAt: stamp,
        followUp,
      });
      await this.finishFollowUp(live.id, followUp);
      return live.id;
    }
    const id = randomUUID();
    await this.insert({
      ...blankItem(id, observation.path, stamp),
      status: 'duplicate',
      duplicateOf: originalId,
      contentHash: observation.contentHash,
      size: observation.size,
    });
    return id;
  }

  async chooseOriginal(itemPath: string): Promise<{ itemId: string; formerOriginalId: string }> {
    return this.decided(async () => {
      const chosen = await this.liveStateAt(itemPath);
      if (!chosen) throw new Error(`${itemPath}: no item at this path in the index`);
      const former = chosen.duplicateOf ? await this.byId(chosen.duplicateOf) : null;
      if (chosen.status !== 'duplicate' || !former || former.deletedAt || !chosen.contentHash) {
        throw new Error(`${itemPath} is not a copy of another file in the index, so it is already its own original`);
      }
      const promoted = await this.recordOriginal(chosen, { path: itemPath, contentHash: chosen.contentHash, size: chosen.size ?? 0 }, former.id);
      return { itemId: promoted.itemId, formerOriginalId: former.id };
    });
  }

  async recordSkipped(itemPath: string, reason: string, size: number | null): Promise<void> {
    await this.decided(async () => {
      const live = await this.liveStateAt(itemPath);
      if (live) {
        await this.effects.dropContent(live.id);
        const followUp = this.followUp({ requeueCopies: { holding: null } });
        await this.guardedUpdate(live, { status: 'skipped', reason, size, duplicateOf: null, contentHash: null, updatedAt: now(), followUp });
        await this.finishFollowUp(live.id, followUp);
        return;
      }
      await this.insert({ ...blankItem(randomUUID(), itemPath, now()), status: 'skipped', reason, size });
    });
  }

  /**
   * The bytes at this path are unknown now, so the item loses its hash (a readable file is then
   * ingested afresh, not taken as unchanged) and its duplicates stop pointing at it: their paths
   * are returned, for the caller to ingest again.
   */
  async recordFailed(itemPath: string, reason: string): Promise<string[]> {
    return this.decided(async () => {
      const live = await this.liveStateAt(itemPath);
      if (!live) {
        await this.insert({ ...blankItem(randomUUID(), itemPath, now()), status: 'failed', reason });
        return [];
      }
      await this.effects.dropContent(live.id);
      await this.update(live.id, { status: 'failed', reason, duplicateOf: null, contentHash: null, flags: [], updatedAt: now() });
      return this.copyPaths(live.id);
    });
  }

  /** A first ingest that keeps failing (the job queue's hook): the live item at the path, created failed if there is none. */
  async failIngestPath(itemPath: string, reason: string): Promise<string> {
    return this.decided(async () => {
      const live = await this.liveAt(itemPath);
      if (live) return live.id;
      const id = randomUUID();
      await this.insert({ ...blankItem(id, itemPath, now()), status: 'failed', reason });
      return id;
    });
  }

  /** The item stops serving anything: its content is dropped and it is marked failed, if it is live (idempotent). */
  async failItem(itemId: string, reason: string): Promise<void> {
    await this.effects.dropContent(itemId);
    await this.update(itemId, { status: 'failed', reason, updatedAt: now() }, { live: true });
  }

  /** The item cannot be read; `parserVersion` records which parser said so. Copies are not failed: their original is. */
  async markFailed(itemId: string, reason: string, parserVersion?: string): Promise<void> {
    await this.effects.dropContent(itemId);
    await this.update(
      itemId,
      { status: 'failed', reason, updatedAt: now(), flags: [], ...(parserVersion === undefined ? {} : { parserVersion }) },
      { live: true, status: { $ne: 'duplicate' } },
    );
  }

  /** A file is gone: its item is tombstoned; returns the paths of its copies, which must be ingested again. */
  async tombstone(itemPath: string): Promise<string[]> {
    const live = await this.liveStateAt(itemPath);
    if (!live) return [];
    await this.effects.dropContent(live.id);
    const stamp = now();
    await this.update(live.id, { status: 'deleted', deletedAt: stamp, live: false, updatedAt: stamp });
    return this.copyPaths(live.id);
  }

  /** `relata forget`, last step for an item: the record stays, what it said of the document goes. */
  async markForgotten(itemId: string, stamp: string): Promise<void> {
    await this.update(itemId, { title: null, reason: null, flags: [], forgottenAt: stamp, updatedAt: stamp });
  }
}

/** The fields of a new item before its status says what it is. */
function blankItem(id: string, itemPath: string, stamp: string) {
  return {
    id,
    path: itemPath,
    title: null,
    reason: null,
    duplicateOf: null,
    contentHash: null,
    size: null,
    version: 0,
    parserVersion: null,
    flags: [],
    createdAt: stamp,
    updatedAt: stamp,
    deletedAt: null,
    forgottenAt: null,
  };
}
