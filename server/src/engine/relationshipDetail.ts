// What the relationship panel shows beyond the engine's view (engine/relationships.ts): each
// signal's contribution (so the table on screen adds up to the score), and the conflicting claims
// of the two items with both figures and both sentences.

import type { ItemRef, RelationshipView } from '../../../shared/types.ts';
import type { ConflictDetail, SignalContribution } from '../../../shared/protocol.ts';
import { figureText } from '../../../shared/wording.ts';
import { compareItemClaims, labelledDetail } from '../extract/claims/compare.ts';
import { scoreSignals } from '../scoring/score.ts';
import type { WorkspaceStore } from '../store/contract.ts';

export async function itemRef(store: WorkspaceStore, itemId: string): Promise<ItemRef> {
  const item = await store.getItem(itemId);
  return { item_id: itemId, path: item?.path ?? '(item no longer stored)', title: item?.title ?? null };
}

/** Each signal's share, in the order of the signals, by the scoring module's own arithmetic. */
export function signalContributions(relationship: Pick<RelationshipView, 'signals'>): SignalContribution[] {
  return scoreSignals(relationship.signals).contributions.map(({ signal, factor, contribution }) => ({ type: signal.type, factor, contribution }));
}

/** The two items' claims that disagree, one per subject and attribute. */
export async function relationshipConflicts(
  store: WorkspaceStore,
  relationship: Pick<RelationshipView, 'from' | 'to'>,
): Promise<ConflictDetail[]> {
  const [claimsA, claimsB] = await Promise.all([
    store.listClaims(relationship.from.item_id),
    store.listClaims(relationship.to.item_id),
  ]);
  const topics = (ref: ItemRef) => (ref.title ?? '').toLowerCase().split(/\W+/).filter((word) => word.length > 2);
  return compareItemClaims(claimsA, claimsB, { topicsA: topics(relationship.from), topicsB: topics(relationship.to) })
    .filter((comparison) => comparison.relation === 'contradicts')
    .map((comparison) => ({
      subject: comparison.a.subject,
      attribute: comparison.a.attribute,
      detail: labelledDetail(comparison),
      sides: [
        { item: relationship.from, value: formatClaimValue(comparison.a), text: comparison.a.text },
        { item: relationship.to, value: formatClaimValue(comparison.b), text: comparison.b.text },
      ],
    }));
}

function formatClaimValue(claim: { value: number | string; unit: string | null }): string {
  return figureText(claim.value, claim.unit);
}
