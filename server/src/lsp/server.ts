// The Relata language server: one session per workspace folder, indexing in the background,
// progress as LSP work-done progress plus a `relata/status` notification, and the custom requests
// of shared/protocol.ts answered by engine calls. Every request's params are checked against the
// protocol's schema first; any failure becomes an LSP error for that request, never a crash.

import path from 'node:path';
import {
  createConnection,
  MessageType,
  ShowMessageNotification,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type WorkDoneProgressServerReporter,
  type WorkspaceFolder,
} from 'vscode-languageserver/node';
import {
  RelationshipsChangedNotification,
  StatusNotification,
  type FolderStatus,
  type ServerSettings,
  type StatusReport,
} from '../../../shared/protocol.ts';
import { describeWork } from '../../../shared/workText.ts';
import { describeProposalChanges } from './proposalChanges.ts';
import { ProposalTracker } from './proposalTracker.ts';
import { FolderSession, serialQueue, thresholdsFor, type SessionEvents } from './folderSession.ts';
import { settingsFromInitializationOptions } from './initializationOptions.ts';
import { DEFAULT_MAX_PDF_PAGES } from '../../../shared/types.ts';
import { AnswerProviders } from './answerProviders.ts';
import { FolderSessions, uriToPath } from './folderSessions.ts';
import { registerRequests } from './requests.ts';
import { reportEventLoopDelay } from './eventLoopReport.ts';
import { statusDelayMs } from './statusPacing.ts';
import type { AnswerProvider } from '../answer/provider.ts';

export const DEFAULT_SERVER_SETTINGS: ServerSettings = {
  dataLocation: '',
  exclude: [],
  maxFileMb: 50,
  maxPdfPages: DEFAULT_MAX_PDF_PAGES,
  ocr: true,
  embeddingModel: process.env.RELATA_EMBEDDING_MODEL ?? 'default',
  llmModelPath: '',
  llmEndpoint: '',
  allowInsecureEndpoint: false,
  answersProvider: 'auto',
  extractWithModel: false,
  minScore: null,
  storeScore: null,
  forgetDeleted: false,
};

