// The Related view (activity-bar container "Relata"): what is related to the active file, asked of
// the server (`relata/relatedItems`) whenever the active editor changes or relationships change.
// Renders relatedRows.ts's rows; keeps the "not linked yet" filter per workspace (its state is a
// context key, so the title bar shows the right toggle); says why it is empty.

import * as vscode from 'vscode';
import { RelatedItemsRequest } from '../../../shared/protocol.ts';
import type { ServerConnection } from '../serverConnection.ts';
import { emptyMessage, relatedRows, type RelatedRow } from './relatedRows.ts';

const UNLINKED_KEY = 'relata.related.unlinkedOnly';

export class RelatedView implements vscode.TreeDataProvider<RelatedRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private rows: Promise<RelatedRow[]> | null = null;
  private view: vscode.TreeView<RelatedRow> | undefined;
  /** The file shown: the last file editor that was active, so focusing the view itself keeps its list. */
  private file: vscode.Uri | undefined = vscode.window.activeTextEditor?.document.uri;
  /** The last load got no list for a file (an error, or not indexed yet). */
  private unanswered = false;

  constructor(
    private readonly server: ServerConnection,
    private readonly state: vscode.Memento,
  ) {
    void vscode.commands.executeCommand('setContext', UNLINKED_KEY, this.onlyUnlinked);
  }

  attach(view: vscode.TreeView<RelatedRow>): void {
    this.view = view;
  }

  get onlyUnlinked(): boolean {
    return this.state.get<boolean>(UNLINKED_KEY) === true;
  }

  async setOnlyUnlinked(value: boolean): Promise<void> {
    await this.state.update(UNLINKED_KEY, value || undefined);
    await vscode.commands.executeCommand('setContext', UNLINKED_KEY, value);
    this.refresh();
  }

  /**
   * The active editor changed: follow the file it shows (not the output panel, not an untitled
   * buffer); for a parsed-text view, the file whose text it is (`fileOf`).
   */
  async follow(editor: vscode.TextEditor | undefined, fileOf: (view: vscode.Uri) => Promise<vscode.Uri | null> = async () => null): Promise<void> {
    const shown = editor?.document.uri;
    const uri = shown?.scheme === 'file' ? shown : shown ? await fileOf(shown) : null;
    if (!uri || uri.scheme !== 'file' || uri.toString() === this.file?.toString()) return;
    this.file = uri;
    this.refresh();
  }

  refresh(): void {
    this.rows = null;
    this.changed.fire();
  }

  /** The server reported progress: a list that could not be had (server starting, file not indexed yet) is asked for again. */
  retryIfUnanswered(): void {
    if (this.unanswered) this.refresh();
  }

  private async load(): Promise<RelatedRow[]> {
    const file = this.file;
    const onlyUnlinked = this.onlyUnlinked;
    if (this.view) this.view.description = onlyUnlinked ? 'not linked yet only' : undefined;
    this.unanswered = false;
    if (!file) return this.say(emptyMessage(null, onlyUnlinked, false));
    try {
      const result = await this.server.request(RelatedItemsRequest.type, { uri: file.toString(), onlyUnlinked });
      this.unanswered = result === null;
      if (this.view) this.view.title = result ? `Related: ${result.related.item.title ?? result.related.item.path}` : 'Related';
      this.say(emptyMessage(result, onlyUnlinked, true));
      return result ? relatedRows(result) : [];
    } catch (error) {
      this.unanswered = true;
      return this.say(`Related is not available: ${(error as Error).message}`);
    }
  }

  private say(message: string | undefined): RelatedRow[] {
    if (this.view) this.view.message = message;
    return [];
  }

  getChildren(row?: RelatedRow): Promise<RelatedRow[]> {
    if (row) return Promise.resolve([]);
    this.rows ??= this.load();
    return this.rows;
  }

  getTreeItem(row: RelatedRow): vscode.TreeItem {
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = row.id;
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.iconPath = new vscode.ThemeIcon(row.look.icon, new vscode.ThemeColor(row.look.color));
    item.accessibilityInformation = { label: `${row.label}, ${row.description}` };
    item.command = { command: 'relata.openSources', title: 'Open at the closest passage', arguments: [[row.open]] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
