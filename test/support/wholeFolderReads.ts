// How Related's nearby fallback and the language server's note on what a pass did to the proposals
// read the whole folder before issue 32, kept as the reference the bounded reads are held to: the
// contract tests compare answers with them (test/contract/treeRings.test.ts, proposalTracker.test.ts)
// and bench:folderReads times them side by side.

import path from 'node:path';
import { byCodePoint } from '../../server/src/engine/treeRings.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { proposalChanges, type ProposalChanges, type ProposalSnapshot } from '../../server/src/lsp/proposalChanges.ts';
import { DEFAULT_THRESHOLDS } from '../../server/src/scoring/index.ts';
import type { ItemPath, WorkspaceStore } from '../../server/src/store/contract.ts';

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
