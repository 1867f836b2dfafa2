// The extension's side of the language server: chooses a runtime, starts `relata serve --stdio`
// as its own process (never inside the extension host, whose Node may have another ABI), and
// passes requests and notifications through, typed by shared/protocol.ts.

import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type { RequestType } from 'vscode-languageserver-protocol';
import {
  EditorModelRequest,
  RelationshipsChangedNotification,
  StatusNotification,
  type EditorModelParams,
  type EditorModelResult,
  type StatusReport,
} from '../../shared/protocol.ts';
import type { Cancellation } from './editorModel/lending.ts';
import { chooseRuntime, RuntimeNotFound } from './serverRuntime.ts';
import { initializationOptions, RUNTIME_SETTING, settingReader } from './settings.ts';
import { describeStoreSettings, serverEnvironment, storeEnvironment, storeSettings, StoreSettingsError } from './storeConnection.ts';
import { readStoreSecrets } from './storeCredentials.ts';

export class ServerConnection implements vscode.Disposable {
  private client: LanguageClient | null = null;
  private starting: Promise<void> | null = null;
  private readonly statusEmitter = new vscode.EventEmitter<StatusReport | null>();
  private readonly relationshipsEmitter = new vscode.EventEmitter<string>();
  /** The latest `relata/status` report; null until the server sends one. */
  lastStatus: StatusReport | null = null;
  /** Each folder's store as last logged, kept across restarts. */
  private readonly storeLocations = new Map<string, string>();
  /** Why the server is not running, when it is not. */
  problem: string | null = null;
  readonly onStatus = this.statusEmitter.event;
  readonly onRelationshipsChanged = this.relationshipsEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.LogOutputChannel,
    /** Answers the server's EditorModelRequest: the editor's model, lent for an ask a person started. */
    private readonly lendEditorModel: (params: EditorModelParams, token: Cancellation) => Promise<EditorModelResult>,
  ) {}

  get running(): boolean {
    return this.client?.isRunning() ?? false;
  }

  start(): Promise<void> {
    this.starting ??= this.launch().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async launch(): Promise<void> {
    const started = performance.now();
    const serverScript = this.context.asAbsolutePath('dist/cli.js');
    const read = settingReader(vscode.workspace.getConfiguration('relata'));
    const store = storeSettings(read);
    let storeEnv: Record<string, string>;
    try {
      // SQLite needs no credentials, so the keychain behind SecretStorage is not even asked.
      const secrets = store.backend === 'sqlite' ? {} : await readStoreSecrets(this.context.secrets);
      storeEnv = storeEnvironment(store, secrets);
      this.output.info(`store: ${describeStoreSettings(store, secrets)}`);
    } catch (error) {
      if (!(error instanceof StoreSettingsError)) throw error;
      this.fail(error.message, error.setting);
      return;
    }
    let runtime;
    try {
      runtime = await chooseRuntime(read(RUNTIME_SETTING, 'node'), serverScript);
    } catch (error) {
      this.fail(error instanceof RuntimeNotFound ? error.message : `Relata could not choose a runtime: ${(error as Error).message}`);
      return;
    }
    this.output.info(`server runtime: ${runtime.source}`);
    const serverOptions: ServerOptions = {
      command: runtime.command,
      args: [serverScript, 'serve'],
      transport: TransportKind.stdio,
      // The store's location and credentials travel here, never in initializationOptions.
      options: { env: serverEnvironment(process.env, runtime.env, storeEnv) },
    };
    const clientOptions: LanguageClientOptions = {
      // No language features are delegated: hovers, search and views ask by custom requests.
      documentSelector: [],
      outputChannel: this.output,
      initializationOptions: () => initializationOptions(read),
      initializationFailedHandler: (error) => {
        this.fail(`the Relata language server failed to initialize: ${String(error)}`);
        return false;
      },
    };
    const client = new LanguageClient('relata', 'Relata', serverOptions, clientOptions);
    client.onNotification(StatusNotification.type, (report) => {
      this.logStoreLocations(report);
      this.lastStatus = report;
      this.statusEmitter.fire(report);
    });
    client.onNotification(RelationshipsChangedNotification.type, ({ folder }) => this.relationshipsEmitter.fire(folder));
    client.onRequest(EditorModelRequest.type, (params, token) => this.lendEditorModel(params, token));
    this.client = client;
    try {
      await client.start();
      this.problem = null;
      this.output.info(`server started in ${Math.round(performance.now() - started)} ms`);
    } catch (error) {
      this.client = null;
      this.fail(`the Relata language server did not start with ${runtime.command}: ${(error as Error).message}`);
    }
  }

  /**
   * Each folder's store, in the output once it is known and again whenever it changes: a restart
   * that opened another store (the settings read differently) is then plain to see.
   */
  private logStoreLocations(report: StatusReport): void {
    for (const folder of report.folders) {
      if (!folder.store) continue;
      const where = `${folder.store.backend}, ${folder.store.where}`;
      const before = this.storeLocations.get(folder.folder);
      if (before === where) continue;
      this.storeLocations.set(folder.folder, where);
      if (before === undefined) this.output.info(`${folder.name}: store ${where}`);
      else this.output.warn(`${folder.name}: the store changed from ${before} to ${where}`);
    }
  }

  /** The server is not running: said in the output, the status bar and a message whose button opens `setting`. */
  private fail(message: string, setting = `relata.${RUNTIME_SETTING}`): void {
    this.problem = message;
    this.output.error(message);
    this.statusEmitter.fire(null);
    void vscode.window.showErrorMessage(message, 'Open Settings').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', setting);
    });
  }

  async request<P, R>(type: RequestType<P, R, void>, params: P, token?: vscode.CancellationToken): Promise<R> {
    if (this.starting) await this.starting;
    if (!this.client) throw new Error(this.problem ?? 'the Relata language server is not running (is the workspace trusted?)');
    return this.client.sendRequest(type, params, token);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.lastStatus = null;
    if (client?.isRunning()) await client.stop();
  }

  dispose(): void {
    void this.stop();
    this.statusEmitter.dispose();
    this.relationshipsEmitter.dispose();
  }
}
