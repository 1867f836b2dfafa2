// The Proposals view's tree, as plain data: pending proposals grouped by type in review order
// (contradictions, then supports, then the rest; strongest first within a type), then Confirmed,
// Rejected and Conflicts sections; one level of folders on top when several folders are open.
// Relationships the documents state by a link, with nothing else to check, have their own section
// ("Linked in the documents", shared/linkedInDocuments.ts), outside the review queue and its badge. A
// row is built for the default sidebar width: its label is the pair on one line, each name short
// and the two told apart (pairLabel.ts), its description the strength (and the type, where the
// section mixes types), its tooltip the full pair; each type has its own icon and colour. A
// relationship repeated by a document's near-copies is one row with the others under it (the
// server's copy groups), and every count is of the rows shown, the folded copies said apart
// ("2 (+1 copy)"). The VS Code adapter (proposalsView.ts) only renders these nodes, so all of this
// is tested without VS Code.

import type { CopyGroup, FolderRelationships, SignalContribution } from '../../../shared/protocol.ts';
import { changeHeadline, describeChangeSinceDecision, type DateText } from '../../../shared/decisionChange.ts';
import { awaitingReview, LINKED_IN_THE_DOCUMENTS, linkedInDocuments } from '../../../shared/linkedInDocuments.ts';
import type { RelationshipStatus, RelationshipView } from '../../../shared/types.ts';
import { reviewStatus } from '../hoverContent.ts';
import { countWords, pairLabel } from './pairLabel.ts';
import { isFiltered, NO_FILTER, passesFilter, type ProposalFilter } from './proposalFilter.ts';
import { pendingUnit, PROPOSALS_PAGE_SIZE, type ProposalUnit } from '../../../shared/proposalPages.ts';
import { relationshipSentence, typeName } from '../../../shared/wording.ts';
import { byReviewOrder, lookOf, type RelationshipLook } from './relationshipLook.ts';
import { strengthArithmetic } from './strengthArithmetic.ts';

export type ProposalNode =
  | { kind: 'folder'; id: string; label: string; children: ProposalNode[] }
  /** The last row of a unit the server cut (shared/proposalPages.ts): asks for the next page of it. */
  | { kind: 'more'; id: string; label: string; description: string; folder: string; unit: ProposalUnit; shown: number }
  | { kind: 'section'; id: string; label: string; description: string; children: ProposalNode[] }
  | { kind: 'group'; id: string; label: string; description: string; look: RelationshipLook; children: ProposalNode[] }
  | {
      kind: 'proposal';
      id: string;
      label: string;
      description: string;
      tooltip: string;
      look: RelationshipLook;
      /** Drives the inline Confirm / Reject actions (package.json menus). */
      contextValue: `relata.proposal.${RelationshipStatus}`;
      folder: string;
      relationship: RelationshipView;
      /** The same relationship of the ends' near-copies, shown once under this row, each decided on its own. */
      children?: ProposalNode[];
    };

export interface TreeOptions {
  filter?: ProposalFilter;
  /** How decision dates read (the user's locale); the ISO day when not given. */
  dateText?: DateText;
}

const fullName = (ref: RelationshipView['from']) => ref.title ?? ref.path;

interface Context {
  folder: string;
  contributions: Readonly<Record<string, SignalContribution[]>>;
  dateText: DateText;
  /** Characters for each name in a row's label: fewer when a folder level indents the rows. */
  nameChars: number;
}

/** The decision in a few words for the row: who, when (in the user's locale), and the note. */
function decisionWords(relationship: RelationshipView, dateText: DateText): string | undefined {
  if (relationship.status === 'pending' || !relationship.decided_at) return undefined;
  const note = relationship.note ? ` · “${relationship.note}”` : '';
  return `${relationship.status} ${dateText(relationship.decided_at)}${note}`;
}

/**
 * The label is the pair; the description leads with the strength. Under a type's group the group
 * and the icon already name the type; in a section of mixed types (Confirmed, Rejected,
 * Conflicts) the description names it before the strength.
 */
