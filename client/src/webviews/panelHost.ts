// Hosts one webview panel: the CSP'd shell from webviewHtml.ts, the bundle from dist/webview/,
// and messages from the page checked and dispatched by viewMessages.ts.

import * as vscode from 'vscode';
import type { HostMessage } from '../../../shared/webviewMessages.ts';
import { dispatchViewMessage, type AcceptedKinds, type ViewActions } from './viewMessages.ts';
import { webviewHtml } from './webviewHtml.ts';

export interface PanelOptions {
  viewType: string;
  title: string;
  /** The bundle's name in dist/webview/ (without .js). */
  script: 'relationship' | 'ask' | 'scoring' | 'graph';
  accepted: AcceptedKinds;
  /** Where the panel opens; beside the editor unless said otherwise. */
  column?: vscode.ViewColumn;
}

export class PanelHost implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    extensionUri: vscode.Uri,
    options: PanelOptions,
    actions: Omit<ViewActions, 'invalid'>,
    output: vscode.LogOutputChannel,
  ) {
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel(options.viewType, options.title, options.column ?? vscode.ViewColumn.Beside, {
      enableScripts: true,
      localResourceRoots: [root],
    });
    const webview = this.panel.webview;
    webview.html = webviewHtml({
      title: options.title,
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, `${options.script}.js`)).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'webview.css')).toString(),
    });
    const handlers: ViewActions = {
      ...actions,
      invalid: (problems) => output.warn(`ignored a message from the ${options.title} panel: ${problems.join('; ')}`),
    };
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) =>
        dispatchViewMessage(raw, options.accepted, handlers).catch((error: Error) => this.post({ kind: 'error', message: error.message })),
      ),
    );
    this.panel.onDidDispose(() => this.dispose(), null, this.disposables);
  }

  post(message: HostMessage): void {
    void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
