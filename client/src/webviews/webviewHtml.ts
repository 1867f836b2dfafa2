// The HTML shell of every Relata webview: a strict Content Security Policy (nothing remote, no
// inline script, scripts only with this page's nonce, styles and fonts only from the extension),
// one stylesheet and one script bundle from webview-ui/. Content is rendered by the script from
// typed messages, never interpolated here, so no document text ever reaches this HTML.

import { randomBytes } from 'node:crypto';

export interface WebviewPage {
  title: string;
  /** webview.cspSource: the origin VS Code serves extension files from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce?: string;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'none'",
    "form-action 'none'",
    "frame-src 'none'",
  ].join('; ');
}

export function webviewHtml(page: WebviewPage): string {
  const nonce = page.nonce ?? newNonce();
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attribute(contentSecurityPolicy(page.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attribute(page.styleUri)}">
<title>${attribute(page.title)}</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${attribute(page.scriptUri)}"></script>
</body>
</html>`;
}
