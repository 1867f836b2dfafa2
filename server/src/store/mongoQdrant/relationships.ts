// Relationships in MongoDB: one document per item pair (the dedupe key), plus an append-only
// history, with the SQLite store's semantics (sqlite/relationshipTables.ts): discovery's evidence
// and the pair's standing decision meet inside one write, nothing deletes a relationship, and
// forgetting a document only redacts what its relationships quote from it.
//
// Without transactions, "inside one write" is optimistic concurrency: each document carries a
// revision; a write reads the document, applies the review rule (or the decision) to it, and
// updates it on condition that the revision is still the one it read, else reads and applies the
// rule again. A decision committed at any moment is therefore the one the rule saw.
//
// The history entry of a write travels in the same atomic update, as the document's
// `pendingEvent`, and is then appended to the events collection under an id derived from the
// relationship id and the new revision, and cleared. A crash between the two leaves the entry on
// the document; the next write to that relationship appends it first (the id makes a second append
// a no-op), and reads of the history include it meanwhile. No entry is lost or written twice.

import type { OptionalUnlessRequiredId } from 'mongodb';
import { restsOnLinks } from '../../../../shared/linkedInDocuments.ts';
import { passesFilter, type UnitMembers } from '../../../../shared/proposalPages.ts';
import { byReviewOrder } from '../../../../shared/reviewOrder.ts';
import type { RelationshipStatus } from '../../../../shared/types.ts';
import type {
  ProposalOutcome,
  ProposalQuery,
  RelationshipDecision,
  RelationshipEvent,
  RelationshipFilter,
  RelationshipGroup,
  RelationshipProposal,
  RelationshipRecord,
  ReviewRule,
  ReviewedProposal,
} from '../contract.ts';
import type { RelationshipEventExchange, RelationshipExchange } from '../exchange/records.ts';
import { evidenceOf, pairKey, redactQuotes, relationshipId } from '../relationshipRules.ts';
import { isDuplicateKey } from './duplicateKey.ts';
import type { LiveItems, RecordImporter, RelationshipMaintenance } from './hooks.ts';
import type { IndexSpec } from './collections.ts';
import type { ScopedCollection, ScopedDb } from './scope.ts';

export const RELATIONSHIPS_COLLECTION = 'relationships';
export const RELATIONSHIP_EVENTS_COLLECTION = 'relationship_events';

/** An event as stored: the contract's RelationshipEvent, whose relationship, and where it sorts. */
export interface EventFields extends RelationshipEvent {
  /** `<relationship id>:<revision>` for the store's own writes; unique in the scope, so an append is idempotent. */
  eventId: string;
  relationshipId: string;
  /** Orders entries with the same time: the relationship's revision the entry was written with. */
  sequence: number;
}

export interface RelationshipEventDocument extends EventFields {
  workspace: string;
  folder: string;
}

export interface RelationshipDocument extends RelationshipRecord {
  workspace: string;
  folder: string;
  /** The unordered pair (sqlite pairKey): unique in the scope. */
  pairKey: string;
  /** Bumped by every write; a write applies only if the revision is still the one it read. */
  revision: number;
  /** The history entry of the last write, until it is in the events collection. */
  pendingEvent: EventFields | null;
}

export const RELATIONSHIP_INDEXES: readonly IndexSpec[] = [
  { collection: RELATIONSHIPS_COLLECTION, key: { workspace: 1, folder: 1, id: 1 }, unique: true, name: 'relationships_id' },
  { collection: RELATIONSHIPS_COLLECTION, key: { workspace: 1, folder: 1, pairKey: 1 }, unique: true, name: 'relationships_pair' },
  { collection: RELATIONSHIPS_COLLECTION, key: { workspace: 1, folder: 1, fromItemId: 1 }, unique: false, name: 'relationships_from' },
  { collection: RELATIONSHIPS_COLLECTION, key: { workspace: 1, folder: 1, toItemId: 1 }, unique: false, name: 'relationships_to' },
  { collection: RELATIONSHIPS_COLLECTION, key: { workspace: 1, folder: 1, score: -1, id: 1 }, unique: false, name: 'relationships_strongest' },
  // What changed since a reader last looked (RelationshipFilter.writtenSince).
  { collection: RELATIONSHIPS_COLLECTION, key: { workspace: 1, folder: 1, updatedAt: 1 }, unique: false, name: 'relationships_written' },
  { collection: RELATIONSHIP_EVENTS_COLLECTION, key: { workspace: 1, folder: 1, eventId: 1 }, unique: true, name: 'relationship_events_id' },
  { collection: RELATIONSHIP_EVENTS_COLLECTION, key: { workspace: 1, folder: 1, relationshipId: 1, at: 1, sequence: 1 }, unique: false, name: 'relationship_events_history' },
];

