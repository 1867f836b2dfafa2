// The page's line to the extension: typed messages both ways (shared/webviewMessages.ts).

import type { HostMessage, ViewMessage } from '../../shared/webviewMessages.ts';

interface VsCodeApi {
  postMessage(message: ViewMessage): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function send(message: ViewMessage): void {
  api.postMessage(message);
}

export function onHostMessage(handler: (message: HostMessage) => void): void {
  window.addEventListener('message', (event: MessageEvent<HostMessage>) => handler(event.data));
  send({ kind: 'ready' });
}
