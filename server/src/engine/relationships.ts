// Relationships as people see them: views with both ends' paths and titles, and the review
// decisions. A decision adds its signal (+1.00 confirm, −1.00 reject) to the proposal's evidence
// and rescored under the scoring module; the proposal, its provenance and its signals stay, and
// the store's history keeps every earlier state. The CLI and the language server both use this.

import { userInfo } from 'node:os';
import type { CopyStatement, ItemRef, RelationshipStatus, RelationshipType, RelationshipView } from '../../../shared/types.ts';
import { decisionBasis, evidenceOf } from '../discover/decisionReview.ts';
import { decisionSignal, isChronologyOnly, scoreSignals, scoreVersion, type Thresholds } from '../scoring/index.ts';
import type { ItemRecord, RelationshipRecord, WorkspaceStore } from '../store/contract.ts';
import { readVoiceGroups } from './voiceGroups.ts';

export interface RelationshipQuery {
  status?: RelationshipStatus;
  itemId?: string;
  /** Include pending proposals whose evidence has since weakened below the storage threshold. */
  includeWeak?: boolean;
  /** Show a copy's supports or contradicts once, under its original's same relationship (oneVoicePerCopyGroup). */
  oneVoice?: boolean;
}

export async function listRelationshipViews(
  store: WorkspaceStore,
  thresholds: Thresholds,
  query: RelationshipQuery = {},
): Promise<RelationshipView[]> {
  const records = await store.listRelationships({
    status: query.status,
    itemId: query.itemId,
    minPendingScore: query.includeWeak ? 0 : thresholds.storeScore,
  });
  const refs = await itemRefs(store, records);
  const views = chronologyLast(records.map((record) => toRelationshipView(record, refs)));
  return query.oneVoice ? oneVoicePerCopyGroup(store, views) : views;
}

/** The types that state something about the other end: what copies would otherwise corroborate. */
const STATEMENTS: ReadonlySet<RelationshipType> = new Set(['supports', 'contradicts']);

/**
 * Copies of one document never corroborate each other (relationship-score-v2, rule 6): a copy's
 * supports or contradicts with a third item, when the original has the same type and review
 * status with it, is shown once, under the original's, in `also_stated_by`. Nothing is dropped
 * from the store; a copy's relationship without such an original's stays a row of its own.
 */
export async function oneVoicePerCopyGroup(store: WorkspaceStore, views: readonly RelationshipView[]): Promise<RelationshipView[]> {
  const voices = await readVoiceGroups(store, views.flatMap((view) => [view.from.item_id, view.to.item_id]));
  const isOriginal = (ref: ItemRef) => voices.originalOf(ref.item_id) === ref.item_id;
  const foldable = (view: RelationshipView) => STATEMENTS.has(view.type) && !voices.sameVoice(view.from.item_id, view.to.item_id);
  const key = (view: RelationshipView) =>
    `${view.type}|${view.status}|${[voices.originalOf(view.from.item_id), voices.originalOf(view.to.item_id)].sort().join('|')}`;
  const anchors = new Map<string, RelationshipView>();
  for (const view of views) {
    if (foldable(view) && isOriginal(view.from) && isOriginal(view.to) && !anchors.has(key(view))) anchors.set(key(view), view);
  }
  const statements = new Map<string, CopyStatement[]>();
  const shown: RelationshipView[] = [];
  for (const view of views) {
    const anchor = foldable(view) ? anchors.get(key(view)) : undefined;
    if (!anchor || anchor === view) {
      shown.push(view);
      continue;
    }
    const copy = isOriginal(view.from) ? view.to : view.from;
    statements.set(anchor.id, [...(statements.get(anchor.id) ?? []), { relationship_id: view.id, copy }]);
  }
  return shown.map((view) => (statements.has(view.id) ? { ...view, also_stated_by: statements.get(view.id)! } : view));
}

/**
 * Relationships scored under a version whose chronology needs a specific name (relationship-score-v2,
 * rule 7) that rest on dates and shared names alone come after the others, each part in the
 * store's order (strongest first): "A occurred before B" says the least a person can act on.
 */
export function chronologyLast(views: readonly RelationshipView[]): RelationshipView[] {
  const last = (view: RelationshipView) =>
    Boolean(scoreVersion(view.score_version)?.rules.chronologyNeedsSpecificName) && isChronologyOnly(view.type, view.signals);
  return [...views.filter((view) => !last(view)), ...views.filter(last)];
}

export async function relationshipView(store: WorkspaceStore, id: string): Promise<RelationshipView | null> {
  const record = await store.getRelationship(id);
  if (!record) return null;
  return toRelationshipView(record, await itemRefs(store, [record]));
}

export interface Decision {
  status: 'confirmed' | 'rejected';
  /** Who decided; default: the OS user. */
  by?: string;
  note?: string | null;
}

export async function decide(store: WorkspaceStore, id: string, decision: Decision): Promise<RelationshipView> {
  const record = await store.getRelationship(id);
  if (!record) throw new Error(`no relationship ${id} in workspace ${store.workspace}`);
  const by = decision.by?.trim() || userInfo().username;
  const note = decision.note?.trim() || null;
  // A new decision replaces an earlier one on the relationship (the history keeps both), and is
  // bound to the type and evidence it is recorded against, read inside the store's write.
  const decided = await store.decideRelationship(id, (current) => {
    const evidence = evidenceOf(current.signals);
    const signals = [...evidence, decisionSignal(decision.status, by, note)];
    return { status: decision.status, by, note, score: scoreSignals(signals).score, signals, basis: decisionBasis(current.type, evidence) };
  });
  return toRelationshipView(decided, await itemRefs(store, [decided]));
}

/** Both ends of each record, named by path and title (an item no longer stored says so). */
export async function itemRefs(store: WorkspaceStore, records: readonly RelationshipRecord[]): Promise<Map<string, ItemRef>> {
  const ids = new Set(records.flatMap((record) => [record.fromItemId, record.toItemId]));
  const refs = new Map<string, ItemRef>();
  for (const id of ids) {
    const item = await store.getItem(id);
    refs.set(id, item ? refOf(item) : unknownItem(id));
  }
  return refs;
}

const refOf = (item: ItemRecord): ItemRef => ({ item_id: item.id, path: item.path, title: item.title });

const unknownItem = (id: string): ItemRef => ({ item_id: id, path: '(unknown item)', title: null });

/** The one record → view conversion, for callers that already hold the records and their items' refs. */
export function toRelationshipView(record: RelationshipRecord, refs: ReadonlyMap<string, ItemRef>): RelationshipView {
  return {
    id: record.id,
    from: refs.get(record.fromItemId) ?? unknownItem(record.fromItemId),
    to: refs.get(record.toItemId) ?? unknownItem(record.toItemId),
    type: record.type,
    score: record.score,
    score_version: record.scoreVersion,
    status: record.status,
    near_duplicate: record.nearDuplicate,
    signals: record.signals,
    produced_by: record.producedBy,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    decided_by: record.decidedBy,
    decided_at: record.decidedAt,
    note: record.note,
    changed_since_decision: record.changedSinceDecision,
  };
}

/** How review status reads on screen and in explanations. */
export function describeStatus(status: RelationshipStatus): string {
  if (status === 'confirmed') return 'confirmed by a person';
  if (status === 'rejected') return 'rejected by a person';
  return 'suggested by analysis, not yet reviewed';
}
