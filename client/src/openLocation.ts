// Opens an item of a folder at a passage: text formats with the passage's first line and the
// query's words (selected where most of them stand together, locations.ts) centred in sight, its
// lines highlighted as VS Code highlights a "Go to Line" (until the cursor moves or the text
// changes). A passage VS Code cannot scroll its file to (a slide, a sheet's rows, a PDF's page, a
// paragraph of a DOCX or an e-mail) opens in the file's parsed text (parsedText/), at the passage,
// the same way. Only a file inside an open workspace folder is ever opened (folderFile.ts):
// callers pass what webviews and command arguments said.

import * as vscode from 'vscode';
import { passageAt } from '../../shared/parsedTextView.ts';
import type { Location } from '../../shared/types.ts';
import { fileToOpen } from './folderFile.ts';
import { describeLocation, lineSelection, passageFocus } from './locations.ts';
import type { ParsedTextDocuments } from './parsedText/parsedTextDocuments.ts';
import { opensAsParsedText } from './parsedText/parsedTextRoute.ts';

/** The parsed-text views, registered at activation (extension.ts). */
let parsedTexts: ParsedTextDocuments | null = null;

export function openParsedTextWith(documents: ParsedTextDocuments): void {
  parsedTexts = documents;
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
  if (parsedTexts && opensAsParsedText(relativePath, location)) {
    try {
      await openParsedText(parsedTexts, folder, relativePath, location, column, words);
      return;
    } catch (error) {
      // No parsed text to be had (the server is not running, the folder's store is not open): the file itself, as before.
      void vscode.window.showWarningMessage(`Relata: the parsed text of ${relativePath} could not be shown (${(error as Error).message}); the file itself is open.`);
    }
  }
  if (!location || lineSelection(location)) {
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document, { preview: false, ...(column ? { viewColumn: column } : {}) });
    focusPassage(editor, location, words);
    return;
  }
  await vscode.commands.executeCommand('vscode.open', uri, column);
  void vscode.window.showInformationMessage(`Relata: the passage is at ${describeLocation(location, relativePath)} of ${relativePath}.`);
}

/** The passage's lines highlighted and centred, the query's words selected where most stand together (else the whole passage, when `selectWhole`). */
function focusPassage(editor: vscode.TextEditor, location: Location | null | undefined, words: readonly string[], selectWhole = false): void {
  const { document } = editor;
  const focus = passageFocus(location, document.lineCount, (line) => document.lineAt(line).text, words);
  if (!focus) return;
  const { line, start, end } = focus.selection;
  const wholeEnd = document.lineAt(focus.endLine).text.length;
  editor.selection = selectWhole && start === end ? new vscode.Selection(focus.startLine, 0, focus.endLine, wholeEnd) : new vscode.Selection(line, start, line, end);
  // From the passage's first line to the words selected, centred: both in sight when they fit, else the first line.
  editor.revealRange(new vscode.Range(focus.startLine, 0, line, end), vscode.TextEditorRevealType.InCenter);
  highlightPassage(editor, new vscode.Range(focus.startLine, 0, focus.endLine, wholeEnd));
}

/** The file's parsed text, asked afresh, opened at the passage (its label line and text), or at the top without one. */
async function openParsedText(documents: ParsedTextDocuments, folder: string, relativePath: string, location: Location | null | undefined, column: vscode.ViewColumn | undefined, words: readonly string[]): Promise<void> {
  const uri = documents.uriFor(folder, relativePath);
  const laidOut = await documents.load(uri);
  const document = await vscode.workspace.openTextDocument(uri);
  await textShown(document, laidOut.text);
  const editor = await vscode.window.showTextDocument(document, { preview: false, ...(column ? { viewColumn: column } : {}) });
  if (!location) return;
  const passage = passageAt(laidOut, location, (line) => (line < document.lineCount ? document.lineAt(line).text : ''), words);
  if (!passage) {
    void vscode.window.showInformationMessage(`Relata: ${describeLocation(location, relativePath)} of ${relativePath} is no longer among its passages (the file was indexed again since); its parsed text is open.`);
    return;
  }
  focusPassage(editor, { kind: 'lines', start: passage.startLine + 1, end: passage.endLine + 1 }, words, true);
}

/** VS Code asks a provider again after its change event, in its own time: wait (briefly) until the open document holds the text just laid out. */
async function textShown(document: vscode.TextDocument, text: string): Promise<void> {
  if (document.getText() === text) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, 2000);
    const listener = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document && document.getText() === text) done();
    });
    function done() {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    }
  });
}
