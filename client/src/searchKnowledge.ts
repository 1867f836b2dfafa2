// Relata: Search Knowledge: a quick pick whose results follow the typing (debounced, the
// previous request cancelled), rendered by searchRows.ts; choosing a result opens its file at the
// passage (the open copy, when the result is its original: openCopy.ts).

import * as vscode from 'vscode';
import { ItemRequest, SearchRequest } from '../../shared/protocol.ts';
import { openAt } from './openLocation.ts';
import { pathToOpen } from './openCopy.ts';
import { searchEntries, type SearchListEntry, type SearchRow } from './searchRows.ts';
import type { ServerConnection } from './serverConnection.ts';

const DEBOUNCE_MS = 200;

type Pick = vscode.QuickPickItem & { row?: SearchRow };

function toPick(entry: SearchListEntry): Pick {
  switch (entry.kind) {
    case 'separator':
      return { label: entry.label, kind: vscode.QuickPickItemKind.Separator };
    case 'notice':
      return { label: entry.label, detail: entry.detail, alwaysShow: true };
    case 'result':
      return { label: entry.label, description: entry.description, detail: entry.detail, alwaysShow: true, row: entry };
  }
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
        return openAt(row.folder, target, row.result.passage?.location);
      })
      .catch((error: Error) => vscode.window.showErrorMessage(`Relata: could not open ${row.result.path}: ${error.message}`));
  });
  pick.onDidHide(() => {
    if (timer) clearTimeout(timer);
    inFlight?.cancel();
    pick.dispose();
  });
  pick.show();
}
