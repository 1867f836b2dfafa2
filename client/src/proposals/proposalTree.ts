// The Proposals view's tree, as plain data: pending proposals grouped by type (strongest first),
// then Confirmed, Rejected and Conflicts sections; one level of folders on top when several
// folders are open. A relationship repeated by a document's near-copies is one row with the
// others under it (the server's copy groups). The VS Code adapter (proposalsView.ts) only renders
// these nodes, so the grouping is tested without VS Code.

import type { CopyGroup, FolderRelationships } from '../../../shared/protocol.ts';
import { changeHeadline, describeChangeSinceDecision } from '../../../shared/decisionChange.ts';
import type { RelationshipStatus, RelationshipView } from '../../../shared/types.ts';
import { reviewStatus } from '../hoverContent.ts';

export type ProposalNode =
  | { kind: 'folder'; id: string; label: string; children: ProposalNode[] }
  | { kind: 'section'; id: string; label: string; description: string; children: ProposalNode[] }
  | { kind: 'group'; id: string; label: string; description: string; children: ProposalNode[] }
  | {
      kind: 'proposal';
      id: string;
      label: string;
      description: string;
      tooltip: string;
      /** Drives the inline Confirm / Reject actions (package.json menus). */
      contextValue: `relata.proposal.${RelationshipStatus}`;
      folder: string;
      relationship: RelationshipView;
      /** The same relationship of the ends' near-copies, shown once under this row, each decided on its own. */
      children?: ProposalNode[];
    };

const name = (ref: RelationshipView['from']) => ref.title ?? ref.path;

function proposalNode(folder: string, section: string, relationship: RelationshipView): ProposalNode {
  const signals = relationship.signals.map((signal) => `${signal.type} ${signal.value} (strength ${signal.strength.toFixed(2)} × weight ${signal.weight.toFixed(2)})`);
  return {
    kind: 'proposal',
    id: `${folder}|${section}|${relationship.id}`,
    label: `${name(relationship.from)} ↔ ${name(relationship.to)}`,
    description: `${relationship.score.toFixed(2)} · ${relationship.type.replace(/_/g, ' ')}${relationship.near_duplicate ? ' · near-duplicate' : ''}` +
      (relationship.changed_since_decision ? ` · ${changeHeadline(relationship.changed_since_decision)}` : ''),
    tooltip: [
      `${relationship.from.path} ${relationship.type} ${relationship.to.path}`,
      `strength ${relationship.score.toFixed(2)} (${relationship.score_version}), ${reviewStatus(relationship.status)}`,
      ...signals,
      ...(relationship.note ? [`note: ${relationship.note}`] : []),
      ...(relationship.changed_since_decision ? [describeChangeSinceDecision(relationship.changed_since_decision)] : []),
    ].join('\n'),
    contextValue: `relata.proposal.${relationship.status}`,
    folder,
    relationship,
  };
}

const byScore = (a: RelationshipView, b: RelationshipView) => b.score - a.score || a.id.localeCompare(b.id);

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
 * so nothing a person must decide is hidden. Strongest row first.
 */
function proposalRows(folder: string, section: string, members: readonly RelationshipView[], groupOf: GroupOf, kindOf: ReadonlyMap<string, string>): ProposalNode[] {
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
    .sort((a, b) => byScore(a.row, b.row))
    .map(({ row, others }) => {
      const node = proposalNode(folder, section, row);
      if (others.length === 0 || node.kind !== 'proposal') return node;
      const shown = new Set([row.from.item_id, row.to.item_id]);
      const copies = new Set(others.flatMap((r) => [r.from.item_id, r.to.item_id]).filter((id) => !shown.has(id)));
      const kinds = new Set([...copies].map((id) => kindOf.get(id) ?? 'near_duplicate'));
      return {
        ...node,
        description: `${node.description} · ${copiesLabel(copies.size || others.length, kinds)}`,
        children: others.map((r) => proposalNode(folder, section, r)),
      };
    });
}

function sections(folder: string, relationships: readonly RelationshipView[], copyGroups: readonly CopyGroup[] = []): ProposalNode[] {
  const groupOf = groupLookup(copyGroups);
  const kindOf = new Map(copyGroups.flatMap((group) => group.also.map((member) => [member.item_id, member.kind] as [string, string])));
  const rows = (section: string, members: readonly RelationshipView[]) => proposalRows(folder, section, members, groupOf, kindOf);
  const pending = relationships.filter((r) => r.status === 'pending');
  const types = [...new Set(pending.map((r) => r.type))].sort();
  const groups: ProposalNode[] = types.map((type) => {
    const members = pending.filter((r) => r.type === type).sort(byScore);
    return {
      kind: 'group',
      id: `${folder}|pending|${type}`,
      label: type.replace(/_/g, ' '),
      description: `${members.length}`,
      children: rows('pending', members),
    };
  });
  const section = (key: string, label: string, members: RelationshipView[]): ProposalNode => ({
    kind: 'section',
    id: `${folder}|${key}`,
    label,
    description: `${members.length}`,
    children: rows(key, members),
  });
  return [
    { kind: 'section', id: `${folder}|pending`, label: 'Pending review', description: `${pending.length}`, children: groups },
    section('confirmed', 'Confirmed', relationships.filter((r) => r.status === 'confirmed')),
    section('rejected', 'Rejected', relationships.filter((r) => r.status === 'rejected')),
    section('conflicts', 'Conflicts', relationships.filter((r) => r.type === 'contradicts' && r.status !== 'rejected')),
  ];
}

export function proposalTree(folders: readonly FolderRelationships[]): ProposalNode[] {
  if (folders.length === 1) return sections(folders[0]!.folder, folders[0]!.relationships, folders[0]!.copyGroups);
  return folders.map((folder) => ({
    kind: 'folder',
    id: folder.folder,
    label: folder.name,
    children: sections(folder.folder, folder.relationships, folder.copyGroups),
  }));
}