export function startServer(connection: Connection): void {
  const sessions = new FolderSessions();
  const indexing = serialQueue();
  let settings = DEFAULT_SERVER_SETTINGS;
  let progressSupported = false;
  const log = (message: string) => connection.console.log(message);

  // Status: sent at once on a state change; while counts move, spaced by what the last one cost (statusPacing.ts).
  let statusTimer: NodeJS.Timeout | undefined;
  let statusDirty = false;
  let lastStatusMs = 0;
  const statusReport = async (): Promise<StatusReport> => ({
    folders: await Promise.all(sessions.all().map((session) => session.status())),
  });
  const sendStatus = async () => {
    statusDirty = false;
    try {
      const counting = performance.now();
      const report = await statusReport();
      lastStatusMs = performance.now() - counting;
      for (const folder of report.folders) if (folder.state === 'indexing') reportWork(folder);
      await connection.sendNotification(StatusNotification.type, report);
    } catch (error) {
      log(`status failed: ${(error as Error).message}`);
    }
  };
  const scheduleStatus = () => {
    statusDirty = true;
    statusTimer ??= setTimeout(() => {
      statusTimer = undefined;
      if (statusDirty) void sendStatus();
    }, statusDelayMs(lastStatusMs));
  };

  /** Said in the log and to the person; a notification, not showWarningMessage's request: a client need not answer it. */
  function warn(message: string): void {
    log(message);
    connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message }).catch(() => undefined);
  }

  // The models that answer and extract, loaded on first use and shared by every folder.
  const answerProviders = new AnswerProviders(connection, () => settings, log);
  // The extract stage's model: the answers model the user set. Not the editor's own model:
  // extraction runs in the background, and the editor asks the person before each use.
  let extractionChecked = false;
  function extractionModel(): AnswerProvider | null {
    if (!settings.extractWithModel) return null;
    try {
      const provider = answerProviders.configuredModel();
      if (!provider && !extractionChecked) warn('Relata: Extraction: Use Model is on, but no model is set (relata.answers.llmModelPath or relata.answers.llmEndpoint): names and figures are read by the rules alone.');
      return provider;
    } catch (error) {
      if (!extractionChecked) warn(`Relata: Extraction: Use Model: ${(error as Error).message}; names and figures are read by the rules alone.`);
      return null;
    } finally {
      extractionChecked = true;
    }
  }

  const progressBars = new Map<FolderSession, Promise<WorkDoneProgressServerReporter | null>>();
  const progressFor = (session: FolderSession) => {
    let bar = progressBars.get(session);
    if (!bar) {
      bar = progressSupported
        ? connection.window.createWorkDoneProgress().then(
            (reporter) => {
              reporter.begin(`Relata: indexing ${session.name}`, 0, 'starting', false);
              return reporter;
            },
            () => null,
          )
        : Promise.resolve(null);
      progressBars.set(session, bar);
    }
    return bar;
  };
  // The progress bar's words are the status bar's (files and what is done to them); its share done counts the jobs.
  const shareDone = new Map<FolderSession, number>();
  const workWords = new Map<FolderSession, string>();
  const reportProgress = (session: FolderSession) =>
    void progressFor(session).then((reporter) => reporter?.report(shareDone.get(session) ?? 0, workWords.get(session) ?? 'starting'));
  const reportWork = (folder: FolderStatus) => {
    const session = sessions.all().find((candidate) => candidate.uri === folder.folder);
    if (!session) return;
    workWords.set(session, describeWork(folder.work));
    reportProgress(session);
  };
  const endProgress = (session: FolderSession) => {
    const bar = progressBars.get(session);
    progressBars.delete(session);
    shareDone.delete(session);
    workWords.delete(session);
    void bar?.then((reporter) => reporter?.done());
  };

  // What was pending after each folder's last pass: the next pass says what it withdrew, added or changed.
  const proposalTrackers = new Map<FolderSession, ProposalTracker>();
  async function noteProposalChanges(session: FolderSession): Promise<void> {
    const index = await session.ready();
    if (!index) return;
    const tracker = proposalTrackers.get(session) ?? new ProposalTracker();
    proposalTrackers.set(session, tracker);
    const changes = await tracker.look(index.store, thresholdsFor(settings).storeScore);
    const note = changes ? describeProposalChanges(changes) : null;
    if (!note) return;
    const message = `Relata: ${sessions.all().length > 1 ? `${session.name}: ` : ''}${note}`;
    log(message);
    connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message }).catch(() => undefined);
  }

  // Folders whose store has opened: from then on the views can read what it already holds.
  const opened = new WeakSet<FolderSession>();
  const events: SessionEvents = {
    onChange(session) {
      if (session.state !== 'indexing') endProgress(session);
      // A view asked before the store was open was told of no relationships; on a restart the
      // store holds them long before the first pass ends (an hour, on a large folder whose
      // extractors changed), so the views read them again now.
      if (session.state !== 'opening' && !opened.has(session)) {
        opened.add(session);
        void connection.sendNotification(RelationshipsChangedNotification.type, { folder: session.uri });
      }
      void sendStatus();
    },
    onProgress(session, progress) {
      const total = progress.done + progress.pending;
      shareDone.set(session, total ? Math.round((progress.done / total) * 100) : 0);
      reportProgress(session);
      scheduleStatus();
    },
    onIndexed(session) {
      void connection.sendNotification(RelationshipsChangedNotification.type, { folder: session.uri });
      noteProposalChanges(session).catch((error: Error) => log(`${session.name}: comparing proposals failed: ${error.message}`));
    },
    log,
    extractionModel,
  };

  const openFolder = (folder: WorkspaceFolder) => {
    const session = new FolderSession(folder.uri, folder.name, uriToPath(folder.uri), settings, events);
    sessions.add(session);
    void session.start(indexing);
  };

  let initialFolders: WorkspaceFolder[] = [];
  let settingProblems: string[] = [];
  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const checked = settingsFromInitializationOptions(params.initializationOptions, DEFAULT_SERVER_SETTINGS);
    settings = checked.settings;
    settingProblems = checked.problems;
    progressSupported = params.capabilities.window?.workDoneProgress === true;
    initialFolders =
      params.workspaceFolders ??
      (params.rootUri ? [{ uri: params.rootUri, name: path.basename(uriToPath(params.rootUri)) }] : []);
    return {
      capabilities: {
        // Hovers are the client's (it asks relata/related); documents are read from disk by the pipeline.
        textDocumentSync: TextDocumentSyncKind.None,
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'relata', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    // Said once the client listens (after initialize), in the log and to the person.
    if (settingProblems.length > 0) warn(`Relata: some settings are not valid, so their defaults are used: ${settingProblems.join('; ')}`);
    for (const folder of initialFolders) openFolder(folder);
    void sendStatus();
    connection.workspace.onDidChangeWorkspaceFolders((change) => {
      for (const removed of change.removed) void sessions.remove(removed.uri)?.close();
      for (const added of change.added) openFolder(added);
      void sendStatus();
    });
  });

  registerRequests(connection, sessions, { log, statusReport, settings: () => settings, answerProviders });

  connection.onShutdown(async () => {
    if (statusTimer) clearTimeout(statusTimer);
    await Promise.all(sessions.all().map((session) => session.close()));
    await answerProviders.close();
  });
  connection.listen();
}

/** Serves LSP on this process's stdin and stdout until the editor says exit or goes away. */
export function serveStdio(): void {
  reportEventLoopDelay();
  startServer(createConnection(process.stdin, process.stdout));
}
