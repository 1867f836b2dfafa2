// The hover over any file of an open folder: asks the server for the item's relationships and
// the entity under the cursor, and shows hoverContent.ts's Markdown with links that only run
// Relata's own open commands.

import * as vscode from 'vscode';
import { RelatedRequest } from '../../shared/protocol.ts';
import { HOVER_COMMANDS, hoverMarkdown } from './hoverContent.ts';
import type { ServerConnection } from './serverConnection.ts';

export function relataHoverProvider(server: ServerConnection): vscode.HoverProvider {
  return {
    async provideHover(document, position, token) {
      if (!server.running || !vscode.workspace.getWorkspaceFolder(document.uri)) return null;
      try {
        const related = await server.request(
          RelatedRequest.type,
          {
            uri: document.uri.toString(),
            position: { line: position.line, character: position.character },
            lineText: document.lineAt(position.line).text,
          },
          token,
        );
        const markdown = related && hoverMarkdown(related);
        if (!markdown) return null;
        const content = new vscode.MarkdownString(markdown);
        content.isTrusted = { enabledCommands: [...HOVER_COMMANDS] };
        content.supportHtml = false;
        return new vscode.Hover(content);
      } catch {
        return null;
      }
    },
  };
}