/**
 * JSON values stored as SQLite stores them: through JSON, so a field left undefined is absent (the
 * driver would store it as null) and a value read back compares equal to the one written.
 */
const asJson = <T>(value: T): T => (value == null ? (null as T) : (JSON.parse(JSON.stringify(value)) as T));

const now = (): string => new Date().toISOString();

export function toRelationshipRecord(document: RelationshipDocument): RelationshipRecord {
  return {
    id: document.id,
    fromItemId: document.fromItemId,
    toItemId: document.toItemId,
    type: document.type,
    score: document.score,
    proposedScore: document.proposedScore,
    scoreVersion: document.scoreVersion,
    status: document.status,
    nearDuplicate: document.nearDuplicate,
    signals: document.signals,
    producedBy: document.producedBy,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
    decidedBy: document.decidedBy,
    decidedAt: document.decidedAt,
    note: document.note,
    decisionBasis: document.decisionBasis,
    changedSinceDecision: document.changedSinceDecision,
  };
}

/** A record's fields as stored (JSON-valued fields normalised as SQLite's JSON columns would leave them). */
export function relationshipFields(record: RelationshipRecord): RelationshipRecord {
  return jsonAsStored(toRelationshipRecord({ ...record, workspace: '', folder: '', pairKey: '', revision: 0, pendingEvent: null }));
}

function jsonAsStored<T extends Pick<RelationshipRecord, 'signals' | 'decisionBasis' | 'changedSinceDecision'>>(fields: T): T {
  return {
    ...fields,
    signals: asJson(fields.signals),
    decisionBasis: asJson(fields.decisionBasis),
    changedSinceDecision: asJson(fields.changedSinceDecision),
  };
}

/** What a review writes on the pair, apart from its id and dates: discovery's evidence with the rule's status and decision. */
function reviewedState(reviewed: ReviewedProposal): Omit<RelationshipRecord, 'id' | 'createdAt' | 'updatedAt'> {
  return {
    fromItemId: reviewed.fromItemId,
    toItemId: reviewed.toItemId,
    type: reviewed.type,
    score: reviewed.score,
    proposedScore: reviewed.proposedScore,
    scoreVersion: reviewed.scoreVersion,
    status: reviewed.status,
    nearDuplicate: reviewed.nearDuplicate,
    signals: reviewed.signals,
    producedBy: reviewed.producedBy,
    decidedBy: reviewed.decidedBy,
    decidedAt: reviewed.decidedAt,
    note: reviewed.note,
    decisionBasis: reviewed.decisionBasis,
    changedSinceDecision: reviewed.changedSinceDecision,
  };
}

/** The event's own fields, without the keys it is stored under. */
export function toRelationshipEvent(event: RelationshipEvent): RelationshipEvent {
  return {
    at: event.at,
    kind: event.kind,
    actor: event.actor,
    type: event.type,
    score: event.score,
    scoreVersion: event.scoreVersion,
    signals: event.signals,
    note: event.note,
  };
}

/** The entry a write records, with the id that makes appending it idempotent. */
export function eventOf(
  relationshipId: string,
  revision: number,
  kind: RelationshipEvent['kind'],
  actor: string,
  state: Pick<RelationshipProposal, 'type' | 'score' | 'scoreVersion' | 'signals'>,
  note: string | null,
  at: string,
): EventFields {
  return {
    eventId: `${relationshipId}:${revision}`,
    relationshipId,
    sequence: revision,
    at,
    kind,
    actor,
    type: state.type,
    score: state.score,
    scoreVersion: state.scoreVersion,
    signals: asJson(state.signals),
    note,
  };
}

