// Relata: Search Knowledge: a quick pick whose results follow the typing (debounced, the
// previous request cancelled), rendered by searchRows.ts; choosing a result opens its file at the
// passage (the open copy, when the result is its original: openCopy.ts). Each row has two
// buttons: the item's relationships (a list; choosing one opens its panel) and "why" in full.

import * as vscode from 'vscode';
import { ItemRequest, RelatedRequest, SearchRequest } from '../../shared/protocol.ts';
import { namedWords } from '../../shared/queryWords.ts';
import { relationshipRows } from './itemRelationshipRows.ts';
import { openAt } from './openLocation.ts';
import { pathToOpen } from './openCopy.ts';
import { searchEntries, whyInFull, type SearchListEntry, type SearchRow } from './searchRows.ts';
import type { ServerConnection } from './serverConnection.ts';

const DEBOUNCE_MS = 200;

type Pick = vscode.QuickPickItem & { row?: SearchRow };

const RELATIONSHIPS_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('references'), tooltip: 'Show this item’s relationships' };
const WHY_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('question'), tooltip: 'Why this matched, in full' };

function toPick(entry: SearchListEntry): Pick {
  switch (entry.kind) {
    case 'folder':
      return { label: entry.label, description: entry.description, alwaysShow: true };
    case 'notice':
      return { label: entry.label, detail: entry.detail, alwaysShow: true };
    case 'result':
      return { label: entry.label, description: entry.description, detail: entry.detail, alwaysShow: true, buttons: [RELATIONSHIPS_BUTTON, WHY_BUTTON], row: entry };
  }
}

/** The item's relationships in a second list; choosing one opens the relationship panel. */
async function showRelationships(server: ServerConnection, row: SearchRow): Promise<void> {
  const uri = vscode.Uri.joinPath(vscode.Uri.parse(row.folder), ...row.result.path.split('/')).toString();
  const related = await server.request(RelatedRequest.type, { uri });
  const rows = related ? relationshipRows(related) : [];
  const title = `Relationships of ${row.result.title ?? row.result.path}`;
  if (rows.length === 0) {
    void vscode.window.showInformationMessage(`Relata: ${row.result.path}: Relata has found no relationships for it (none pending or confirmed).`);
    return;
  }
  const chosen = await vscode.window.showQuickPick(rows, { title, placeHolder: 'Choose one to open its evidence and review it' });
  if (chosen) await vscode.commands.executeCommand('relata.openRelationship', { folder: related!.folder, id: chosen.relationship.id });
}

export function searchKnowledge(server: ServerConnection): void {
  const pick = vscode.window.createQuickPick<Pick>();
  pick.title = 'Relata: Search Knowledge';
  pick.placeholder = 'Search the folder’s documents (relevance is relative to each result set)';
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: vscode.CancellationTokenSource | undefined;

  const run = async (query: string) => {
    inFlight?.cancel();
    if (!query.trim()) {
      pick.items = [];
      pick.busy = false;
      return;
    }
    const source = new vscode.CancellationTokenSource();
    inFlight = source;
    pick.busy = true;
    try {
      const { folders } = await server.request(SearchRequest.type, { query }, source.token);
      if (source.token.isCancellationRequested) return;
      pick.items = searchEntries(folders).map(toPick);
    } catch (error) {
      if (source.token.isCancellationRequested) return;
      pick.items = [{ label: '$(warning) Search failed', detail: (error as Error).message, alwaysShow: true }];
    } finally {
      if (inFlight === source) pick.busy = false;
    }
  };

  pick.onDidChangeValue((value) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(value), DEBOUNCE_MS);
  });
  // The file open when the search began: if it is a copy of a result's original, that result opens it.
  const openUri = vscode.window.activeTextEditor?.document.uri;
  const openFile = openUri?.scheme === 'file' ? server.request(ItemRequest.type, { uri: openUri.toString() }).catch(() => null) : Promise.resolve(null);
  pick.onDidAccept(() => {
    const row = pick.selectedItems[0]?.row;
    if (!row) return;
    pick.hide();
    void openFile
      .then((open) => {
        const target = pathToOpen(row.folder, row.result.item_id, row.result.path, open);
        return openAt(row.folder, target, row.result.passage?.location, undefined, namedWords(row.query));
      })
      .catch((error: Error) => vscode.window.showErrorMessage(`Relata: could not open ${row.result.path}: ${error.message}`));
  });
  pick.onDidTriggerItemButton(({ button, item }) => {
    const row = item.row;
    if (!row) return;
    if (button === WHY_BUTTON) {
      // The list stays open behind the dialog, so the person returns to the same results.
      const why = whyInFull(row);
      pick.ignoreFocusOut = true;
      void Promise.resolve(vscode.window.showInformationMessage(why.message, { modal: true, detail: why.detail })).finally(() => {
        pick.ignoreFocusOut = false;
        pick.show();
      });
      return;
    }
    pick.hide();
    showRelationships(server, row).catch((error: Error) => vscode.window.showErrorMessage(`Relata: relationships of ${row.result.path}: ${error.message}`));
  });
  pick.onDidHide(() => {
    if (timer) clearTimeout(timer);
    inFlight?.cancel();
    pick.dispose();
  });
  pick.show();
}
