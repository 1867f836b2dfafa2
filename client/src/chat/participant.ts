// The @relata chat participant: a question in the chat view is retrieved and answered through
// `relata/ask` with the chat's own model (lent to the server for this ask only), validated by the
// server like any answer, and written with its sources (each opening at its passage) and its
// uncertainty and conflicts (chatParts.ts). /search, /relationships and /conflicts read the same
// knowledge without a model. Stopping the chat request cancels the ask and the model's request.

import * as vscode from 'vscode';
import { KnowledgeToolRequest, RelatedRequest, SearchRequest } from '../../../shared/protocol.ts';
import type { AskFolder } from '../../../shared/webviewMessages.ts';
import { askFolders } from '../askFolders.ts';
import { chatModel } from '../editorModel/editorModels.ts';
import type { LiveAsks } from '../editorModel/lending.ts';
import { lineSelection } from '../locations.ts';
import { openTarget } from '../openTarget.ts';
import type { ServerConnection } from '../serverConnection.ts';
import {
  answerParts,
  conflictParts,
  escapeMarkdown,
  PARTICIPANT_COMMANDS,
  PARTICIPANT_ID,
  relationshipParts,
  searchParts,
  type ChatPart,
  type SourceTarget,
} from './chatParts.ts';

/** What a result remembers for its follow-ups. */
interface TurnMetadata {
  command: 'ask' | (typeof PARTICIPANT_COMMANDS)[number];
  question?: string;
  conflicts?: number;
}

const openFolders = (): AskFolder[] => (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: folder.uri.toString(), name: folder.name }));

/** The file a target names, only inside an open folder (openTarget.ts), at its passage's lines when it has lines. */
function targetLocation(target: SourceTarget): vscode.Uri | vscode.Location | null {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const checked = openTarget(folders.map((folder) => folder.uri.toString()), vscode.Uri.parse(target.folder).toString(), target.path);
  if ('refused' in checked) return null;
  const uri = vscode.Uri.joinPath(folders[checked.folder]!.uri, ...checked.segments);
  const lines = lineSelection(target.location);
  return lines ? new vscode.Location(uri, new vscode.Range(lines.startLine, 0, lines.endLine, 0)) : uri;
}

/** Markdown that renders no HTML, runs no command and shows no theme icon: document text is escaped before it gets here. */
const untrustedMarkdown = (text: string) => {
  const value = new vscode.MarkdownString(text);
  value.isTrusted = false;
  value.supportHtml = false;
  value.supportThemeIcons = false;
  return value;
};

function write(stream: vscode.ChatResponseStream, parts: readonly ChatPart[]): void {
  for (const part of parts) {
    switch (part.kind) {
      case 'markdown':
        stream.markdown(untrustedMarkdown(part.text));
        break;
      case 'anchor': {
        const where = targetLocation(part.target);
        if (where) stream.anchor(where, part.title);
        else stream.markdown(untrustedMarkdown(escapeMarkdown(part.title)));
        break;
      }
      case 'reference': {
        const where = targetLocation(part.target);
        if (where) stream.reference(where);
        break;
      }
      case 'button':
        stream.button({ command: part.command, title: part.title, arguments: part.arguments });
        break;
    }
  }
}

async function answer(server: ServerConnection, asks: LiveAsks, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<TurnMetadata> {
  const question = request.prompt.trim();
  if (!question) {
    stream.markdown('Ask a question about the documents of this folder, e.g. `@relata what did the crane inspection cost?`');
    return { command: 'ask' };
  }
  const folders = openFolders();
  if (folders.length === 0) {
    stream.markdown('Open a folder first: Relata answers from the documents it indexed there.');
    return { command: 'ask' };
  }
  stream.progress('Retrieving passages and asking the model…');
  // The chat view's own model, the one the person chose above the input box.
  const turn = await askFolders(server, asks, question, folders, { model: chatModel(request.model), token });
  if (token.isCancellationRequested) return { command: 'ask', question };
  write(stream, answerParts(turn));
  const conflicts = turn.answers.reduce((sum, folder) => sum + (folder.answer?.result.conflicts.length ?? 0), 0);
  return { command: 'ask', question, conflicts };
}

async function search(server: ServerConnection, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<TurnMetadata> {
  const query = request.prompt.trim();
  if (!query) {
    stream.markdown('Say what to search for, e.g. `@relata /search crane inspection cost`');
    return { command: 'search' };
  }
  stream.progress('Searching…');
  const { folders } = await server.request(SearchRequest.type, { query }, token);
  write(stream, searchParts(folders));
  return { command: 'search', question: query };
}

async function relationships(server: ServerConnection, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<TurnMetadata> {
  const active = vscode.window.activeTextEditor?.document.uri;
  const file = active?.scheme === 'file' ? active : undefined;
  const related = file ? await server.request(RelatedRequest.type, { uri: file.toString() }, token) : null;
  write(stream, relationshipParts(related, file ? vscode.workspace.asRelativePath(file) : null));
  return { command: 'relationships' };
}

async function conflicts(server: ServerConnection, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<TurnMetadata> {
  stream.progress('Reading the recorded contradictions…');
  const { folders } = await server.request(KnowledgeToolRequest.type, { tool: 'conflicts', input: {} }, token);
  write(stream, conflictParts(folders));
  return { command: 'conflicts' };
}

function followups(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const metadata = result.metadata as TurnMetadata | undefined;
  if (!metadata) return [];
  const offered: vscode.ChatFollowup[] = [];
  if (metadata.command === 'ask' && (metadata.conflicts ?? 0) > 0) {
    offered.push({ prompt: 'recorded in these folders', command: 'conflicts', label: 'Show the recorded contradictions' });
  }
  if (metadata.command === 'ask' && metadata.question) offered.push({ prompt: metadata.question, command: 'search', label: 'Search for it instead (with why each matched)' });
  if (metadata.command !== 'relationships' && vscode.window.activeTextEditor) {
    offered.push({ prompt: 'of the active file', command: 'relationships', label: 'Show the relationships of the active file' });
  }
  return offered;
}

export function registerChatParticipant(server: ServerConnection, asks: LiveAsks, extensionUri: vscode.Uri): vscode.Disposable {
  const handler: vscode.ChatRequestHandler = async (request, _context, stream, token): Promise<vscode.ChatResult> => {
    try {
      const commands: Record<(typeof PARTICIPANT_COMMANDS)[number], () => Promise<TurnMetadata>> = {
        search: () => search(server, request, stream, token),
        relationships: () => relationships(server, stream, token),
        conflicts: () => conflicts(server, stream, token),
      };
      const run = (PARTICIPANT_COMMANDS as readonly string[]).includes(request.command ?? '') ? commands[request.command as keyof typeof commands] : undefined;
      return { metadata: await (run ? run() : answer(server, asks, request, stream, token)) };
    } catch (error) {
      if (token.isCancellationRequested) return {};
      return { errorDetails: { message: `Relata: ${(error as Error).message ?? String(error)}` } };
    }
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'relata.svg');
  participant.followupProvider = { provideFollowups: followups };
  return participant;
}