function proposalNode(context: Context, section: string, relationship: RelationshipView, typed: boolean): ProposalNode {
  const { folder, dateText } = context;
  const strength = typed ? relationship.score.toFixed(2) : `${typeName(relationship.type)} ${relationship.score.toFixed(2)}`;
  const change = relationship.changed_since_decision;
  const decided = decisionWords(relationship, dateText);
  return {
    kind: 'proposal',
    id: `${folder}|${section}|${relationship.id}`,
    label: pairLabel(relationship.from, relationship.to, context.nameChars),
    description: [strength, decided, relationship.near_duplicate ? 'near-duplicate' : undefined, change ? changeHeadline(change) : undefined].filter(Boolean).join(' · '),
    tooltip: [
      `${relationshipSentence(relationship.type, fullName(relationship.from), fullName(relationship.to))} · strength ${relationship.score.toFixed(2)}`,
      `${relationship.from.path} ↔ ${relationship.to.path}`,
      relationship.status === 'pending'
        ? reviewStatus(relationship.status)
        : `${relationship.status} by ${relationship.decided_by ?? 'someone'}${relationship.decided_at ? ` on ${dateText(relationship.decided_at)}` : ''}`,
      ...(relationship.note ? [`note: ${relationship.note}`] : []),
      ...(change ? [describeChangeSinceDecision(change, dateText)] : []),
      '',
      ...strengthArithmetic(relationship, context.contributions[relationship.id]),
    ].join('\n'),
    look: lookOf(relationship.type),
    contextValue: `relata.proposal.${relationship.status}`,
    folder,
    relationship,
  };
}

const byScore = (a: RelationshipView, b: RelationshipView) => b.score - a.score || a.id.localeCompare(b.id);

/** Contradictions first, then supports, then the rest (relationshipLook.ts); strongest first within a type. */
const byReview = (a: RelationshipView, b: RelationshipView) => byReviewOrder(a.type, b.type) || byScore(a, b);

/** Each item's copy group, named by its representative; an item in no group is its own. */
type GroupOf = (itemId: string) => string;

function groupLookup(copyGroups: readonly CopyGroup[]): GroupOf {
  const representative = new Map<string, string>();
  for (const group of copyGroups) for (const member of group.also) representative.set(member.item_id, group.representative);
  return (itemId) => representative.get(itemId) ?? itemId;
}

function copiesLabel(count: number, kinds: ReadonlySet<string>): string {
  const noun = kinds.has('near_duplicate') ? 'near-cop' : 'identical cop';
  return `also: ${count} ${noun}${count === 1 ? 'y' : 'ies'}`;
}

/**
 * Relationships between the same two copy groups (or within one) are one row: the relationship
 * between the representatives when there is one, else the strongest; the others are its children,
 * so nothing a person must decide is hidden. Rows in review order.
 */
function proposalRows(context: Context, section: string, typed: boolean, members: readonly RelationshipView[], groupOf: GroupOf, kindOf: ReadonlyMap<string, string>): ProposalNode[] {
  const bundles = new Map<string, RelationshipView[]>();
  for (const relationship of [...members].sort(byScore)) {
    const key = [groupOf(relationship.from.item_id), groupOf(relationship.to.item_id)].sort().join('|');
    bundles.set(key, [...(bundles.get(key) ?? []), relationship]);
  }
  const rows = [...bundles.values()].map((bundle) => {
    const row = bundle.find((r) => groupOf(r.from.item_id) === r.from.item_id && groupOf(r.to.item_id) === r.to.item_id) ?? bundle[0]!;
    return { row, others: bundle.filter((r) => r !== row) };
  });
  return rows
    .sort((a, b) => byReview(a.row, b.row))
    .map(({ row, others }) => {
      const node = proposalNode(context, section, row, typed);
      if (others.length === 0 || node.kind !== 'proposal') return node;
      const shown = new Set([row.from.item_id, row.to.item_id]);
      const copies = new Set(others.flatMap((r) => [r.from.item_id, r.to.item_id]).filter((id) => !shown.has(id)));
      const kinds = new Set([...copies].map((id) => kindOf.get(id) ?? 'near_duplicate'));
      return {
        ...node,
        description: [node.description, copiesLabel(copies.size || others.length, kinds)].filter(Boolean).join(' · '),
        children: others.map((r) => proposalNode(context, section, r, typed)),
      };
    });
}

/** The rows under a node (a group's rows, or a section's groups' rows) and the copies folded under them. */
function rowCount(nodes: readonly ProposalNode[]): { rows: number; folded: number } {
  let rows = 0;
  let folded = 0;
  for (const node of nodes) {
    if (node.kind === 'more') continue;
    if (node.kind === 'proposal') {
      rows += 1;
      folded += node.children?.length ?? 0;
    } else {
      const inner = rowCount(node.children);
      rows += inner.rows;
      folded += inner.folded;
    }
  }
  return { rows, folded };
}

const countOf = (nodes: readonly ProposalNode[]) => {
  const { rows, folded } = rowCount(nodes);
  return countWords(rows, folded);
};

/**
 * Characters for each name, so the pair and the strength fit a row at the default sidebar width
 * (300 px; in code-server at 1600×1000 a row under a type's group has about 30 characters); a row
 * under a folder level has one indent less to spare.
 */
const NAME_CHARS = { oneFolder: 11, severalFolders: 10 } as const;

