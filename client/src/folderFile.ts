// The file of an open workspace folder that a request names, or an error saying why it is not one
// Relata may open: the folder and path come from webviews, hovers' command links, commands'
// arguments and parsed-text views' URIs, so they are checked (openTarget.ts) and the file's real
// path must stay inside the folder.

import * as vscode from 'vscode';
import { leavesFolder, openTarget } from './openTarget.ts';

export async function fileToOpen(folder: unknown, relativePath: unknown): Promise<vscode.Uri> {
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
