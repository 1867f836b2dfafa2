// The Related view's rows, as plain data: one row per entry of `relata/relatedItems`, in the
// server's order (relationships, then content neighbours, then nearby files). A row's label is the
// other file's title; its description says the kind (the relationship type with its direction, or
// "similar content"), the number with its label (a strength for a relationship, a similarity for
// content, never one dressed as the other) and "linked" or "not linked yet"; the tooltip has why.
// Clicking opens the file at the closest passage. The VS Code adapter (relatedView.ts) only
// renders these, so all of this is tested without VS Code.

import type { RelatedItemsResult } from '../../../shared/protocol.ts';
import type { Location, RelatedEntry } from '../../../shared/types.ts';
import { describeLocation } from '../locations.ts';
import { typeVerb } from '../../../shared/wording.ts';
import { lookOf, type RelationshipLook } from '../proposals/relationshipLook.ts';

export interface RelatedRow {
  id: string;
  label: string;
  description: string;
  tooltip: string;
  look: RelationshipLook;
  /** What clicking opens: the file, at its closest passage when one was matched. */
  open: { folder: string; path: string; location: Location | null };
}

const SIMILAR_LOOK: RelationshipLook = { icon: 'symbol-text', color: 'descriptionForeground' };
const NEARBY_LOOK: RelationshipLook = { icon: 'folder', color: 'descriptionForeground' };

/** The kind in words: "links to", "linked from", "supports", "similar content", "nearby". */
export function kindWords(entry: RelatedEntry): string {
  const relationship = entry.relationship;
  if (relationship) {
    if (relationship.type === 'links_to') return relationship.direction === 'outgoing' ? 'links to' : 'linked from';
    return typeVerb(relationship.type);
  }
  return entry.kind === 'nearby' ? 'nearby' : 'similar content';
}

/** The one number of a row, always with what it is: "strength 0.62", "similarity 0.81", or nothing measured. */
export function numberWords(entry: RelatedEntry): string {
  if (entry.relationship) return `strength ${entry.relationship.strength.toFixed(2)}`;
  return entry.similarity === null ? 'no similarity measured' : `similarity ${entry.similarity.toFixed(2)}`;
}

export const linkedWords = (entry: RelatedEntry) => (entry.linked ? 'linked' : 'not linked yet');

export function relatedRows(result: RelatedItemsResult): RelatedRow[] {
  const { folder, related } = result;
  return related.entries.map((entry, index) => {
    const relationship = entry.relationship;
    const look = relationship ? lookOf(relationship.type) : entry.kind === 'nearby' ? NEARBY_LOOK : SIMILAR_LOOK;
    const number = relationship
      ? `Strength ${relationship.strength.toFixed(2)} (${relationship.score_version}): a heuristic relationship strength, not a probability. ${statusWords(relationship.status)}.`
      : entry.similarity === null
        ? 'No similarity was measured (no vectors to compare).'
        : `Similarity ${entry.similarity.toFixed(2)}: ${related.similarity_label}.`;
    const tooltip = [
      entry.item.title ? `${entry.item.title} (${entry.item.path})` : entry.item.path,
      `${capitalised(kindWords(entry))}. ${number}`,
      ...(relationship ? [`Evidence: ${relationship.evidence}`] : []),
      ...(entry.why.length > 0 ? [`Why: ${entry.why.join('; ')}`] : []),
      entry.linked ? 'Linked: the documents link to each other.' : 'Not linked yet: neither document links to the other.',
      ...(entry.passage ? [`Opens at the closest passage, ${describeLocation(entry.passage.location, entry.item.path)}.`] : []),
    ].join('\n');
    return {
      id: `${folder}|${related.item.item_id}|${index}|${entry.item.item_id}`,
      label: entry.item.title ?? entry.item.path,
      description: `${kindWords(entry)} · ${numberWords(entry)} · ${linkedWords(entry)}`,
      tooltip,
      look,
      open: { folder, path: entry.item.path, location: entry.passage?.location ?? null },
    };
  });
}

const statusWords = (status: string) =>
  status === 'confirmed' ? 'Confirmed by a person' : status === 'rejected' ? 'Rejected by a person' : 'Suggested by analysis, not yet reviewed';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Why the view is empty, in words, for its message. */
export function emptyMessage(result: RelatedItemsResult | null, onlyUnlinked: boolean, hasFile: boolean): string | undefined {
  if (!hasFile) return 'Open a file of an indexed folder to see what is related to it.';
  if (!result) return 'This file is not an indexed item (yet): nothing can be related to it until it is indexed.';
  if (result.related.entries.length > 0) return undefined;
  return onlyUnlinked ? 'Everything related to this file is already linked. Show linked ones too with the filter button.' : 'Nothing related to this file yet.';
}
