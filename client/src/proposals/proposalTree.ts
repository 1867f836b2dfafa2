// The Proposals view's tree, as plain data: pending proposals grouped by type (strongest first),
// then Confirmed, Rejected and Conflicts sections; one level of folders on top when several
// folders are open. The VS Code adapter (proposalsView.ts) only renders these nodes, so the
// grouping is tested without VS Code.

import type { FolderRelationships } from '../../../shared/protocol.ts';
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
    };

const name = (ref: RelationshipView['from']) => ref.title ?? ref.path;

function proposalNode(folder: string, section: string, relationship: RelationshipView): ProposalNode {
  const signals = relationship.signals.map((signal) => `${signal.type} ${signal.value} (strength ${signal.strength.toFixed(2)} × weight ${signal.weight.toFixed(2)})`);
  return {
    kind: 'proposal',
    id: `${folder}|${section}|${relationship.id}`,
    label: `${name(relationship.from)} ↔ ${name(relationship.to)}`,
    description: `${relationship.score.toFixed(2)} · ${relationship.type.replace(/_/g, ' ')}${relationship.near_duplicate ? ' · near-duplicate' : ''}`,
    tooltip: [
      `${relationship.from.path} ${relationship.type} ${relationship.to.path}`,
      `strength ${relationship.score.toFixed(2)} (${relationship.score_version}), ${reviewStatus(relationship.status)}`,
      ...signals,
      ...(relationship.note ? [`note: ${relationship.note}`] : []),
    ].join('\n'),
    contextValue: `relata.proposal.${relationship.status}`,
    folder,
    relationship,
  };
}

const byScore = (a: RelationshipView, b: RelationshipView) => b.score - a.score || a.id.localeCompare(b.id);

function sections(folder: string, relationships: readonly RelationshipView[]): ProposalNode[] {
  const pending = relationships.filter((r) => r.status === 'pending');
  const types = [...new Set(pending.map((r) => r.type))].sort();
  const groups: ProposalNode[] = types.map((type) => {
    const members = pending.filter((r) => r.type === type).sort(byScore);
    return {
      kind: 'group',
      id: `${folder}|pending|${type}`,
      label: type.replace(/_/g, ' '),
      description: `${members.length}`,
      children: members.map((r) => proposalNode(folder, 'pending', r)),
    };
  });
  const section = (key: string, label: string, members: RelationshipView[]): ProposalNode => ({
    kind: 'section',
    id: `${folder}|${key}`,
    label,
    description: `${members.length}`,
    children: members.sort(byScore).map((r) => proposalNode(folder, key, r)),
  });
  return [
    { kind: 'section', id: `${folder}|pending`, label: 'Pending review', description: `${pending.length}`, children: groups },
    section('confirmed', 'Confirmed', relationships.filter((r) => r.status === 'confirmed')),
    section('rejected', 'Rejected', relationships.filter((r) => r.status === 'rejected')),
    section('conflicts', 'Conflicts', relationships.filter((r) => r.type === 'contradicts' && r.status !== 'rejected')),
  ];
}

export function proposalTree(folders: readonly FolderRelationships[]): ProposalNode[] {
  if (folders.length === 1) return sections(folders[0]!.folder, folders[0]!.relationships);
  return folders.map((folder) => ({
    kind: 'folder',
    id: folder.folder,
    label: folder.name,
    children: sections(folder.folder, folder.relationships),
  }));
}