/** Oldest first, as SQLite's `ORDER BY at, rowid`: by time, then by the revision that wrote it. */
export function compareEvents(a: EventFields, b: EventFields): number {
  return a.at < b.at ? -1 : a.at > b.at ? 1 : a.sequence - b.sequence || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0);
}

/** The export's order of every history entry: by time, relationship, then place in its history. */
export function compareExportedEvents(a: EventFields, b: EventFields): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  if (a.relationshipId !== b.relationshipId) return a.relationshipId < b.relationshipId ? -1 : 1;
  return compareEvents(a, b);
}

/**
 * Whether the reviewed proposal would leave the stored relationship as it is (SQLite compares the
 * same columns; `decidedAt` and the times are not compared, so a rediscovery that changes nothing
 * writes nothing and records nothing).
 */
export function reviewLeavesUnchanged(existing: RelationshipRecord, reviewed: ReviewedProposal): boolean {
  const json = (value: unknown) => JSON.stringify(value ?? null);
  return (
    existing.fromItemId === reviewed.fromItemId &&
    existing.toItemId === reviewed.toItemId &&
    existing.type === reviewed.type &&
    existing.score === reviewed.score &&
    existing.proposedScore === reviewed.proposedScore &&
    existing.scoreVersion === reviewed.scoreVersion &&
    existing.status === reviewed.status &&
    existing.nearDuplicate === reviewed.nearDuplicate &&
    json(existing.signals) === json(reviewed.signals) &&
    existing.decidedBy === reviewed.decidedBy &&
    existing.note === reviewed.note &&
    json(existing.decisionBasis) === json(reviewed.decisionBasis) &&
    json(existing.changedSinceDecision) === json(reviewed.changedSinceDecision)
  );
}

/** How often a write reads and tries again when others keep changing the same relationship. */
const MAX_ATTEMPTS = 100;

/** Item ids per look-up of live items. */
const LIVE_BATCH = 5000;

export class MongoRelationships implements RelationshipMaintenance {
  private readonly relationships: ScopedCollection<RelationshipDocument>;
  private readonly events: ScopedCollection<RelationshipEventDocument>;

  constructor(
    private readonly db: ScopedDb,
    private readonly items: LiveItems,
  ) {
    this.relationships = db.collection<RelationshipDocument>(RELATIONSHIPS_COLLECTION);
    this.events = db.collection<RelationshipEventDocument>(RELATIONSHIP_EVENTS_COLLECTION);
  }

  private conflict(id: string): Error {
    return new Error(`relationship ${id} kept changing under ${MAX_ATTEMPTS} attempts to write it; try again`);
  }

  // Writes ---------------------------------------------------------------------------------

