// Relata's knowledge as tools for the editor's agent mode (vscode.lm.registerTool): search,
// an item's relationships, the recorded contradictions, an item's entities and claims. Each calls
// `relata/knowledgeTool`, answered by the same code as `relata mcp`'s tools; all read only, and no
// tool confirms or rejects anything: those decisions stay a person's, in the Relata UI or CLI.

import * as vscode from 'vscode';
import { KnowledgeToolRequest } from '../../../shared/protocol.ts';
import type { ServerConnection } from '../serverConnection.ts';
import { AGENT_TOOLS, invocationMessage, toolInput, toolResultText } from './toolText.ts';

export function registerAgentTools(server: ServerConnection): vscode.Disposable[] {
  return Object.entries(AGENT_TOOLS).map(([name, tool]) =>
    vscode.lm.registerTool<unknown>(name, {
      prepareInvocation: ({ input }) => ({ invocationMessage: invocationMessage(tool, toolInput(tool, input)) }),
      invoke: async ({ input }, token) => {
        const answer = await server.request(KnowledgeToolRequest.type, { tool, input: toolInput(tool, input) }, token);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(toolResultText(answer))]);
      },
    }),
  );
}
