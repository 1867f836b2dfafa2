// Webview messages: the extension acts only on messages that match the shared schemas and that
// the panel accepts; the pages' HTML shell has a strict CSP with a nonce and nothing remote.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseViewMessage } from '../../shared/webviewMessages.ts';
import { dispatchViewMessage, panelDecision, type ViewActions } from '../../client/src/webviews/viewMessages.ts';
import { contentSecurityPolicy, webviewHtml } from '../../client/src/webviews/webviewHtml.ts';

function recorder() {
  const calls: string[] = [];
  const actions: ViewActions = {
    ready: () => void calls.push('ready'),
    decide: (message) => void calls.push(`${message.kind} ${message.id} ${message.note ?? ''}`.trim()),
    openRelationship: (message) => void calls.push(`relationship ${message.id}`),
    open: (message) => void calls.push(`open ${message.path} ${message.location?.kind ?? ''}`.trim()),
    ask: (message) => void calls.push(`ask ${message.question}`),
    graphQuery: (message) => void calls.push(`graph ${message.scope} ${message.statuses.join(',')} ${message.minStrength}`),
    invalid: (problems) => void calls.push(`invalid: ${problems.join('; ')}`),
  };
  return { calls, actions };
}

test('valid messages reach exactly one action', async () => {
  const { calls, actions } = recorder();
  const all = ['ready', 'confirm', 'reject', 'open', 'ask', 'openRelationship'] as const;
  await dispatchViewMessage({ kind: 'ready' }, all, actions);
  await dispatchViewMessage({ kind: 'confirm', folder: 'file:///demo', id: 'r1', note: 'matches the invoice' }, all, actions);
  await dispatchViewMessage({ kind: 'reject', folder: 'file:///demo', id: 'r2' }, all, actions);
  await dispatchViewMessage({ kind: 'open', folder: 'file:///demo', path: 'a.md', location: { kind: 'lines', start: 3, end: 9 } }, all, actions);
  await dispatchViewMessage({ kind: 'ask', question: 'What did the refurbishment cost?' }, all, actions);
  await dispatchViewMessage({ kind: 'openRelationship', folder: 'file:///demo', id: 'r3' }, all, actions);
  assert.deepEqual(calls, ['ready', 'confirm r1 matches the invoice', 'reject r2', 'open a.md lines', 'ask What did the refurbishment cost?', 'relationship r3']);
});

test('malformed or unexpected messages are reported, never acted on', async () => {
  const { calls, actions } = recorder();
  await dispatchViewMessage({ kind: 'confirm', folder: 'file:///demo' }, ['confirm'], actions);
  await dispatchViewMessage({ kind: 'runCommand', command: 'workbench.action.terminal.new' }, ['ready'], actions);
  await dispatchViewMessage('ready', ['ready'], actions);
  await dispatchViewMessage({ kind: 'open', folder: 'file:///demo', path: 'a.md', location: { kind: 'lines', start: 0, end: 1 } }, ['open'], actions);
  await dispatchViewMessage({ kind: 'ask', question: 'x' }, ['ready', 'confirm'], actions);
  assert.equal(calls.length, 5);
  assert.ok(calls.every((call) => call.startsWith('invalid: ')), calls.join('\n'));
  assert.match(calls[0]!, /message\.id must be a non-empty string/);
  assert.match(calls[1]!, /message\.kind must be one of/);
  assert.match(calls[3]!, /message\.location\.start must be a whole number from 1/);
  assert.match(calls[4]!, /does not accept "ask" messages/);
});

test('parseViewMessage refuses unknown fields', () => {
  assert.deepEqual(parseViewMessage({ kind: 'ready', html: '<script>' }), { problems: ['message.html is not a known field (expected kind)'] });
});

test('the webview shell allows only its own nonce-d script and the extension’s styles', () => {
  const html = webviewHtml({ title: 'T <x>', cspSource: 'https://file+.vscode-resource.vscode-cdn.net', scriptUri: 'https://x/ask.js', styleUri: 'https://x/webview.css', nonce: 'abc123' });
  const csp = contentSecurityPolicy('https://file+.vscode-resource.vscode-cdn.net', 'abc123');
  assert.match(csp, /^default-src 'none'/);
  assert.match(csp, /script-src 'nonce-abc123'/);
  assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval') && !csp.includes('*'));
  assert.match(html, /<script nonce="abc123" src="https:\/\/x\/ask\.js"><\/script>/);
  assert.equal((html.match(/<script/g) ?? []).length, 1, 'one script, no inline code');
  assert.match(html, /<title>T &lt;x&gt;<\/title>/);
});

test('a relationship panel decides only the relationship it was opened for', () => {
  const shown = { folder: 'file:///demo', id: 'r1' };
  assert.deepEqual(panelDecision(shown, { kind: 'confirm', folder: 'file:///demo', id: 'r1', note: 'checked' }), {
    decision: { kind: 'confirm', folder: 'file:///demo', id: 'r1', note: 'checked' },
  });
  assert.deepEqual(panelDecision(shown, { kind: 'reject', folder: 'file:///demo', id: 'r2' }), {
    problem: 'this panel shows relationship r1, not r2: the decision was not recorded',
  });
  assert.deepEqual(
    panelDecision(shown, { kind: 'reject', folder: 'file:///elsewhere', id: 'r1' }),
    { decision: { kind: 'reject', folder: 'file:///demo', id: 'r1' } },
    'the folder is the panel’s own, whatever the page says',
  );
});

test("the graph view's query reaches the graph action only, and a malformed one is refused", async () => {
  const { calls, actions } = recorder();
  const query = { kind: 'graphQuery', scope: 'neighbourhood', statuses: ['pending', 'confirmed'], minStrength: 0.3 };
  await dispatchViewMessage(query, ['ready', 'graphQuery', 'open', 'openRelationship'], actions);
  await dispatchViewMessage(query, ['ready', 'ask'], actions);
  await dispatchViewMessage({ ...query, statuses: ['deleted'], minStrength: 2 }, ['graphQuery'], actions);
  assert.equal(calls[0], 'graph neighbourhood pending,confirmed 0.3');
  assert.match(calls[1]!, /does not accept "graphQuery" messages/);
  assert.match(calls[2]!, /message\.statuses\[0\]/);
  assert.match(calls[2]!, /message\.minStrength/);
});
