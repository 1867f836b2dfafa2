// Opens an item of a folder at a passage: text formats at the passage's lines, selected and
// revealed; PDFs and DOCX files with the editor VS Code has for them, and the page or paragraph
// named in a message, since VS Code cannot scroll those to a page. Only a file inside an open
// workspace folder is ever opened (openTarget.ts): callers pass what webviews and command
// arguments said.

import * as vscode from 'vscode';
import type { Location } from '../../shared/types.ts';
import { describeLocation, lineSelection } from './locations.ts';
import { leavesFolder, openTarget } from './openTarget.ts';

/** The file a request names, or an error saying why it is not one Relata may open. */
async function fileToOpen(folder: unknown, relativePath: unknown): Promise<vscode.Uri> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const named = typeof folder === 'string' ? vscode.Uri.parse(folder).toString() : folder;
  const target = openTarget(folders.map((open) => open.uri.toString()), named, relativePath);
  if ('refused' in target) throw new Error(target.refused);
  const root = folders[target.folder]!.uri;
  const uri = vscode.Uri.joinPath(root, ...target.segments);
  if (root.scheme === 'file' && (await leavesFolder(root.fsPath, uri.fsPath))) {
    throw new Error(`refusing to open ${String(relativePath)}: it links to a file outside the folder`);
  }
  return uri;
}

/** `column`: where to open it, when the caller must not cover itself (the graph panel); the active group by default. */
export async function openAt(folder: string, relativePath: string, location?: Location | null, column?: vscode.ViewColumn): Promise<void> {
  const uri = await fileToOpen(folder, relativePath);
  const lines = lineSelection(location);
  if (!location || lines) {
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document, { preview: false, ...(column ? { viewColumn: column } : {}) });
    if (lines) {
      const end = Math.min(lines.endLine, document.lineCount - 1);
      const range = new vscode.Range(lines.startLine, 0, end, document.lineAt(end).text.length);
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
    return;
  }
  await vscode.commands.executeCommand('vscode.open', uri, column);
  void vscode.window.showInformationMessage(`Relata: the passage is at ${describeLocation(location, relativePath)} of ${relativePath}.`);
}