  async upsertRelationship(proposal: RelationshipProposal, review: ReviewRule): Promise<{ id: string; outcome: ProposalOutcome }> {
    if (proposal.fromItemId === proposal.toItemId) throw new Error(`an item cannot be related to itself (${proposal.fromItemId})`);
    const key = pairKey(proposal.fromItemId, proposal.toItemId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const existing = await this.settled(await this.relationships.findOne(this.relationships.filter({ pairKey: key })));
      const reviewed = review(proposal, existing ? toRelationshipRecord(existing) : null);
      const stamp = now();
      if (!existing) {
        const id = relationshipId(this.db.scope.workspace, key);
        // A new pair is pending whatever the rule says, as in SQLite: a decision needs a relationship first.
        const created: RelationshipRecord = {
          ...reviewedState(reviewed),
          id,
          status: 'pending',
          createdAt: stamp,
          updatedAt: stamp,
          decidedBy: null,
          decidedAt: null,
          note: null,
          decisionBasis: null,
          changedSinceDecision: null,
        };
        const pendingEvent = eventOf(id, 1, 'proposed', proposal.producedBy, reviewed, null, stamp);
        try {
          await this.relationships.insertOne(this.relationships.document({ ...relationshipFields(created), pairKey: key, revision: 1, pendingEvent }));
        } catch (error) {
          if (isDuplicateKey(error)) continue; // another process proposed the pair first: review its document
          throw error;
        }
        await this.appendPending(id, pendingEvent);
        return { id, outcome: 'created' };
      }
      const outcome: ProposalOutcome = existing.status === 'rejected' ? 'kept_rejected' : 'updated';
      if (reviewLeavesUnchanged(toRelationshipRecord(existing), reviewed)) return { id: existing.id, outcome: outcome === 'kept_rejected' ? outcome : 'unchanged' };
      const revision = existing.revision + 1;
      const changeNote = reviewed.changedSinceDecision?.changes.join('; ') ?? null;
      const eventNote = reviewed.event === 'returned_to_review' || reviewed.event === 'evidence_changed' ? changeNote : null;
      const pendingEvent = eventOf(existing.id, revision, reviewed.event, proposal.producedBy, reviewed, eventNote, stamp);
      const written = await this.relationships.updateOne(this.relationships.filter({ id: existing.id, revision: existing.revision }), {
        $set: { ...jsonAsStored(reviewedState(reviewed)), updatedAt: stamp, revision, pendingEvent },
      });
      if (written.matchedCount === 0) continue; // changed since it was read: apply the rule to what it is now
      await this.appendPending(existing.id, pendingEvent);
      return { id: existing.id, outcome };
    }
    throw this.conflict(relationshipId(this.db.scope.workspace, key));
  }

