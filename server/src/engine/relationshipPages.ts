// The Proposals view's pages (shared/proposalPages.ts), read from the store: every relationship's
// record is read and classified (a record is small; what costs is naming both ends and sending
// the signals of each), and only the relationships on the pages are turned into views. The badge's
// count and each unit's total come from the same read, so the view's numbers hold however little
// of a unit it shows.

import { awaitingReview } from '../../../shared/linkedInDocuments.ts';
import { inViewOrder, passesFilter, type ProposalFilter, type ProposalUnit, unitsOf } from '../../../shared/proposalPages.ts';
import type { RelationshipView } from '../../../shared/types.ts';
import type { Thresholds } from '../scoring/index.ts';
import type { RelationshipRecord, WorkspaceStore } from '../store/contract.ts';
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
  const records = await store.listRelationships({ minPendingScore: thresholds.storeScore });
  const units = new Map<ProposalUnit, RelationshipRecord[]>();
  let awaiting = 0;
  for (const record of records) {
    if (awaitingReview(record)) awaiting += 1;
    if (!passesFilter(request.filter, record)) continue;
    for (const unit of unitsOf(record)) {
      const members = units.get(unit);
      if (members) members.push(record);
      else units.set(unit, [record]);
    }
  }
  const shown = new Set<string>();
  const unitTotals: Record<string, number> = {};
  for (const [unit, members] of units) {
    unitTotals[unit] = members.length;
    const rows = request.moreRows.get(unit) ?? request.pageSize;
    const page = members.length > rows ? [...members].sort(inViewOrder).slice(0, rows) : members;
    for (const record of page) shown.add(record.id);
  }
  const onPages = records.filter((record) => shown.has(record.id));
  const refs = await itemRefs(store, onPages);
  return { relationships: onPages.map((record) => toRelationshipView(record, refs)), unitTotals, awaitingReview: awaiting };
}
