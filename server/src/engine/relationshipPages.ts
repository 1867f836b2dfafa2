// The Proposals view's pages (shared/proposalPages.ts), read from the store: each unit's total and
// the badge's count come from the store's counts by status, type and "rests on a link alone", and
// each unit's first rows in the view's order from the store too, so only the relationships on the
// pages are read and turned into views (issue 32: reading and classifying every relationship took
// 1.65 s of CPU at 60,000). The numbers hold however little of a unit the view shows.

import { isFiltered, membersOf, NO_FILTER, type ProposalFilter, type ProposalUnit, unitsFor } from '../../../shared/proposalPages.ts';
import type { RelationshipView } from '../../../shared/types.ts';
import type { Thresholds } from '../scoring/index.ts';
import type { RelationshipGroup, RelationshipRecord, WorkspaceStore } from '../store/contract.ts';
import { itemRefs, toRelationshipView } from './relationships.ts';

export interface PageRequest {
  filter: ProposalFilter;
  /** Relationships of each unit to send unless `moreRows` says otherwise. */
  pageSize: number;
  /** Units a person asked to see more of, and how many relationships of each to send. */
  moreRows: ReadonlyMap<string, number>;
}

export interface RelationshipPages {
  /** The relationships on the pages, in the store's order (strongest first). */
  relationships: RelationshipView[];
  /** Each unit's relationships after the filter. */
  unitTotals: Record<string, number>;
  /** Relationships awaiting review, whatever the filter. */
  awaitingReview: number;
}

export async function relationshipPages(store: WorkspaceStore, thresholds: Thresholds, request: PageRequest): Promise<RelationshipPages> {
  const query = { minPendingScore: thresholds.storeScore, filter: request.filter };
  const groups = await store.relationshipGroups(query);
  const unfiltered = isFiltered(request.filter) ? await store.relationshipGroups({ ...query, filter: NO_FILTER }) : groups;
  const unitTotals: Record<string, number> = {};
  for (const group of groups) for (const unit of unitsOfGroup(group)) unitTotals[unit] = (unitTotals[unit] ?? 0) + group.count;
  const pages = await Promise.all(
    Object.keys(unitTotals).map((unit) => store.relationshipsInViewOrder(query, membersOf(unit as ProposalUnit), request.moreRows.get(unit) ?? request.pageSize)),
  );
  // A contradiction is in its group and in Conflicts: once on the pages.
  const onPages = [...new Map(pages.flat().map((record) => [record.id, record])).values()].sort(strongestFirst);
  const refs = await itemRefs(store, onPages);
  return {
    relationships: onPages.map((record) => toRelationshipView(record, refs)),
    unitTotals,
    awaitingReview: unfiltered.filter((group) => group.status === 'pending' && !group.linked).reduce((sum, group) => sum + group.count, 0),
  };
}

const unitsOfGroup = (group: RelationshipGroup) => unitsFor(group.type, group.status, group.status === 'pending' && group.linked);

/** The store's order of a list of relationships: strongest first, then id in code-point order. */
function strongestFirst(a: RelationshipRecord, b: RelationshipRecord): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
