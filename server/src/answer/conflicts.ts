// "Uncertainty and conflicts" lists each disagreement once. A document's copies and drafts carry
// its figures too, so one disagreement (the same attribute, the same pair of values) is recorded
// as several contradicts relationships; the person needs it once, with every shown source that
// states each side. Only relationships with both ends among the shown sources (a source and the
// copies it stands for) count: a conflict with something not shown cannot be checked here.
// Each side counts documents, not files (relationship-score-v2, rule 6): a memo and its two
// copies are one voice, named as "memo.md and 2 copies", and the conflict is anchored on the
// relationship between originals when there is one.

import type { AnswerConflict, ConflictSideView, ConflictVoiceView, ItemRef } from '../../../shared/types.ts';
import { figureText } from '../../../shared/wording.ts';
import type { VoiceGroups } from '../engine/voiceGroups.ts';
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

const claimValue = (claim: Pick<StoredClaim, 'value' | 'unit'>) => figureText(claim.value, claim.unit);
const topics = (ref: ItemRef) => (ref.title ?? '').toLowerCase().split(/\W+/).filter((word) => word.length > 2);

/**
 * `shown`: every item the answer shows (each source and the members of its group), by id;
 * `voices`: the copy groups of the shown items (readVoiceGroups); a shown byte-identical copy
 * states what its original states, on its original's side.
 */
export async function conflictsAmong(
  store: WorkspaceStore,
  shown: ReadonlyMap<string, ItemRef>,
  relationships: readonly RelationshipRecord[],
  voices: VoiceGroups,
): Promise<AnswerConflict[]> {
  const disagreements = new Map<string, Disagreement>();
  const betweenOriginals = new Set<string>();
  const record = (key: string, relationship: RelationshipRecord, attribute: string | undefined, detail: string, sides: [string, ItemRef][]) => {
    const found: Disagreement = disagreements.get(key) ?? { relationshipIds: [], attribute, detail, sides: new Map() };
    if (!found.relationshipIds.includes(relationship.id)) found.relationshipIds.push(relationship.id);
    for (const [value, item] of sides) {
      const items = found.sides.get(value) ?? new Map<string, ItemRef>();
      const identical = voices.identicalTo(item.item_id).flatMap((id) => (shown.has(id) ? [shown.get(id)!] : []));
      for (const stating of [item, ...identical]) items.set(stating.item_id, stating);
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
    // Two copies of one document differing is a change between its versions, not a disagreement
    // between sources: it is left out of the conflicts (the relationship itself stays stored).
    if (voices.sameVoice(from.item_id, to.item_id)) continue;
    if (voices.originalOf(from.item_id) === from.item_id && voices.originalOf(to.item_id) === to.item_id) betweenOriginals.add(relationship.id);
    const comparisons = compareItemClaims(await claimsOf(from.item_id), await claimsOf(to.item_id), { topicsA: topics(from), topicsB: topics(to) })
      .filter((comparison) => comparison.relation === 'contradicts');
    for (const comparison of comparisons) {
      const values = [claimValue(comparison.a), claimValue(comparison.b)];
      const key = `${comparison.a.kind}|${comparison.a.attribute}|${[...values].sort().join('|')}`;
      record(key, relationship, comparison.a.attribute, labelledDetail(comparison), [[values[0]!, from], [values[1]!, to]]);
    }
    if (comparisons.length > 0) continue;
    // The claims no longer show it (or never did in these words): the recorded signal is what is known.
    const signals = relationship.signals.filter((signal) => signal.type === 'claim_contradiction');
    const detail = signals.length > 0 ? signals.map((signal) => signal.detail).join(' ') : UNSPECIFIED_CONTRADICTION;
    // Without the figures there are no sides to tell apart: both items are listed, under no value.
    record(`signal|${detail}`, relationship, signals[0]?.value, detail, [['', from], ['', to]]);
  }

  return [...disagreements.values()].map((disagreement) => {
    const sides: ConflictSideView[] = [...disagreement.sides].map(([value, members]) => {
      const stated = byVoice([...members.values()], voices);
      return { value, items: stated.flatMap((voice) => [voice.item, ...voice.copies]), voices: stated };
    });
    const items = new Map<string, ItemRef>();
    for (const side of sides) for (const item of side.items) items.set(item.item_id, item);
    const anchor = disagreement.relationshipIds.find((id) => betweenOriginals.has(id)) ?? disagreement.relationshipIds[0]!;
    return {
      relationship_id: anchor,
      items: [...items.values()],
      detail: disagreement.detail,
      relationship_ids: [anchor, ...disagreement.relationshipIds.filter((id) => id !== anchor)],
      ...(disagreement.attribute === undefined ? {} : { attribute: disagreement.attribute }),
      sides: sides.filter((side) => side.value !== ''),
    };
  });
}

/** The items stating one value, one voice per copy group, in the order the groups were first seen. */
function byVoice(stating: readonly ItemRef[], voices: VoiceGroups): ConflictVoiceView[] {
  const groups = new Map<string, ItemRef[]>();
  for (const item of stating) {
    const original = voices.originalOf(item.item_id);
    groups.set(original, [...(groups.get(original) ?? []), item]);
  }
  return [...groups].map(([original, members]) => {
    const speaker = members.find((member) => member.item_id === original) ?? members[0]!;
    return { item: speaker, copies: members.filter((member) => member !== speaker) };
  });
}
