// Relata's VS Code extension. Activation only registers commands, views and the hover, and then
// starts the language server without waiting for it: the server runs in its own Node process
// (see serverRuntime.ts) and indexes in the background. In an untrusted workspace nothing is
// indexed and no model runs until the workspace is trusted.

import * as vscode from 'vscode';
import { registerAgentTools } from './chat/agentTools.ts';
import { RelatedView } from './related/relatedView.ts';
import type { SourceTarget } from './chat/chatParts.ts';
import { registerChatParticipant } from './chat/participant.ts';
import { chooseOriginal } from './chooseOriginal.ts';
import { showEditorModelStatus } from './editorModel/editorModelStatus.ts';
import { editorModelHandler } from './editorModel/editorModels.ts';
import { LiveAsks } from './editorModel/lending.ts';
import { openAt, openParsedTextWith } from './openLocation.ts';
import { ParsedTextDocuments } from './parsedText/parsedTextDocuments.ts';
import { PARSED_TEXT_SCHEME } from './parsedText/parsedTextRoute.ts';
import { filterProposals } from './proposals/filterProposals.ts';
import { ProposalsView } from './proposals/proposalsView.ts';
import type { ProposalNode } from './proposals/proposalTree.ts';
import { relataHoverProvider } from './hoverProvider.ts';
import { searchKnowledge } from './searchKnowledge.ts';
import { ServerConnection } from './serverConnection.ts';
import { showFileStatus } from './fileStatus.ts';
import { openStoreFolder, reindexFile, steerIndexing } from './indexingCommands.ts';
import { askStoreCredentials, clearStoreCredentials } from './storeCredentials.ts';
import { openWalkthroughOnFirstStart } from './firstRun.ts';
import { summarizeStatus } from './statusSummary.ts';
import { showGraph } from './webviews/graphPanel.ts';
import { decide, showAsk, showRelationship, showScoringModel, type PanelContext } from './webviews/panels.ts';

let connection: ServerConnection | undefined;