function sections(folder: FolderRelationships, options: TreeOptions, nameChars: number): ProposalNode[] {
  const filter = options.filter ?? NO_FILTER;
  const context: Context = { folder: folder.folder, contributions: folder.contributions ?? {}, dateText: options.dateText ?? ((iso) => iso.slice(0, 10)), nameChars };
  const relationships = folder.relationships.filter((relationship) => passesFilter(filter, relationship));
  const copyGroups = folder.copyGroups ?? [];
  const groupOf = groupLookup(copyGroups);
  const kindOf = new Map(copyGroups.flatMap((group) => group.also.map((member) => [member.item_id, member.kind] as [string, string])));
  const totals = folder.unitTotals;
  // A unit the server cut ends with a row asking for more, and its count says how many there are.
  const paged = (unit: ProposalUnit, members: readonly RelationshipView[], nodes: ProposalNode[]) => {
    const total = totals?.[unit] ?? members.length;
    if (total <= members.length) return { children: nodes, description: countOf(nodes) };
    const more: ProposalNode = {
      kind: 'more',
      id: `${folder.folder}|${unit}|more`,
      label: `Show ${Math.min(PROPOSALS_PAGE_SIZE, total - members.length)} more`,
      description: `${(total - members.length).toLocaleString('en')} not shown yet`,
      folder: folder.folder,
      unit,
      shown: members.length,
    };
    return { children: [...nodes, more], description: `${countOf(nodes)} of ${total.toLocaleString('en')}` };
  };
  const rows = (unit: ProposalUnit, members: readonly RelationshipView[], typed = false) =>
    paged(unit, members, proposalRows(context, unit.split(':')[0]!, typed, members, groupOf, kindOf));
  const pending = relationships.filter(awaitingReview);
  const linked = relationships.filter(linkedInDocuments);
  const types = [...new Set(pending.map((r) => r.type))].sort(byReviewOrder);
  const groups: ProposalNode[] = types.map((type) => {
    const { children, description } = rows(pendingUnit(type), pending.filter((r) => r.type === type), true);
    return {
      kind: 'group',
      id: `${folder.folder}|pending|${type}`,
      label: typeName(type),
      description,
      look: lookOf(type),
      children,
    };
  });
  const section = (key: string, label: string, { children, description }: { children: ProposalNode[]; description: string }): ProposalNode => ({
    kind: 'section',
    id: `${folder.folder}|${key}`,
    label,
    description,
    children,
  });
  const pendingTotal = totals ? types.reduce((sum, type) => sum + (totals[pendingUnit(type)] ?? 0), 0) : pending.length;
  const linkedSection = section('linked', LINKED_IN_THE_DOCUMENTS, rows('linked', linked));
  const all = [
    section('pending', 'Pending review', {
      children: groups,
      description: pendingTotal > pending.length ? `${countOf(groups)} of ${pendingTotal.toLocaleString('en')}` : countOf(groups),
    }),
    // Only when there is one: an empty section would say nothing.
    ...(linked.length > 0 && linkedSection.kind === 'section' ? [{ ...linkedSection, description: `${linkedSection.description} · stated by the documents' links, no review needed` }] : []),
    section('confirmed', 'Confirmed', rows('confirmed', relationships.filter((r) => r.status === 'confirmed'))),
    section('rejected', 'Rejected', rows('rejected', relationships.filter((r) => r.status === 'rejected'))),
    section('conflicts', 'Conflicts', rows('conflicts', relationships.filter((r) => r.type === 'contradicts' && r.status !== 'rejected'))),
  ];
  // Under a filter an empty section is noise: it only says the filter hid it.
  return isFiltered(filter) ? all.filter((node) => node.kind !== 'section' || node.children.length > 0) : all;
}

export function proposalTree(folders: readonly FolderRelationships[], options: TreeOptions = {}): ProposalNode[] {
  if (folders.length === 1) return sections(folders[0]!, options, NAME_CHARS.oneFolder);
  return folders.map((folder) => ({
    kind: 'folder',
    id: folder.folder,
    label: folder.name,
    children: sections(folder, options, NAME_CHARS.severalFolders),
  }));
}

/** The view's badge: relationships waiting for a person, in every folder, whatever the filter shows; a relationship the documents state by a link is not waiting. */
export function pendingCount(folders: readonly FolderRelationships[]): number {
  return folders.reduce((count, folder) => count + (folder.awaitingReview ?? folder.relationships.filter(awaitingReview).length), 0);
}

/** Whether the filter left anything to show, for the view's message. */
export function shownCount(folders: readonly FolderRelationships[], filter: ProposalFilter): number {
  return folders.reduce((count, folder) => count + folder.relationships.filter((r) => passesFilter(filter, r)).length, 0);
}
