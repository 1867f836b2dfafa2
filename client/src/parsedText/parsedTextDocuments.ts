// The read-only `relata-text:` documents: a file's parsed text as the store keeps it, asked of the
// language server (`relata/parsedText`, answered only for a file of an open folder) and laid out
// by shared/parsedTextView.ts, with an "Open original" code lens on the first line. Each open asks
// afresh, so a file indexed again shows its new text; the layout is kept so the opener can find
// a passage's lines in it.

import * as vscode from 'vscode';
import { ParsedTextRequest } from '../../../shared/protocol.ts';
import { layOutParsedText, type ParsedTextDocument } from '../../../shared/parsedTextView.ts';
import { fileToOpen } from '../folderFile.ts';
import type { ServerConnection } from '../serverConnection.ts';
import { PARSED_TEXT_SCHEME, parsedTextPath, relativeOfParsedTextPath } from './parsedTextRoute.ts';

export class ParsedTextDocuments implements vscode.TextDocumentContentProvider, vscode.CodeLensProvider, vscode.Disposable {
  private readonly laidOut = new Map<string, ParsedTextDocument>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;

  constructor(private readonly server: ServerConnection) {}

  uriFor(folder: string, relativePath: string): vscode.Uri {
    return vscode.Uri.from({ scheme: PARSED_TEXT_SCHEME, path: parsedTextPath(relativePath), query: vscode.Uri.parse(folder).toString() });
  }

  /** The file a view shows, checked as every file Relata opens is. */
  async fileOf(uri: vscode.Uri): Promise<{ file: vscode.Uri; relativePath: string }> {
    const relativePath = relativeOfParsedTextPath(uri.path);
    if (uri.scheme !== PARSED_TEXT_SCHEME || relativePath === null) throw new Error(`${uri.toString()} is not a Relata parsed-text view`);
    return { file: await fileToOpen(uri.query, relativePath), relativePath };
  }

  /** Asks the server for the file's parsed text and lays it out; an open view of it changes to match. */
  async load(uri: vscode.Uri): Promise<ParsedTextDocument> {
    const { file, relativePath } = await this.fileOf(uri);
    const answer = await this.server.request(ParsedTextRequest.type, { uri: file.toString() });
    const document: ParsedTextDocument = answer
      ? layOutParsedText(answer.view)
      : { text: `Relata has no parsed text of ${relativePath}: it is not an item of the folder's index (not a format Relata reads, excluded, or not indexed yet).\n`, passages: [] };
    const before = this.laidOut.get(uri.toString());
    this.laidOut.set(uri.toString(), document);
    if (before !== undefined && before.text !== document.text) this.changes.fire(uri);
    return document;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const known = this.laidOut.get(uri.toString());
    if (known) return known.text;
    try {
      return (await this.load(uri)).text;
    } catch (error) {
      return `Relata could not show the parsed text: ${(error as Error).message}\n`;
    }
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const relativePath = relativeOfParsedTextPath(document.uri.path);
    if (relativePath === null) return [];
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: `Open original: ${relativePath}`, command: 'relata.openOriginal', arguments: [document.uri] })];
  }

  /** Forgets a closed view's layout: the next open asks afresh. */
  forget(uri: vscode.Uri): void {
    this.laidOut.delete(uri.toString());
  }

  dispose(): void {
    this.changes.dispose();
    this.laidOut.clear();
  }
}
