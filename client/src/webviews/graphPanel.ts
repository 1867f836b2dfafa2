// Hosts the graph view (webview-ui/src/graph.ts): one panel, revealed when it is already open. It
// asks the language server for the graph the page's query describes, centred on the file in the
// active editor for the neighbourhood view, and draws again when the active file changes or
// relationships change (a decision turns a dashed edge solid).

import * as vscode from 'vscode';
import { GraphRequest } from '../../../shared/protocol.ts';
import type { GraphQuery } from '../../../shared/webviewMessages.ts';
import { openAt } from '../openLocation.ts';
import { PanelHost } from './panelHost.ts';
import { showRelationship, type PanelContext } from './panels.ts';

/** Relationship changes arrive in bursts while indexing; the graph is drawn again once they settle. */
const REDRAW_AFTER_CHANGE_MS = 2000;

let graphHost: PanelHost | null = null;

const fileOf = (editor: vscode.TextEditor | undefined) => (editor?.document.uri.scheme === 'file' ? editor.document.uri : undefined);

export function showGraph(context: PanelContext): void {
  if (graphHost) {
    graphHost.panel.reveal();
    return;
  }
  let query: GraphQuery | null = null;
  // The webview takes focus from the editor, so the current file is the last file editor that was active.
  let currentFile = fileOf(vscode.window.activeTextEditor);
  const folders = () => (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ folder: folder.uri.toString(), name: folder.name }));

  const load = async () => {
    if (!query) return;
    const asked = query;
    const focus = asked.scope === 'neighbourhood' ? currentFile : undefined;
    if (asked.scope === 'neighbourhood' && !focus) {
      const result = { folders: [], graph: { nodes: [], edges: [], scope: { kind: 'all' as const }, leftOut: null }, notice: 'Open a file to see its neighbourhood, or show all items.' };
      host.post({ kind: 'graph', query: asked, result, focusPath: null, folders: folders() });
      return;
    }
    try {
      const result = await context.server.request(GraphRequest.type, {
        ...(focus ? { focus: focus.toString() } : asked.folder ? { folders: [asked.folder] } : {}),
        ...(asked.types ? { types: asked.types } : {}),
        statuses: asked.statuses,
        minStrength: asked.minStrength,
      });
      host.post({ kind: 'graph', query: asked, result, focusPath: focus ? vscode.workspace.asRelativePath(focus) : null, folders: folders() });
    } catch (error) {
      host.post({ kind: 'error', message: (error as Error).message ?? String(error) });
    }
  };

  const host: PanelHost = new PanelHost(
    context.extensionUri,
    { viewType: 'relata.graph', title: 'Relata: Graph', script: 'graph', accepted: ['ready', 'graphQuery', 'open', 'openRelationship'] },
    {
      ready: () => undefined,
      graphQuery: ({ kind: _kind, ...asked }) => {
        query = asked;
        return load();
      },
      // Beside the graph, not over it: the file opened becomes the current file and the graph re-centres on it.
      open: (message) => openAt(message.folder, message.path, undefined, host.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One),
      openRelationship: ({ folder, id }) => showRelationship(context, folder, id),
      decide: () => undefined,
      ask: () => undefined,
    },
    context.output,
  );
  graphHost = host;

  let redraw: ReturnType<typeof setTimeout> | undefined;
  const listeners = [
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      const file = fileOf(editor);
      if (!file || file.toString() === currentFile?.toString()) return;
      currentFile = file;
      if (query?.scope === 'neighbourhood') void load();
    }),
    context.server.onRelationshipsChanged(() => {
      clearTimeout(redraw);
      redraw = setTimeout(() => void load(), REDRAW_AFTER_CHANGE_MS);
    }),
  ];
  host.panel.onDidDispose(() => {
    graphHost = null;
    clearTimeout(redraw);
    for (const listener of listeners) listener.dispose();
  });
}
