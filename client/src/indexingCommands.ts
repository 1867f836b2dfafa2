// The commands that steer indexing and find the store: Index Now, Pause / Resume Indexing,
// Re-index This File and Open Store Folder. The server does the work (relata/indexing,
// relata/reindexFile, relata/storeFolder); these say what it did, or why nothing could be done.

import * as vscode from 'vscode';
import { IndexingRequest, ReindexFileRequest, StoreFolderRequest, type IndexingAction, type StoreFolder } from '../../shared/protocol.ts';
import type { ServerConnection } from './serverConnection.ts';
import { describeOutcomes } from './statusSummary.ts';

export async function steerIndexing(server: ServerConnection, action: IndexingAction): Promise<void> {
  const { folders } = await server.request(IndexingRequest.type, { action });
  void vscode.window.showInformationMessage(describeOutcomes(folders));
}

/** The file from the explorer's context menu, else the active editor's. */
export async function reindexFile(server: ServerConnection, file?: vscode.Uri): Promise<void> {
  const uri = file ?? vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== 'file') {
    void vscode.window.showInformationMessage('Relata: open a file of the folder (or choose one in the Explorer) to re-index it.');
    return;
  }
  const name = vscode.workspace.asRelativePath(uri);
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Relata: re-indexing ${name}` },
    () => server.request(ReindexFileRequest.type, { uri: uri.toString() }),
  );
  void vscode.window.showInformationMessage(`Relata: ${result.path}: ${result.outcome}`);
}

export async function openStoreFolder(server: ServerConnection): Promise<void> {
  const { folders } = await server.request(StoreFolderRequest.type, {});
  const store = await chooseStore(folders);
  if (!store) return;
  if (!store.dataDir) {
    void vscode.window.showInformationMessage(
      `Relata: ${store.name} is kept in MongoDB + Qdrant (${store.where}), which has no store folder on this machine.`,
    );
    return;
  }
  const folder = vscode.Uri.file(store.dataDir);
  // A file manager exists only beside a desktop window on this machine, not in a browser or a remote window.
  if (vscode.env.uiKind === vscode.UIKind.Desktop && !vscode.env.remoteName) {
    await vscode.commands.executeCommand('revealFileInOS', folder);
    return;
  }
  const choice = await vscode.window.showInformationMessage(`Relata: the store of ${store.name} is in ${store.dataDir}`, 'Copy Path', 'Open in New Window');
  if (choice === 'Copy Path') await vscode.env.clipboard.writeText(store.dataDir);
  if (choice === 'Open in New Window') await vscode.commands.executeCommand('vscode.openFolder', folder, { forceNewWindow: true });
}

async function chooseStore(folders: readonly StoreFolder[]): Promise<StoreFolder | undefined> {
  if (folders.length === 0) {
    void vscode.window.showInformationMessage('Relata: no folder store is open yet (is a folder open and trusted?).');
    return undefined;
  }
  if (folders.length === 1) return folders[0];
  const picked = await vscode.window.showQuickPick(
    folders.map((store) => ({ label: store.name, description: store.where, store })),
    { title: 'Relata: Open Store Folder', placeHolder: 'Which folder’s store?' },
  );
  return picked?.store;
}