/** Files one "open the sources" button opens at most. */
const MAX_SOURCES_OPENED = 4;

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('Relata', { log: true });
  // The asks a person started (Ask panel, chat view): the only ones the editor's model is lent to.
  const asks = new LiveAsks();
  const server = new ServerConnection(context, output, editorModelHandler(asks));
  connection = server;
  const proposals = new ProposalsView(server, context.workspaceState);

  const statusBar = vscode.window.createStatusBarItem('relata.status', vscode.StatusBarAlignment.Left, 10);
  statusBar.name = 'Relata';
  statusBar.command = 'relata.showFileStatus';
  const renderStatus = () => {
    if (!vscode.workspace.isTrusted) {
      statusBar.text = '$(shield) Relata: restricted';
      statusBar.tooltip = 'Relata indexes nothing and runs no model until you trust this workspace.';
    } else if (server.problem) {
      statusBar.text = '$(error) Relata: not running';
      statusBar.tooltip = server.problem;
    } else {
      const summary = summarizeStatus(server.lastStatus);
      statusBar.text = summary.text;
      statusBar.tooltip = summary.tooltip;
      statusBar.backgroundColor = summary.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    }
    statusBar.show();
  };

  const panels: PanelContext = { extensionUri: context.extensionUri, server, asks, output, decided: () => proposals.refresh() };
  const reportFailure = (what: string) => (error: Error) => vscode.window.showErrorMessage(`Relata: ${what}: ${error.message}`);
  // New credentials reach the server only in the environment it starts with.
  const restartForCredentials = (said: string) => {
    void vscode.window.showInformationMessage(`Relata: ${said}`);
    if (vscode.workspace.isTrusted) void server.restart().then(renderStatus);
  };
  const decideFromTree = async (kind: 'confirm' | 'reject', node: ProposalNode | undefined) => {
    if (node?.kind !== 'proposal') return;
    const note = await vscode.window.showInputBox({
      title: `${kind === 'confirm' ? 'Confirm' : 'Reject'}: ${node.label}`,
      prompt: 'Note (optional): why you decided this',
      ignoreFocusOut: true,
    });
    if (note === undefined) return;
    await decide(server, kind, node.folder, node.relationship.id, note.trim() || undefined).catch(reportFailure(`could not ${kind}`));
    proposals.refresh();
  };

  // An editor without the chat or tools API (an older or stripped-down build) still gets everything else.
  let participantProblem: string | null = null;
  try {
    context.subscriptions.push(registerChatParticipant(server, asks, context.extensionUri));
  } catch (error) {
    participantProblem = (error as Error).message ?? String(error);
    output.warn(`the @relata chat participant is not available in this editor: ${participantProblem}`);
  }
  try {
    context.subscriptions.push(...registerAgentTools(server));
  } catch (error) {
    output.warn(`Relata's agent tools are not available in this editor: ${(error as Error).message ?? String(error)}`);
  }

  const view = vscode.window.createTreeView('relata.proposals', { treeDataProvider: proposals, showCollapseAll: true });
  proposals.attach(view);
  openWalkthroughOnFirstStart(context.globalState).catch((error: Error) => output.warn(`walkthrough: ${error.message}`));
  const parsedTexts = new ParsedTextDocuments(server);
  openParsedTextWith(parsedTexts);
  // A parsed-text view's "Open original" (its code lens and title-bar button): the file itself, with the editor VS Code has for it.
  const openOriginal = async (view?: vscode.Uri) => {
    const shown = view ?? vscode.window.activeTextEditor?.document.uri;
    if (!shown || shown.scheme !== PARSED_TEXT_SCHEME) return;
    const { file } = await parsedTexts.fileOf(shown);
    await vscode.commands.executeCommand('vscode.open', file);
  };
  const related = new RelatedView(server, context.workspaceState);
  const relatedTree = vscode.window.createTreeView('relata.related', { treeDataProvider: related });
  related.attach(relatedTree);
  context.subscriptions.push(
    output,
    server,
    proposals,
    view,
    statusBar,
    server.onStatus(renderStatus),
    server.onRelationshipsChanged(() => proposals.refresh()),
    related,
    relatedTree,
    server.onRelationshipsChanged(() => related.refresh()),
    server.onStatus(() => related.retryIfUnanswered()),
    vscode.window.onDidChangeActiveTextEditor((editor) =>
      related.follow(editor, (view) => (view.scheme === PARSED_TEXT_SCHEME ? parsedTexts.fileOf(view).then(({ file }) => file, () => null) : Promise.resolve(null))),
    ),
    vscode.commands.registerCommand('relata.related.showUnlinkedOnly', () => related.setOnlyUnlinked(true)),
    vscode.commands.registerCommand('relata.related.showAll', () => related.setOnlyUnlinked(false)),
    vscode.commands.registerCommand('relata.related.refresh', () => related.refresh()),
    vscode.languages.registerHoverProvider({ scheme: 'file' }, relataHoverProvider(server)),
    parsedTexts,
    vscode.workspace.registerTextDocumentContentProvider(PARSED_TEXT_SCHEME, parsedTexts),
    vscode.languages.registerCodeLensProvider({ scheme: PARSED_TEXT_SCHEME }, parsedTexts),
    vscode.workspace.onDidCloseTextDocument((document) => {
      if (document.uri.scheme === PARSED_TEXT_SCHEME) parsedTexts.forget(document.uri);
    }),
    vscode.commands.registerCommand('relata.openOriginal', (view?: vscode.Uri) => openOriginal(view).catch(reportFailure('could not open the original'))),
    vscode.commands.registerCommand('relata.search', () => searchKnowledge(server)),
    vscode.commands.registerCommand('relata.showFileStatus', () => showFileStatus(server).catch(reportFailure('file status'))),
    vscode.commands.registerCommand('relata.ask', () => showAsk(panels)),
    vscode.commands.registerCommand('relata.showScoringModel', () => showScoringModel(panels)),
    vscode.commands.registerCommand('relata.showGraph', () => showGraph(panels)),
    vscode.commands.registerCommand('relata.refreshProposals', () => proposals.refresh()),
    vscode.commands.registerCommand('relata.showMoreProposals', (node?: ProposalNode) => {
      if (node?.kind === 'more') proposals.showMore(node);
    }),
    vscode.commands.registerCommand('relata.filterProposals', () => filterProposals(proposals).catch(reportFailure('could not filter the proposals'))),
    vscode.commands.registerCommand('relata.confirmProposal', (node?: ProposalNode) => decideFromTree('confirm', node)),
    vscode.commands.registerCommand('relata.rejectProposal', (node?: ProposalNode) => decideFromTree('reject', node)),
    vscode.commands.registerCommand('relata.openRelationship', (target?: { folder: string; id: string }) => {
      if (target) showRelationship(panels, target.folder, target.id);
    }),
    vscode.commands.registerCommand('relata.openItem', (target?: { folder: string; path: string }) => {
      if (target) openAt(target.folder, target.path).catch(reportFailure(`could not open ${target.path}`));
    }),
    // The chat's "Open both sources": the first in the active group, the others beside it.
    vscode.commands.registerCommand('relata.openSources', async (targets?: SourceTarget[]) => {
      if (!Array.isArray(targets)) return;
      for (const [index, target] of targets.slice(0, MAX_SOURCES_OPENED).entries()) {
        await openAt(target.folder, target.path, target.location, index === 0 ? undefined : vscode.ViewColumn.Beside).catch(reportFailure(`could not open ${target.path}`));
      }
    }),
    vscode.commands.registerCommand('relata.showEditorModelStatus', () =>
      showEditorModelStatus(participantProblem).catch(reportFailure('could not read the editor\'s models')),
    ),
    vscode.commands.registerCommand('relata.chooseOriginal', (file?: vscode.Uri) =>
      chooseOriginal(server, file).catch(reportFailure('could not choose the original')),
    ),
    vscode.commands.registerCommand('relata.indexNow', () => steerIndexing(server, 'index').catch(reportFailure('could not index'))),
    vscode.commands.registerCommand('relata.pauseIndexing', () => steerIndexing(server, 'pause').catch(reportFailure('could not pause indexing'))),
    vscode.commands.registerCommand('relata.resumeIndexing', () => steerIndexing(server, 'resume').catch(reportFailure('could not resume indexing'))),
    vscode.commands.registerCommand('relata.reindexFile', (file?: vscode.Uri) => reindexFile(server, file).catch(reportFailure('could not re-index the file'))),
    vscode.commands.registerCommand('relata.openStoreFolder', () => openStoreFolder(server).catch(reportFailure('could not find the store folder'))),
    vscode.commands.registerCommand('relata.restartServer', () => server.restart().then(renderStatus)),
    vscode.commands.registerCommand('relata.setStoreCredentials', () =>
      askStoreCredentials((options) => vscode.window.showInputBox(options), context.secrets).then(
        (saved) => saved && restartForCredentials('store credentials saved in VS Code\'s secret storage; the server restarts with them.'),
        reportFailure('could not save the store credentials'),
      ),
    ),
    vscode.commands.registerCommand('relata.clearStoreCredentials', () =>
      clearStoreCredentials(context.secrets).then(
        (cleared) => {
          if (cleared) restartForCredentials('store credentials removed; the server restarts without them.');
          else void vscode.window.showInformationMessage('Relata: no store credentials were stored.');
        },
        reportFailure('could not remove the store credentials'),
      ),
    ),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // The hover and the trace are the client's own: switching them needs no server restart.
      const clientOnly = event.affectsConfiguration('relata.trace') || event.affectsConfiguration('relata.hover');
      if (event.affectsConfiguration('relata') && !clientOnly && vscode.workspace.isTrusted) {
        void server.restart().then(renderStatus);
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      renderStatus();
      void server.start().then(renderStatus);
    }),
  );

  renderStatus();
  if (vscode.workspace.isTrusted) void server.start().then(renderStatus);
  output.info(`activated in ${(performance.now() - started).toFixed(1)} ms (extension's own work; the server starts in the background)`);
}

/** VS Code waits for this: the server gets its shutdown and exit before the window closes. */
export function deactivate(): Promise<void> | undefined {
  return connection?.stop();
}
