// The Proposals view (activity-bar container "Relata"): renders proposalTree.ts's nodes, refreshes
// when the server says a folder's relationships changed, and says why it is empty.

import * as vscode from 'vscode';
import { RelationshipsRequest } from '../../../shared/protocol.ts';
import type { ServerConnection } from '../serverConnection.ts';
import { proposalTree, type ProposalNode } from './proposalTree.ts';

export class ProposalsView implements vscode.TreeDataProvider<ProposalNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: Promise<ProposalNode[]> | null = null;
  message: string | undefined;

  constructor(private readonly server: ServerConnection) {}

  refresh(): void {
    this.roots = null;
    this.changed.fire();
  }

  private async load(): Promise<ProposalNode[]> {
    try {
      const { folders } = await this.server.request(RelationshipsRequest.type, {});
      this.message = folders.every((folder) => folder.relationships.length === 0)
        ? 'No relationships yet: they are proposed as indexing discovers them.'
        : undefined;
      return proposalTree(folders);
    } catch (error) {
      this.message = `Relationships are not available: ${(error as Error).message}`;
      return [];
    }
  }

  async getChildren(node?: ProposalNode): Promise<ProposalNode[]> {
    if (node) return node.children ?? [];
    this.roots ??= this.load();
    return this.roots;
  }

  getTreeItem(node: ProposalNode): vscode.TreeItem {
    if (node.kind === 'proposal') {
      const item = new vscode.TreeItem(node.label, node.children ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = node.id;
      item.description = node.description;
      item.tooltip = node.tooltip;
      item.contextValue = node.contextValue;
      item.iconPath = new vscode.ThemeIcon(
        node.relationship.status === 'confirmed' ? 'pass' : node.relationship.status === 'rejected' ? 'circle-slash' : 'question',
      );
      item.command = { command: 'relata.openRelationship', title: 'Open relationship', arguments: [{ folder: node.folder, id: node.relationship.id }] };
      return item;
    }
    const expanded = node.kind === 'folder' || (node.kind === 'section' && node.label === 'Pending review') || node.kind === 'group';
    const item = new vscode.TreeItem(
      node.label,
      node.children.length === 0
        ? vscode.TreeItemCollapsibleState.None
        : expanded
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = node.id;
    if (node.kind !== 'folder') item.description = node.description;
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
