// The three webview panels: a relationship (its signals' arithmetic, its conflicts, its decision),
// Ask (question → answer with its sources and uncertainty), and the scoring model. Each is one
// PanelHost; requests go to the language server, results go to the page as HostMessages.
// Relationships share one panel by default (`relata.relationshipPanel.reuse`; off: one per
// relationship), titled with the pair it shows and opened in the active column: opening another
// (tree, hover, Ask, graph) shows it in that panel where it stands, opening the same one reveals
// and refreshes it.

import * as vscode from 'vscode';
import {
  ConfirmRequest,
  RejectRequest,
  RelationshipRequest,
  ScoringModelRequest,
} from '../../../shared/protocol.ts';
import type { AskFolder, ViewMessage } from '../../../shared/webviewMessages.ts';
import { askFolders } from '../askFolders.ts';
import type { LiveAsks } from '../editorModel/lending.ts';
import { openAt } from '../openLocation.ts';
import type { ServerConnection } from '../serverConnection.ts';
import { AskConversation, foldersToAsk } from './askConversation.ts';
import { PanelHost } from './panelHost.ts';
import { PanelRegistry, relationshipPanelKey, relationshipTitle, type RegisteredPanel } from './panelRegistry.ts';
import { panelDecision } from './viewMessages.ts';

export interface PanelContext {
  extensionUri: vscode.Uri;
  server: ServerConnection;
  /** The asks a person started in this window: the editor's model is lent only to these. */
  asks: LiveAsks;
  output: vscode.LogOutputChannel;
  /** Called after a decision so the Proposals view refreshes. */
  decided(folder: string): void;
}

const failure = (error: unknown) => ({ kind: 'error' as const, message: (error as Error).message ?? String(error) });

const openFromPage = (message: Extract<ViewMessage, { kind: 'open' }>) => openAt(message.folder, message.path, message.location);

/** Confirm or reject from anywhere (tree, panel): asks the server, which records and rescores. */
export async function decide(server: ServerConnection, kind: 'confirm' | 'reject', folder: string, id: string, note?: string) {
  const type = kind === 'confirm' ? ConfirmRequest.type : RejectRequest.type;
  return server.request(type, { folder, id, ...(note ? { note } : {}) });
}

interface ShownRelationship {
  folder: string;
  id: string;
}

const relationshipPanels = new PanelRegistry<ShownRelationship, RegisteredPanel<ShownRelationship>>();

export function showRelationship(context: PanelContext, folder: string, id: string): void {
  const reuse = vscode.workspace.getConfiguration('relata').get<boolean>('relationshipPanel.reuse', true);
  relationshipPanels.show(relationshipPanelKey(reuse, folder, id), { folder, id }, (target) => relationshipPanel(context, target));
}

function relationshipPanel(context: PanelContext, first: ShownRelationship): RegisteredPanel<ShownRelationship> {
  let host: PanelHost;
  /** What the panel shows now: a reused panel moves on to the next relationship opened. */
  let shown = first;
  const load = async () => {
    const { folder, id } = shown;
    try {
      const detail = await context.server.request(RelationshipRequest.type, { folder, id });
      // Another relationship was opened in this panel while this one loaded: that one is shown.
      if (shown.folder !== folder || shown.id !== id) return;
      if (detail) host.panel.title = relationshipTitle(detail.relationship.from, detail.relationship.to);
      host.post(detail ? { kind: 'relationship', detail } : { kind: 'error', message: `relationship ${id} is no longer stored` });
    } catch (error) {
      host.post(failure(error));
    }
  };
  host = new PanelHost(
    context.extensionUri,
    {
      viewType: 'relata.relationship',
      title: 'Relata: Relationship',
      script: 'relationship',
      accepted: ['ready', 'confirm', 'reject', 'open'],
      column: vscode.ViewColumn.Active,
    },
    {
      ready: load,
      decide: async (message) => {
        const checked = panelDecision(shown, message);
        if ('problem' in checked) {
          context.output.warn(`ignored a decision from the relationship panel: ${checked.problem}`);
          host.post({ kind: 'error', message: checked.problem });
          return;
        }
        const { decision } = checked;
        try {
          await decide(context.server, decision.kind, decision.folder, decision.id, decision.note);
          context.decided(decision.folder);
          await load();
        } catch (error) {
          host.post(failure(error));
        }
      },
      open: openFromPage,
      openRelationship: () => undefined,
      ask: () => undefined,
    },
    context.output,
  );
  return {
    reveal: (target) => {
      shown = target;
      host.panel.reveal();
      void load();
    },
    onClosed: (listener) => host.panel.onDidDispose(listener),
  };
}

let askHost: PanelHost | null = null;
/** The window's Ask conversation: it outlives the panel, so reopening Ask shows it again. */
const conversation = new AskConversation();

const openFolders = (): AskFolder[] => (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: folder.uri.toString(), name: folder.name }));

export function showAsk(context: PanelContext): void {
  if (askHost) {
    askHost.panel.reveal();
    return;
  }
  const host: PanelHost = new PanelHost(
    context.extensionUri,
    { viewType: 'relata.ask', title: 'Relata: Ask', script: 'ask', accepted: ['ready', 'ask', 'open', 'openRelationship'] },
    {
      ready: () => host.post({ kind: 'askState', turns: conversation.turns, folders: openFolders(), pending: conversation.pending }),
      ask: async ({ question, folder }) => {
        const chosen = foldersToAsk(folder, openFolders());
        if ('problem' in chosen) {
          host.post({ kind: 'error', message: chosen.problem });
          return;
        }
        conversation.begin(question, chosen.folders);
        host.post({ kind: 'asking', question, folders: chosen.folders });
        // The person pressed Ask: this question may borrow the editor's model.
        const turn = await askFolders(context.server, context.asks, question, chosen.folders);
        conversation.finish(turn);
        askHost?.post({ kind: 'answer', turn });
      },
      open: openFromPage,
      openRelationship: ({ folder: where, id }) => showRelationship(context, where, id),
      decide: () => undefined,
    },
    context.output,
  );
  askHost = host;
  host.panel.onDidDispose(() => {
    askHost = null;
  });
}

export function showScoringModel(context: PanelContext): void {
  const host: PanelHost = new PanelHost(
    context.extensionUri,
    { viewType: 'relata.scoringModel', title: 'Relata: Scoring Model', script: 'scoring', accepted: ['ready'] },
    {
      ready: async () => {
        try {
          host.post({ kind: 'scoringModel', model: await context.server.request(ScoringModelRequest.type, {}) });
        } catch (error) {
          host.post(failure(error));
        }
      },
      decide: () => undefined,
      open: () => undefined,
      openRelationship: () => undefined,
      ask: () => undefined,
    },
    context.output,
  );
}
