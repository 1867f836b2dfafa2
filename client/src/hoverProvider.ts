// The hover over a file of an open folder, where Relata has something to say: over a name it
// knows (an entity found in the item; the server finds it under the cursor) and over the
// document's first line (the item's relationships). Switchable with `relata.hover.enabled`.
// Shows hoverContent.ts's Markdown with links that only run Relata's own open commands.

import * as vscode from 'vscode';
import { RelatedRequest } from '../../shared/protocol.ts';
import { localDateText } from '../../shared/decisionDate.ts';
import { HOVER_COMMANDS, hoverMarkdown, itemLines } from './hoverContent.ts';
import type { ServerConnection } from './serverConnection.ts';

export function relataHoverProvider(server: ServerConnection): vscode.HoverProvider {
  return {
    async provideHover(document, position, token) {
      if (!vscode.workspace.getConfiguration('relata', document.uri).get<boolean>('hover.enabled', true)) return null;
      if (!server.running || !vscode.workspace.getWorkspaceFolder(document.uri)) return null;
      const lineText = document.lineAt(position.line).text;
      const lines = itemLines(document.lineCount, (line) => document.lineAt(line).text);
      const firstLine = position.line >= lines.first && position.line <= lines.last;
      try {
        const related = await server.request(
          RelatedRequest.type,
          { uri: document.uri.toString(), position: { line: position.line, character: position.character }, lineText, relationships: firstLine },
          token,
        );
        const markdown = related && hoverMarkdown(related, { firstLine, dateText: localDateText(vscode.env.language) });
        if (!related || !markdown) return null;
        const content = new vscode.MarkdownString(markdown);
        content.isTrusted = { enabledCommands: [...HOVER_COMMANDS] };
        content.supportHtml = false;
        // The hover covers the name it is about (or the first line), so moving within it keeps it.
        const name = related.mentions.find((mention) => mention.start !== undefined && mention.end !== undefined);
        const range =
          name && !firstLine
            ? new vscode.Range(position.line, name.start!, position.line, name.end!)
            : document.lineAt(position.line).range;
        return new vscode.Hover(content, range);
      } catch {
        return null;
      }
    },
  };
}
