// Opens an item of a folder at a passage: text formats with the passage's first line and the
// query's words (selected where most of them stand together, locations.ts) centred in sight, its
// lines highlighted as VS Code highlights a "Go to Line" (until the cursor moves or the text
// changes); PDFs and DOCX files with the editor VS Code has for them, and the page or paragraph
// named in a message, since VS Code cannot scroll those to a page. Only a file inside an open
// workspace folder is ever opened (openTarget.ts): callers pass what webviews and command
// arguments said.

import * as vscode from 'vscode';
import type { Location } from '../../shared/types.ts';
import { describeLocation, lineSelection, passageFocus } from './locations.ts';
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

/** The passage's lines, in the colour VS Code gives the range a "Go to Line" lands on. */
let passageHighlight: vscode.TextEditorDecorationType | undefined;
let clearHighlight: vscode.Disposable | undefined;

function highlightPassage(editor: vscode.TextEditor, range: vscode.Range): void {
  passageHighlight ??= vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  const decoration = passageHighlight;
  clearHighlight?.dispose();
  editor.setDecorations(decoration, [range]);
  const done = () => {
    editor.setDecorations(decoration, []);
    listeners.forEach((listener) => listener.dispose());
  };
  // Like VS Code's own range highlight: gone once the person moves on (a click, a key, an edit).
  const listeners = [
    vscode.window.onDidChangeTextEditorSelection((event) => {
      if (event.textEditor === editor && event.kind !== undefined && event.kind !== vscode.TextEditorSelectionChangeKind.Command) done();
    }),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === editor.document && event.contentChanges.length > 0) done();
    }),
  ];
  clearHighlight = { dispose: done };
}

/**
 * `column`: where to open it, when the caller must not cover itself (the graph panel); the active
 * group by default. `words`: the query's words (queryWords.ts), selected where the passage holds
 * most of them.
 */
export async function openAt(folder: string, relativePath: string, location?: Location | null, column?: vscode.ViewColumn, words: readonly string[] = []): Promise<void> {
  const uri = await fileToOpen(folder, relativePath);
  if (!location || lineSelection(location)) {
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document, { preview: false, ...(column ? { viewColumn: column } : {}) });
    const focus = passageFocus(location, document.lineCount, (line) => document.lineAt(line).text, words);
    if (focus) {
      const { line, start, end } = focus.selection;
      editor.selection = new vscode.Selection(line, start, line, end);
      // From the passage's first line to the words selected, centred: both in sight when they fit, else the first line.
      editor.revealRange(new vscode.Range(focus.startLine, 0, line, end), vscode.TextEditorRevealType.InCenter);
      highlightPassage(editor, new vscode.Range(focus.startLine, 0, focus.endLine, document.lineAt(focus.endLine).text.length));
    }
    return;
  }
  await vscode.commands.executeCommand('vscode.open', uri, column);
  void vscode.window.showInformationMessage(`Relata: the passage is at ${describeLocation(location, relativePath)} of ${relativePath}.`);
}
