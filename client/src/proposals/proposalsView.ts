// The Proposals view (activity-bar container "Relata"): renders proposalTree.ts's nodes with each
// type's icon and colour, badges the view with the number of proposals waiting for review, keeps
// the person's filter per workspace, refreshes when the server says a folder's relationships
// changed, and says why it is empty. It asks for the first page of each group and section
// (shared/proposalPages.ts) and for more of one when a person clicks its "Show more" row.

import * as vscode from 'vscode';
import { RelationshipsRequest, type FolderRelationships, type UnitRows } from '../../../shared/protocol.ts';
import { PROPOSALS_PAGE_SIZE } from '../../../shared/proposalPages.ts';
import { localDateText } from '../../../shared/decisionDate.ts';
import type { ServerConnection } from '../serverConnection.ts';
import { describeFilter, isFiltered, readProposalFilter, type ProposalFilter } from './proposalFilter.ts';
import { pendingCount, proposalTree, shownCount, type ProposalNode } from './proposalTree.ts';
import { typeName } from '../../../shared/wording.ts';

const FILTER_KEY = 'relata.proposals.filter';

export class ProposalsView implements vscode.TreeDataProvider<ProposalNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: Promise<ProposalNode[]> | null = null;
  private view: vscode.TreeView<ProposalNode> | undefined;
  /** The units a person asked to see more of, by folder and unit. */
  private readonly moreRows = new Map<string, UnitRows>();

  constructor(
    private readonly server: ServerConnection,
    private readonly state: vscode.Memento,
  ) {}

  /** The tree view this provider renders into: its badge, description and message follow each load. */
  attach(view: vscode.TreeView<ProposalNode>): void {
    this.view = view;
  }

  get filter(): ProposalFilter {
    return readProposalFilter(this.state.get(FILTER_KEY));
  }

  async setFilter(filter: ProposalFilter): Promise<void> {
    await this.state.update(FILTER_KEY, isFiltered(filter) ? filter : undefined);
    this.moreRows.clear();
    this.refresh();
  }

  refresh(): void {
    this.roots = null;
    this.changed.fire();
  }

  private show(folders: readonly FolderRelationships[], filter: ProposalFilter, problem?: string): void {
    if (!this.view) return;
    const pending = pendingCount(folders);
    this.view.badge = pending > 0 ? { value: pending, tooltip: `${pending} proposal${pending === 1 ? '' : 's'} waiting for your review` } : undefined;
    this.view.description = isFiltered(filter) ? `filtered: ${describeFilter(filter)}` : undefined;
    this.view.message = problem
      ? problem
      : folders.every((folder) => folder.relationships.length === 0)
        ? 'No relationships found so far. Relata proposes one when a document links to another, or two documents share named organisations or people, figures, dates or closely similar passages; any new ones appear as indexing goes on.'
        : shownCount(folders, filter) === 0
          ? `No relationship matches the filter (${describeFilter(filter)}). Change or clear it with the filter button.`
          : undefined;
  }

  private async load(): Promise<ProposalNode[]> {
    const filter = this.filter;
    try {
      const moreRows = [...this.moreRows.values()];
      const { folders } = await this.server.request(RelationshipsRequest.type, { pageSize: PROPOSALS_PAGE_SIZE, moreRows, filter });
      this.show(folders, filter);
      return proposalTree(folders, { filter, dateText: localDateText(vscode.env.language) });
    } catch (error) {
      this.show([], filter, `Relationships are not available: ${(error as Error).message}`);
      return [];
    }
  }

  /** The next page of a unit the server cut ("Show more"); a new filter starts every unit at its first page again. */
  showMore(node: Extract<ProposalNode, { kind: 'more' }>): void {
    this.moreRows.set(`${node.folder}|${node.unit}`, { folder: node.folder, unit: node.unit, rows: node.shown + PROPOSALS_PAGE_SIZE });
    this.refresh();
  }

  async getChildren(node?: ProposalNode): Promise<ProposalNode[]> {
    if (node) return node.kind === 'more' ? [] : (node.children ?? []);
    this.roots ??= this.load();
    return this.roots;
  }

  getTreeItem(node: ProposalNode): vscode.TreeItem {
    if (node.kind === 'proposal') {
      const item = new vscode.TreeItem(
        node.label,
        node.children ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      item.id = node.id;
      item.description = node.description;
      item.tooltip = node.tooltip;
      item.contextValue = node.contextValue;
      item.iconPath = new vscode.ThemeIcon(node.look.icon, new vscode.ThemeColor(node.look.color));
      // The icon says the type to the eye; a screen reader is told in words.
      item.accessibilityInformation = { label: `${typeName(node.relationship.type)}, ${node.label}, ${node.relationship.status}${node.description ? `, ${node.description}` : ''}` };
      item.command = { command: 'relata.openRelationship', title: 'Open relationship', arguments: [{ folder: node.folder, id: node.relationship.id }] };
      return item;
    }
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
      item.id = node.id;
      item.description = node.description;
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: 'relata.showMoreProposals', title: node.label, arguments: [node] };
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
    if (node.kind === 'group') item.iconPath = new vscode.ThemeIcon(node.look.icon, new vscode.ThemeColor(node.look.color));
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
