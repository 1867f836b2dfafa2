// The extension's side of the language server: chooses a runtime, starts `relata serve --stdio`
// as its own process (never inside the extension host, whose Node may have another ABI), and
// passes requests and notifications through, typed by shared/protocol.ts.

import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type { RequestType } from 'vscode-languageserver-protocol';
import {
  RelationshipsChangedNotification,
  StatusNotification,
  type InitializationOptions,
  type StatusReport,
} from '../../shared/protocol.ts';
import { chooseRuntime, RuntimeNotFound } from './serverRuntime.ts';
import { RUNTIME_SETTING, serverSettings, settingReader } from './settings.ts';

export class ServerConnection implements vscode.Disposable {
  private client: LanguageClient | null = null;
  private starting: Promise<void> | null = null;
  private readonly statusEmitter = new vscode.EventEmitter<StatusReport | null>();
  private readonly relationshipsEmitter = new vscode.EventEmitter<string>();
  /** The latest `relata/status` report; null until the server sends one. */
  lastStatus: StatusReport | null = null;
  /** Why the server is not running, when it is not. */
  problem: string | null = null;
  readonly onStatus = this.statusEmitter.event;
  readonly onRelationshipsChanged = this.relationshipsEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.LogOutputChannel,
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
      options: { env: { ...process.env, ...runtime.env } },
    };
    const clientOptions: LanguageClientOptions = {
      // No language features are delegated: hovers, search and views ask by custom requests.
      documentSelector: [],
      outputChannel: this.output,
      initializationOptions: (): InitializationOptions => ({ settings: serverSettings(read) }),
      initializationFailedHandler: (error) => {
        this.fail(`the Relata language server failed to initialize: ${String(error)}`);
        return false;
      },
    };
    const client = new LanguageClient('relata', 'Relata', serverOptions, clientOptions);
    client.onNotification(StatusNotification.type, (report) => {
      this.lastStatus = report;
      this.statusEmitter.fire(report);
    });
    client.onNotification(RelationshipsChangedNotification.type, ({ folder }) => this.relationshipsEmitter.fire(folder));
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

  private fail(message: string): void {
    this.problem = message;
    this.output.error(message);
    this.statusEmitter.fire(null);
    void vscode.window.showErrorMessage(message, 'Open Settings').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', `relata.${RUNTIME_SETTING}`);
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
