// Relata: Make This File the Original: of byte-identical files, the one a person picks is the
// item that is parsed, searched and related; the one that was becomes its copy. Run on the file
// in the explorer or, from the palette, on the file open in the editor.

import * as vscode from 'vscode';
import { ChooseOriginalRequest } from '../../shared/protocol.ts';
import type { ServerConnection } from './serverConnection.ts';

export async function chooseOriginal(server: ServerConnection, file?: vscode.Uri): Promise<void> {
  const uri = file ?? vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== 'file') {
    void vscode.window.showInformationMessage('Relata: open or select the copy that should be the original.');
    return;
  }
  const chosen = await server.request(ChooseOriginalRequest.type, { uri: uri.toString() });
  void vscode.window.showInformationMessage(`Relata: ${chosen.original} is now the original; ${chosen.formerOriginal} is identical to it.`);
}
