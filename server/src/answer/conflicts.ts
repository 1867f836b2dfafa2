// "Uncertainty and conflicts" lists each disagreement once. A document's copies and drafts carry
// its figures too, so one disagreement (the same attribute, the same pair of values) is recorded
// as several contradicts relationships; the person needs it once, with every shown source that
// states each side. Only relationships with both ends among the shown sources (a source and the
// copies it stands for) count: a conflict with something not shown cannot be checked here.

import type { AnswerConflict, ConflictSideView, ItemRef } from '../../../shared/types.ts';
import { compareItemClaims, labelledDetail } from '../extract/claims/compare.ts';
import type { RelationshipRecord, StoredClaim, WorkspaceStore } from '../store/contract.ts';

const UNSPECIFIED_CONTRADICTION = 'Relata recorded that these items contradict each other.';

interface Disagreement {
  relationshipIds: string[];
  attribute: string | undefined;
  detail: string;
  /** Value → the items stating it, in the order first seen. */
  sides: Map<string, Map<string, ItemRef>>;
}

const claimValue = (claim: Pick<StoredClaim, 'value' | 'unit'>) => (claim.unit ? `${claim.value} ${claim.unit}` : String(claim.value));
const topics = (ref: ItemRef) => (ref.title ?? '').toLowerCase().split(/\W+/).filter((word) => word.length > 2);

/**
 * `shown`: every item the answer shows (each source and the members of its group), by id;
 * `identicalCopies`: shown exact copies by their original, listed on their original's side.
 */
export async function conflictsAmong(
  store: WorkspaceStore,
  shown: ReadonlyMap<string, ItemRef>,
  relationships: readonly RelationshipRecord[],
  identicalCopies: ReadonlyMap<string, readonly ItemRef[]> = new Map(),
): Promise<AnswerConflict[]> {
  const disagreements = new Map<string, Disagreement>();
  const record = (key: string, relationshipId: string, attribute: string | undefined, detail: string, sides: [string, ItemRef][]) => {
    const found: Disagreement = disagreements.get(key) ?? { relationshipIds: [], attribute, detail, sides: new Map() };
    if (!found.relationshipIds.includes(relationshipId)) found.relationshipIds.push(relationshipId);
    for (const [value, item] of sides) {
      const items = found.sides.get(value) ?? new Map<string, ItemRef>();
      for (const stating of [item, ...(identicalCopies.get(item.item_id) ?? [])]) items.set(stating.item_id, stating);
      found.sides.set(value, items);
    }
    disagreements.set(key, found);
  };
  const claims = new Map<string, StoredClaim[]>();
  const claimsOf = async (itemId: string) => {
    if (!claims.has(itemId)) claims.set(itemId, await store.listClaims(itemId));
    return claims.get(itemId)!;
  };

  const seen = new Set<string>();
  for (const relationship of relationships) {
    if (seen.has(relationship.id)) continue;
    seen.add(relationship.id);
    const from = shown.get(relationship.fromItemId);
    const to = shown.get(relationship.toItemId);
    if (relationship.type !== 'contradicts' || relationship.status === 'rejected' || !from || !to) continue;
    const comparisons = compareItemClaims(await claimsOf(from.item_id), await claimsOf(to.item_id), { topicsA: topics(from), topicsB: topics(to) })
      .filter((comparison) => comparison.relation === 'contradicts');
    for (const comparison of comparisons) {
      const values = [claimValue(comparison.a), claimValue(comparison.b)];
      const key = `${comparison.a.kind}|${comparison.a.attribute}|${[...values].sort().join('|')}`;
      record(key, relationship.id, comparison.a.attribute, labelledDetail(comparison), [[values[0]!, from], [values[1]!, to]]);
    }
    if (comparisons.length > 0) continue;
    // The claims no longer show it (or never did in these words): the recorded signal is what is known.
    const signals = relationship.signals.filter((signal) => signal.type === 'claim_contradiction');
    const detail = signals.length > 0 ? signals.map((signal) => signal.detail).join(' ') : UNSPECIFIED_CONTRADICTION;
    // Without the figures there are no sides to tell apart: both items are listed, under no value.
    record(`signal|${detail}`, relationship.id, signals[0]?.value, detail, [['', from], ['', to]]);
  }

  return [...disagreements.values()].map((disagreement) => {
    const items = new Map<string, ItemRef>();
    for (const side of disagreement.sides.values()) for (const [id, item] of side) items.set(id, item);
    const sides: ConflictSideView[] = [...disagreement.sides]
      .filter(([value]) => value !== '')
      .map(([value, members]) => ({ value, items: [...members.values()] }));
    return {
      relationship_id: disagreement.relationshipIds[0]!,
      items: [...items.values()],
      detail: disagreement.detail,
      relationship_ids: disagreement.relationshipIds,
      ...(disagreement.attribute === undefined ? {} : { attribute: disagreement.attribute }),
      sides,
    };
  });
}
