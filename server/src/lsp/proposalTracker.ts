// What was pending after a folder's last pass, and every live file's version, kept up to date
// from what the store wrote since (items and relationships by their updatedAt, through an index),
// so the note on what a pass did to the proposals (proposalChanges.ts) costs what the pass changed,
// not the folder's size (issue 32). Reading every relationship and every item after each pass made a
// save in a folder of 100,000 notes cost seconds of the server's time. Only the first look reads
// everything, and a look after the strength threshold changed, since that changes what is pending.

import type { ItemRecord, RelationshipRecord, WorkspaceStore } from '../store/contract.ts';
import { proposalChanges, type ProposalChanges, type ProposalSnapshot } from './proposalChanges.ts';

/**
 * How far before a look the next one reads back: a write stamps its time before it commits, so one
 * stamped just before a look may become visible only after it. Reading back a minute costs what was
 * written in that minute; a transaction longer than that would not be seen until its rows change again.
 */
const WRITE_MARGIN_MS = 60_000;

/** relationshipsTouching's ids per call: a pass that touched every item asks in slices. */
const TOUCHING_BATCH = 1_000;

interface PendingEntry {
  type: string;
  score: string;
  ends: readonly [string, string];
}

export class ProposalTracker {
  private readonly pending = new Map<string, PendingEntry>();
  private readonly pendingOf = new Map<string, Set<string>>();
  /** Live files by path, and each live item's path, to undo an item's entry when it moves or goes. */
  private readonly files = new Map<string, { id: string; version: number }>();
  private readonly pathOf = new Map<string, string>();
  private since: string | null = null;
  private threshold: number | null = null;

  constructor(private readonly writeMarginMs = WRITE_MARGIN_MS) {}

  /** The looks one after another: two passes ending together must not both read from the same moment. */
  private latest: Promise<unknown> = Promise.resolve();

  /** What the store's writes since the last look did to the pending proposals; null on the first look. */
  look(store: WorkspaceStore, storeScore: number): Promise<ProposalChanges | null> {
    const next = this.latest.catch(() => undefined).then(() => this.lookNow(store, storeScore));
    this.latest = next;
    return next;
  }

  private async lookNow(store: WorkspaceStore, storeScore: number): Promise<ProposalChanges | null> {
    const started = new Date(Date.now() - this.writeMarginMs).toISOString();
    const first = this.since === null;
    const changes =
      this.since === null || this.threshold !== storeScore ? await this.readAll(store, storeScore) : await this.readSince(store, storeScore, this.since);
    this.since = started;
    this.threshold = storeScore;
    return first ? null : changes;
  }

  private async readAll(store: WorkspaceStore, storeScore: number): Promise<ProposalChanges> {
    const records = await store.listRelationships({ minPendingScore: storeScore });
    const items = await store.listItems();
    const relationshipIds = new Set([...this.pending.keys(), ...records.map((record) => record.id)]);
    const paths = new Set([...this.files.keys(), ...items.map((item) => item.path)]);
    return this.apply(storeScore, relationshipIds, records, paths, items, [...this.pathOf.keys(), ...items.map((item) => item.id)]);
  }

  private async readSince(store: WorkspaceStore, storeScore: number, since: string): Promise<ProposalChanges> {
    const items = await store.listItems({ includeDeleted: true, writtenSince: since });
    const itemIds = [...new Set(items.map((item) => item.id))];
    // Under the threshold too: a proposal rescored below it leaves the pending list. And a
    // relationship leaves the list when an end is deleted and comes back when it is revived, its
    // own row unchanged: found through the items written.
    const records = new Map((await store.listRelationships({ writtenSince: since })).map((record) => [record.id, record]));
    for (let start = 0; start < itemIds.length; start += TOUCHING_BATCH) {
      for (const record of await store.relationshipsTouching(itemIds.slice(start, start + TOUCHING_BATCH))) records.set(record.id, record);
    }
    const relationshipIds = new Set(records.keys());
    for (const itemId of itemIds) for (const id of this.pendingOf.get(itemId) ?? []) relationshipIds.add(id);
    const paths = new Set<string>();
    for (const item of items) {
      const was = this.pathOf.get(item.id);
      if (was !== undefined) paths.add(was);
      paths.add(item.path);
    }
    return this.apply(storeScore, relationshipIds, [...records.values()], paths, items, itemIds);
  }

  /**
   * Compares what was known of these relationships and paths with what the store holds now (the
   * rest is unchanged on both sides, so the comparison is the whole snapshots'), then keeps the new state. `records` are the current
   * relationships among `relationshipIds` between live items; `items` the current rows of `itemIds`.
   */
  private apply(
    storeScore: number,
    relationshipIds: ReadonlySet<string>,
    records: readonly RelationshipRecord[],
    paths: ReadonlySet<string>,
    items: readonly ItemRecord[],
    itemIds: readonly string[],
  ): ProposalChanges {
    const nowPending = new Map<string, PendingEntry>();
    const decided = new Set<string>();
    for (const record of records) {
      // listRelationships leaves out pending proposals under the threshold; relationshipsTouching does not.
      if (record.status === 'pending' && record.score >= storeScore) {
        nowPending.set(record.id, { type: record.type, score: record.score.toFixed(2), ends: [record.fromItemId, record.toItemId] });
      } else if (record.status !== 'pending') decided.add(record.id);
    }
    const liveNow = items.filter((item) => !item.deletedAt && item.status !== 'deleted');
    const before = this.snapshot(relationshipIds, paths);
    for (const id of relationshipIds) this.forgetPending(id);
    for (const [id, entry] of nowPending) this.keepPending(id, entry);
    for (const itemId of itemIds) {
      const path = this.pathOf.get(itemId);
      if (path !== undefined && this.files.get(path)?.id === itemId) this.files.delete(path);
      this.pathOf.delete(itemId);
    }
    for (const item of liveNow) {
      this.files.set(item.path, { id: item.id, version: item.version });
      this.pathOf.set(item.id, item.path);
    }
    return proposalChanges(before, this.snapshot(relationshipIds, paths), decided);
  }

  /** The part of the snapshot these relationships and paths make. */
  private snapshot(relationshipIds: ReadonlySet<string>, paths: ReadonlySet<string>): ProposalSnapshot {
    const pending = new Map<string, { type: string; score: string }>();
    for (const id of relationshipIds) {
      const entry = this.pending.get(id);
      if (entry) pending.set(id, { type: entry.type, score: entry.score });
    }
    const versions = new Map<string, number>();
    for (const path of paths) {
      const file = this.files.get(path);
      if (file) versions.set(path, file.version);
    }
    return { pending, versions };
  }

  private keepPending(id: string, entry: PendingEntry): void {
    this.pending.set(id, entry);
    for (const end of entry.ends) this.pendingOf.set(end, (this.pendingOf.get(end) ?? new Set()).add(id));
  }

  private forgetPending(id: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    for (const end of entry.ends) {
      const ids = this.pendingOf.get(end);
      ids?.delete(id);
      if (ids?.size === 0) this.pendingOf.delete(end);
    }
  }
}
