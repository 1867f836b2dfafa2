// How Related's nearby fallback, the language server's note on what a pass did to the proposals and
// the Proposals view's pages read the whole folder before issue 32, kept as the reference the
// bounded reads are held to: the contract tests compare answers with them (test/contract/
// treeRings.test.ts, proposalTracker.test.ts, relationshipPages.test.ts) and bench:folderReads and
// bench:proposals time them side by side.

import path from 'node:path';
import { byCodePoint } from '../../server/src/engine/treeRings.ts';
import { itemRefs, listRelationshipViews, toRelationshipView } from '../../server/src/engine/relationships.ts';
import type { PageRequest, RelationshipPages } from '../../server/src/engine/relationshipPages.ts';
import { awaitingReview } from '../../shared/linkedInDocuments.ts';
import { inViewOrder, passesFilter, type ProposalUnit, unitsOf } from '../../shared/proposalPages.ts';
import type { Thresholds } from '../../server/src/scoring/index.ts';
import { proposalChanges, type ProposalChanges, type ProposalSnapshot } from '../../server/src/lsp/proposalChanges.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/index.ts';
import type { ItemPath, RelationshipRecord, WorkspaceStore } from '../../server/src/store/contract.ts';

/** The fallback's pick before issue 32: every item listed, sorted by tree distance, then path. */
export async function nearestByListing(store: WorkspaceStore, filePath: string, count: number, isBlocked: (id: string) => boolean): Promise<ItemPath[]> {
  const others = (await store.listItems())
    .filter((other) => other.status === 'indexed' && !isBlocked(other.id))
    // The one change: ties in code-point order (what both stores' indexes keep) where it was localeCompare.
    .sort((a, b) => treeDistance(filePath, a.path) - treeDistance(filePath, b.path) || byCodePoint(a, b));
  return others.slice(0, count).map(({ id, path: otherPath }) => ({ id, path: otherPath }));
}

/** Steps between two files' folders in the tree, as engine/related.ts counted them. */
function treeDistance(from: string, to: string): number {
  const a = path.posix.dirname(from).split('/');
  const b = path.posix.dirname(to).split('/');
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return a.length - common + (b.length - common);
}

/** The note's comparison before issue 32: every relationship and every item read after each pass. */
export class ListingEverything {
  private before: ProposalSnapshot | null = null;

  async look(store: WorkspaceStore): Promise<ProposalChanges | null> {
    const views = await listRelationshipViews(store, DEFAULT_THRESHOLDS);
    const items = (await store.listItems()).filter((item) => item.status !== 'deleted');
    const after: ProposalSnapshot = {
      pending: new Map(views.filter((view) => view.status === 'pending').map((view) => [view.id, { type: view.type, score: view.score.toFixed(2) }])),
      versions: new Map(items.map((item) => [item.path, item.version])),
    };
    const decided = new Set(views.filter((view) => view.status !== 'pending').map((view) => view.id));
    const before = this.before;
    this.before = after;
    return before ? proposalChanges(before, after, decided) : null;
  }
}

/** The Proposals view's pages before issue 32: every relationship read and classified, each unit sorted. */
export async function relationshipPagesByListing(store: WorkspaceStore, thresholds: Thresholds, request: PageRequest): Promise<RelationshipPages> {
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