  async decideRelationship(id: string, decide: (current: RelationshipRecord) => RelationshipDecision): Promise<RelationshipRecord> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const existing = await this.settled(await this.relationships.findOne(this.relationships.filter({ id })));
      if (!existing) throw new Error(`no relationship ${id} in this workspace`);
      const decision = decide(toRelationshipRecord(existing));
      const stamp = now();
      const revision = existing.revision + 1;
      const pendingEvent = eventOf(
        id,
        revision,
        decision.status,
        decision.by,
        { type: existing.type, score: decision.score, scoreVersion: existing.scoreVersion, signals: decision.signals },
        decision.note,
        stamp,
      );
      const decided = await this.relationships.findOneAndUpdate(
        this.relationships.filter({ id, revision: existing.revision }),
        {
          $set: {
            status: decision.status,
            score: decision.score,
            signals: asJson(decision.signals),
            decidedBy: decision.by,
            decidedAt: stamp,
            note: decision.note,
            decisionBasis: asJson(decision.basis),
            changedSinceDecision: null,
            updatedAt: stamp,
            revision,
            pendingEvent,
          },
        },
        { returnDocument: 'after' },
      );
      if (!decided) continue;
      await this.appendPending(id, pendingEvent);
      return toRelationshipRecord(decided);
    }
    throw this.conflict(id);
  }

  /**
   * A decision and its history carried from a damaged store (sqlite restore): the history is added
   * with its own times (ids derived from the relationship and each entry's place in it, so a retry
   * after a crash adds nothing twice); then discovery's evidence here, if any, meets the carried
   * decision through the review rule, or the relationship is recorded as it stood.
   */
  async restoreRelationship(
    carried: RelationshipRecord,
    history: readonly RelationshipEvent[],
    review: ReviewRule,
  ): Promise<'reattached' | 'recorded'> {
    const key = pairKey(carried.fromItemId, carried.toItemId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const existing = await this.relationships.findOne(this.relationships.filter({ pairKey: key }));
      const id = existing?.id ?? relationshipId(this.db.scope.workspace, key);
      await this.appendEvents(history.map((event, index) => carriedEvent(id, event, index - history.length, `restored:${index}`)));
      if (existing) {
        const evidence = evidenceOf(toRelationshipRecord(existing));
        await this.upsertRelationship(evidence, (proposal) => review(proposal, { ...carried, id }));
        return 'reattached';
      }
      try {
        await this.relationships.insertOne(
          this.relationships.document({ ...relationshipFields({ ...carried, id, updatedAt: now() }), pairKey: key, revision: 1, pendingEvent: null }),
        );
        return 'recorded';
      } catch (error) {
        if (!isDuplicateKey(error)) throw error; // discovery proposed the pair meanwhile: reattach to it
      }
    }
    throw this.conflict(relationshipId(this.db.scope.workspace, key));
  }

  /** The relationships of forgotten items, and their history, keep every record and lose the quotes. */
  async redactItems(itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    const touching = this.relationships.filter({ $or: [{ fromItemId: { $in: [...itemIds] } }, { toItemId: { $in: [...itemIds] } }] });
    const ids: string[] = [];
    for (const found of await this.relationships.find(touching, { projection: { id: 1 } }).toArray()) {
      ids.push(found.id);
      await this.redactRelationship(found.id);
    }
    for (let start = 0; start < ids.length; start += LIVE_BATCH) {
      const events = await this.events.find(this.events.filter({ relationshipId: { $in: ids.slice(start, start + LIVE_BATCH) } })).toArray();
      for (const event of events) {
        await this.events.updateOne(this.events.filter({ eventId: event.eventId }), { $set: { signals: redactQuotes(event.signals) } });
      }
    }
  }

  /** Redaction is a write like any other: on the revision read, after the pending entry is appended (so it is redacted too). */
  private async redactRelationship(id: string): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const existing = await this.settled(await this.relationships.findOne(this.relationships.filter({ id })));
      if (!existing) return;
      const written = await this.relationships.updateOne(this.relationships.filter({ id, revision: existing.revision }), {
        $set: { signals: redactQuotes(existing.signals), revision: existing.revision + 1 },
      });
      if (written.matchedCount === 1) return;
    }
    throw this.conflict(id);
  }

  // History entries -----------------------------------------------------------------------------

  /** The document, after its pending history entry (left by a crash, or in flight) is appended. */
  private async settled(document: RelationshipDocument | null): Promise<RelationshipDocument | null> {
    if (document?.pendingEvent) {
      await this.appendPending(document.id, document.pendingEvent);
      return { ...document, pendingEvent: null };
    }
    return document;
  }

  /** Appends the entry (a no-op if it is there already), then clears it from the document if it is still the pending one. */
  private async appendPending(relationshipId: string, event: EventFields): Promise<void> {
    await this.appendEvents([event]);
    await this.relationships.updateOne(this.relationships.filter({ id: relationshipId, 'pendingEvent.eventId': event.eventId }), {
      $set: { pendingEvent: null },
    });
  }

  /** Each entry inserted unless one with its id exists: an upsert that only sets fields on insert. */
  private async appendEvents(events: readonly EventFields[]): Promise<void> {
    if (events.length === 0) return;
    try {
      await this.events.bulkWrite(
        events.map((event) => ({
          updateOne: { filter: this.events.filter({ eventId: event.eventId }), update: { $setOnInsert: event }, upsert: true },
        })),
        { ordered: false },
      );
    } catch (error) {
      // Two processes appending the same entry at once: one upsert wins, the other meets the unique index.
      const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [error]) as unknown[];
      if (!list.every(isDuplicateKey)) throw error;
    }
  }

  // Reads ----------------------------------------------------------------------------------------

  async getRelationship(id: string): Promise<RelationshipRecord | null> {
    const found = await this.relationships.findOne(this.relationships.filter({ id }));
    return found ? toRelationshipRecord(found) : null;
  }

  async relationshipBetween(itemA: string, itemB: string): Promise<RelationshipRecord | null> {
    const found = await this.relationships.findOne(this.relationships.filter({ pairKey: pairKey(itemA, itemB) }));
    return found ? toRelationshipRecord(found) : null;
  }

  async listRelationships(filter: RelationshipFilter = {}): Promise<RelationshipRecord[]> {
    const conditions = {
      ...(filter.status !== undefined ? { status: filter.status } : {}),
      ...(filter.writtenSince !== undefined ? { updatedAt: { $gte: filter.writtenSince } } : {}),
      $and: [{ $or: [{ status: { $ne: 'pending' as const } }, { score: { $gte: filter.minPendingScore ?? 0 } }] }],
    };
    if (filter.itemId !== undefined) return this.touchingWhere([filter.itemId], conditions);
    return this.betweenLiveItems(await this.relationships.find(this.relationships.filter(conditions), { sort: { score: -1, id: 1 } }).toArray());
  }

  async relationshipsTouching(
    itemIds: readonly string[],
    options: { minScore?: number; statuses?: readonly RelationshipStatus[] } = {},
  ): Promise<RelationshipRecord[]> {
    if (itemIds.length === 0) return [];
    return this.touchingWhere(itemIds, {
      status: { $in: [...(options.statuses ?? ['pending', 'confirmed', 'rejected'])] },
      score: { $gte: options.minScore ?? 0 },
    });
  }

  /**
   * The Proposals view's counts. No field holds "rests on a link alone", so on MongoDB every listed
   * relationship is read and classified here (the SQLite store counts from an index).
   */
  async groups(query: ProposalQuery): Promise<RelationshipGroup[]> {
    const groups = new Map<string, RelationshipGroup>();
    for (const record of await this.listedBy(query)) {
      const linked = restsOnLinks(record.signals);
      const key = `${record.status}|${record.type}|${linked}`;
      const group = groups.get(key) ?? { status: record.status, type: record.type, linked, count: 0 };
      group.count += 1;
      groups.set(key, group);
    }
    return [...groups.values()];
  }

  async inViewOrder(query: ProposalQuery, members: UnitMembers, limit: number): Promise<RelationshipRecord[]> {
    const inUnit = (record: RelationshipRecord) =>
      members.statuses.includes(record.status) &&
      (members.type === null || record.type === members.type) &&
      (members.linked === null || restsOnLinks(record.signals) === members.linked);
    const byView = (a: RelationshipRecord, b: RelationshipRecord) => byReviewOrder(a.type, b.type) || b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    return (await this.listedBy(query)).filter(inUnit).sort(byView).slice(0, limit);
  }

  private async listedBy(query: ProposalQuery): Promise<RelationshipRecord[]> {
    return (await this.listRelationships({ minPendingScore: query.minPendingScore })).filter((record) => passesFilter(query.filter, record));
  }

  /** Relationships with one of these items at either end (the from and to indexes), strongest first. */
  private async touchingWhere(itemIds: readonly string[], conditions: Record<string, unknown>): Promise<RelationshipRecord[]> {
    const ids = [...itemIds];
    const filter = this.relationships.filter({
      ...conditions,
      $and: [...((conditions.$and as object[] | undefined) ?? []), { $or: [{ fromItemId: { $in: ids } }, { toItemId: { $in: ids } }] }],
    });
    return this.betweenLiveItems(await this.relationships.find(filter, { sort: { score: -1, id: 1 } }).toArray());
  }

  /** Only relationships whose two ends are live items are served; the documents stay either way. */
  private async betweenLiveItems(found: RelationshipDocument[]): Promise<RelationshipRecord[]> {
    const ends = [...new Set(found.flatMap((relationship) => [relationship.fromItemId, relationship.toItemId]))];
    const live = new Set<string>();
    for (let start = 0; start < ends.length; start += LIVE_BATCH) {
      for (const id of await this.items.liveItemIds(ends.slice(start, start + LIVE_BATCH))) live.add(id);
    }
    return found.filter((relationship) => live.has(relationship.fromItemId) && live.has(relationship.toItemId)).map(toRelationshipRecord);
  }

  /** Oldest first. An entry a crash left on the document is included: it is part of the history, only not yet moved. */
  async relationshipHistory(id: string): Promise<RelationshipEvent[]> {
    const stored = await this.events.find(this.events.filter({ relationshipId: id }), { sort: { at: 1, sequence: 1, eventId: 1 } }).toArray();
    const pending = (await this.relationships.findOne(this.relationships.filter({ id }), { projection: { pendingEvent: 1 } }))?.pendingEvent;
    const entries: EventFields[] = stored;
    if (pending && !stored.some((event) => event.eventId === pending.eventId)) entries.push(pending);
    return entries.sort(compareEvents).map(toRelationshipEvent);
  }

  // Export and import ----------------------------------------------------------------------------

  /** Relationships in the order they were created. */
  async *exportRelationships(): AsyncIterable<RelationshipExchange> {
    for await (const found of this.relationships.find(this.relationships.filter(), { sort: { createdAt: 1, _id: 1 } })) {
      yield { record: 'relationship', ...toRelationshipRecord(found) };
    }
  }

  /**
   * Every history entry, each relationship's in history order: by time, then relationship, then
   * the revision that wrote it. Entries a crash left on a document are sorted in with the rest.
   */
  async *exportEvents(): AsyncIterable<RelationshipEventExchange> {
    const pending: EventFields[] = [];
    for await (const found of this.relationships.find(this.relationships.filter({ pendingEvent: { $ne: null } }), { projection: { pendingEvent: 1 } })) {
      if (found.pendingEvent) pending.push(found.pendingEvent);
    }
    const stored = this.events.find(this.events.filter(), { sort: { at: 1, relationshipId: 1, sequence: 1, eventId: 1 } });
    const exported = (event: EventFields): RelationshipEventExchange => ({ record: 'relationship_event', relationshipId: event.relationshipId, ...toRelationshipEvent(event) });
    if (pending.length === 0) {
      for await (const event of stored) yield exported(event);
      return;
    }
    const all: EventFields[] = await stored.toArray();
    const appended = new Set(all.map((event) => event.eventId));
    all.push(...pending.filter((event) => !appended.has(event.eventId)));
    for (const event of all.sort(compareExportedEvents)) yield exported(event);
  }

  /** Whether the scope holds any relationship or history entry (an import loads into an empty store only). */
  async holdsRecords(): Promise<boolean> {
    return (await this.relationships.findOne(this.relationships.filter())) !== null || (await this.events.findOne(this.events.filter())) !== null;
  }

  /**
   * Relationships, then their history entries, as exported: every field verbatim, written a
   * thousand at a time. A relationship starts at revision 1 with nothing pending (its history comes
   * as records of its own); an entry gets an id from its relationship and its place among that
   * relationship's imported entries, and sorts before anything the store writes later at the same time.
   */
  importer(): RecordImporter<RelationshipExchange | RelationshipEventExchange> {
    const places = new Map<string, number>();
    let relationships: RelationshipDocument[] = [];
    let events: RelationshipEventDocument[] = [];
    const flush = async () => {
      const [writeRelationships, writeEvents] = [relationships, events];
      relationships = [];
      events = [];
      if (writeRelationships.length > 0) await this.relationships.insertMany(writeRelationships as OptionalUnlessRequiredId<RelationshipDocument>[]);
      if (writeEvents.length > 0) await this.events.insertMany(writeEvents as OptionalUnlessRequiredId<RelationshipEventDocument>[]);
    };
    return {
      add: async (record) => {
        if (record.record === 'relationship') {
          const { record: _kind, ...relationship } = record;
          const key = pairKey(relationship.fromItemId, relationship.toItemId);
          relationships.push(this.relationships.document({ ...relationshipFields(relationship), pairKey: key, revision: 1, pendingEvent: null }) as RelationshipDocument);
        } else {
          const { record: _kind, relationshipId: id, ...event } = record;
          const place = places.get(id) ?? 0;
          places.set(id, place + 1);
          events.push(this.events.document(carriedEvent(id, event, place - IMPORTED_BEFORE, `imported:${place}`)) as RelationshipEventDocument);
        }
        if (relationships.length + events.length >= 1000) await flush();
      },
      finish: flush,
    };
  }
}

/** Imported entries' sequence numbers start this far below the store's own (which start at 1). */
const IMPORTED_BEFORE = 1_000_000_000;

/** An entry carried from elsewhere (a rebuilt store's history, an import), keeping its time. */
function carriedEvent(relationshipId: string, event: RelationshipEvent, sequence: number, origin: string): EventFields {
  return {
    eventId: `${relationshipId}:${origin}`,
    relationshipId,
    sequence,
    ...toRelationshipEvent(event),
    signals: asJson(event.signals),
  };
}
