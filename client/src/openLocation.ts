// Opens an item of a folder at a passage: text formats at the passage's lines, selected and
// revealed; PDFs and DOCX files with the editor VS Code has for them, and the page or paragraph
// named in a message, since VS Code cannot scroll those to a page.

import * as vscode from 'vscode';
import type { Location } from '../../shared/types.ts';
import { describeLocation, isInsideFolder, lineSelection } from './locations.ts';

export async function openAt(folder: string, relativePath: string, location?: Location | null): Promise<void> {
  if (!isInsideFolder(relativePath)) throw new Error(`refusing to open ${relativePath}: not a path inside the folder`);
  const uri = vscode.Uri.joinPath(vscode.Uri.parse(folder), ...relativePath.split('/'));
  const lines = lineSelection(location);
  if (!location || lines) {
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    if (lines) {
      const end = Math.min(lines.endLine, document.lineCount - 1);
      const range = new vscode.Range(lines.startLine, 0, end, document.lineAt(end).text.length);
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
    return;
  }
  await vscode.commands.executeCommand('vscode.open', uri);
  void vscode.window.showInformationMessage(`Relata: the passage is at ${describeLocation(location)} of ${relativePath}.`);
}
