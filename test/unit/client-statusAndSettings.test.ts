// The status bar's words, the settings sent to the server, and the choice of the server's Node.

import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { FolderStatus } from '../../shared/protocol.ts';
import { chooseRuntime, findExecutable, RuntimeNotFound } from '../../client/src/serverRuntime.ts';
import { readFileSync } from 'node:fs';
import { RUNTIME_SETTING, serverSettings, settingReader, USER_ONLY_SETTINGS, type SettingsSource } from '../../client/src/settings.ts';
import { describeOutcomes, summarizeStatus } from '../../client/src/statusSummary.ts';
import { FLAG_WORDS, fileStatusWords, needsExplaining } from '../../client/src/itemFlags.ts';
import { tempDir } from '../support/tempFolder.ts';
import { configuration } from '../support/settingsSource.ts';

const folder = (overrides: Partial<FolderStatus>): FolderStatus => ({
  folder: 'file:///demo', name: 'demo', state: 'watching', reason: null,
  items: { indexed: 9, failed: 1, skipped: 0, duplicate: 1, pending: 0 }, chunks: 21, queueDepth: 0, work: { reading: 0, extracting: 0, embedding: 0, relating: 0 },
  embeddingModel: 'use-lite@0.2.0', embeddedChunks: 21, damage: null, store: null, ...overrides,
});

test('the status bar says how many files are being indexed, then the counts with failures called out', () => {
  const work = (reading: number, extracting = 0, embedding = 0, relating = 0) => ({ reading, extracting, embedding, relating });
  assert.equal(summarizeStatus({ folders: [folder({ state: 'indexing', queueDepth: 26, work: work(26) })] }).text, '$(sync~spin) Relata: indexing 26 files');
  assert.equal(summarizeStatus({ folders: [folder({ state: 'indexing', queueDepth: 1, work: work(1) })] }).text, '$(sync~spin) Relata: indexing 1 file');
  const later = summarizeStatus({ folders: [folder({ state: 'indexing', queueDepth: 5, work: work(0, 0, 2, 3) })] });
  assert.equal(later.text, '$(sync~spin) Relata: embedding 2 files', 'the earliest kind of work left is named');
  assert.match(later.tooltip, /demo: embedding 2 files, finding relationships for 3 files/);
  const twoFolders = summarizeStatus({
    folders: [folder({ state: 'indexing', work: work(4) }), folder({ folder: 'file:///other', name: 'other', state: 'indexing', work: work(3) })],
  });
  assert.equal(twoFolders.text, '$(sync~spin) Relata: indexing 7 files');
  const settled = summarizeStatus({ folders: [folder({})] });
  assert.equal(settled.text, '$(warning) Relata: 9 indexed, 1 failed');
  assert.equal(settled.busy, false);
  assert.match(settled.tooltip, /demo: up to date, watching for changes/);
  assert.match(settled.tooltip, /9 indexed, 1 failed, 0 skipped, 1 duplicate, 0 pending/);
  assert.match(summarizeStatus({ folders: [folder({ items: { indexed: 9, failed: 0, skipped: 0, duplicate: 2, pending: 0 } })] }).tooltip, /, 2 duplicates,/);
  assert.match(settled.tooltip, /vectors for 21 of 21 passages \(use-lite@0\.2\.0\)/);
  const clean = summarizeStatus({ folders: [folder({ items: { indexed: 3, failed: 0, skipped: 0, duplicate: 0, pending: 0 } })] });
  assert.equal(clean.text, '$(database) Relata: 3 indexed');
  const broken = summarizeStatus({ folders: [folder({ state: 'failed', reason: 'the store was written by a newer Relata' })] });
  assert.match(broken.tooltip, /not indexed: the store was written by a newer Relata/);
  assert.equal(summarizeStatus(null).text, '$(sync~spin) Relata: starting');
});

test('a paused folder says so, and how to go on', () => {
  const paused = summarizeStatus({ folders: [folder({ state: 'paused' })] });
  assert.equal(paused.text, '$(debug-pause) Relata: paused');
  assert.equal(paused.busy, false);
  assert.match(paused.tooltip, /demo: indexing paused; changes are picked up when you resume \(Relata: Resume Indexing\)/);
});

test('what Index Now, Pause or Resume did: the outcome alone for one folder, each folder named for several', () => {
  assert.equal(describeOutcomes([{ name: 'demo', outcome: 'already paused' }]), 'Relata: already paused');
  assert.equal(
    describeOutcomes([{ name: 'demo', outcome: 'already paused' }, { name: 'contracts', outcome: 'paused: nothing is indexed until you resume' }]),
    'Relata: demo: already paused; contracts: paused: nothing is indexed until you resume',
  );
  assert.equal(describeOutcomes([]), 'Relata: no folder is open');
});

test('the tooltip names where each folder\'s store is', () => {
  const summary = summarizeStatus({ folders: [folder({ store: { backend: 'sqlite', where: '/home/me/relata-data/demo-3f2a', unreachable: null } })] });
  assert.match(summary.tooltip, /store: SQLite, \/home\/me\/relata-data\/demo-3f2a/);
});

test('while indexing waits (a busy store), the tooltip says why', () => {
  const waiting = summarizeStatus({ folders: [folder({ state: 'indexing', queueDepth: 2, work: { reading: 2, extracting: 0, embedding: 0, relating: 0 }, reason: 'store busy: process 4242 (node) is writing to /d/relata.sqlite; will retry in 2 s' })] });
  assert.equal(waiting.busy, true);
  assert.match(waiting.tooltip, /demo: indexing 2 files; waiting: store busy: process 4242 \(node\) is writing to \/d\/relata\.sqlite; will retry in 2 s/);
});

test('the file status list explains every flag in words, never by its code name', () => {
  for (const [flag, words] of Object.entries(FLAG_WORDS)) {
    assert.ok(!words.includes(flag), `${flag} is explained, not repeated`);
    assert.doesNotMatch(words, /_/, `${flag}: plain words`);
  }
  const scanned = fileStatusWords({ status: 'indexed', flags: ['read_by_ocr'], reason: null, duplicateOf: null });
  assert.equal(scanned.description, 'indexed');
  assert.match(scanned.detail ?? '', /^read by OCR from page images/);
  const both = fileStatusWords({ status: 'indexed', flags: ['hidden_text', 'truncated'], reason: 'read 2,000 of 9,000 pages', duplicateOf: null });
  assert.equal(both.detail, 'read 2,000 of 9,000 pages · hidden text left out (text a reader cannot see); only partly read (e.g. the first pages of a very long PDF, the first 200,000 cells of a spreadsheet)');
  assert.equal(fileStatusWords({ status: 'duplicate', flags: [], reason: null, duplicateOf: 'a.md' }).detail, 'identical to a.md, its original');
  assert.equal(fileStatusWords({ status: 'indexed', flags: [], reason: null, duplicateOf: null }).detail, undefined);
  assert.equal(fileStatusWords({ status: 'indexed', flags: [], reason: null, duplicateOf: null, brokenLinks: 2 }).detail, '2 links to files that are not in the folder');
  assert.equal(fileStatusWords({ status: 'indexed', flags: [], reason: null, duplicateOf: null, brokenLinks: 1 }).detail, '1 link to a file that is not in the folder');
});

test('while the model stage reads, the status bar says how long it expects to take still, and the tooltip its calls', () => {
  const work = (reading: number, extracting = 0) => ({ reading, extracting, embedding: 0, relating: 0 });
  const reading = folder({ state: 'indexing', queueDepth: 4, work: work(0, 4), modelExtraction: { calls: 12, cached: 3, msLeft: 250_000 } });
  const summary = summarizeStatus({ folders: [reading] });
  assert.equal(summary.text, '$(sync~spin) Relata: extracting facts from 4 files (model: about 4 min left)');
  assert.match(summary.tooltip, /model extraction: 12 calls, 3 from the cache; about 4 min left/);
  const untimed = summarizeStatus({ folders: [folder({ state: 'indexing', queueDepth: 1, work: work(0, 1), modelExtraction: { calls: 0, cached: 5, msLeft: null } })] });
  assert.equal(untimed.text, '$(sync~spin) Relata: extracting facts from 1 file', 'no time is guessed before a call was timed');
  assert.match(untimed.tooltip, /model extraction: 0 calls, 5 from the cache\n/);
});

test('settings map onto the server settings, with defaults for unset or malformed values', () => {
  const values: Record<string, unknown> = {
    'index.exclude': ['drafts/', 3, ''], 'index.maxFileMb': -1, 'index.maxPdfPages': 'many', 'relationships.minScore': 0.2, 'relationships.storeScore': 7,
    'embedding.model': ' none ', 'answers.provider': 'copilot',
  };
  const settings = serverSettings(<T>(key: string, fallback: T) => (key in values ? (values[key] as T) : fallback));
  assert.deepEqual(settings, {
    dataLocation: '', exclude: ['drafts/'], maxFileMb: 50, maxPdfPages: 2_000, ocr: true, embeddingModel: 'none',
    llmModelPath: '', llmEndpoint: '', allowInsecureEndpoint: false, answersProvider: 'auto', extractWithModel: false, minScore: 0.2, storeScore: null, forgetDeleted: false,
  });
});

/** A configuration as VS Code's inspect() reports it: each scope's value separately. */
test('a workspace cannot choose the model endpoint, model, provider, runtime, embedding model or data location, nor switch on model extraction: only the user can', () => {
  const hostile = { workspaceValue: 'http://attacker.example/v1', workspaceFolderValue: 'http://attacker.example/v1' };
  const read = settingReader(
    configuration({
      'answers.llmEndpoint': { defaultValue: '', ...hostile },
      'answers.llmModelPath': { defaultValue: '', globalValue: '/home/me/models/q.gguf', workspaceValue: './evil.gguf' },
      'answers.allowInsecureEndpoint': { defaultValue: false, workspaceValue: true },
      'answers.provider': { defaultValue: 'auto', workspaceValue: 'endpoint' },
      'server.runtime': { defaultValue: 'node', workspaceFolderValue: './bin/node' },
      'store.dataLocation': { defaultValue: '', workspaceValue: '/tmp/shared' },
      'embedding.model': { defaultValue: 'default', workspaceValue: './model' },
      'index.exclude': { defaultValue: [], workspaceValue: ['drafts/'] },
      'extraction.useModel': { defaultValue: false, workspaceValue: true, workspaceFolderValue: true },
    }),
  );
  const settings = serverSettings(read);
  assert.equal(settings.extractWithModel, false, 'a repository cannot make Relata send its passages to a model');
  assert.equal(settings.llmEndpoint, '');
  assert.equal(settings.llmModelPath, '/home/me/models/q.gguf', 'the user\'s own value is kept');
  assert.equal(settings.allowInsecureEndpoint, false);
  assert.equal(settings.answersProvider, 'auto', 'a workspace cannot choose which model its passages go to');
  assert.equal(settings.dataLocation, '');
  assert.equal(settings.embeddingModel, 'default');
  assert.equal(read('server.runtime', 'node'), 'node');
  assert.deepEqual(settings.exclude, ['drafts/'], 'a folder may still choose what to leave out of its own index');
});

type Manifest = {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: { configuration: { properties: Record<string, { scope?: string; default?: unknown }> } };
};
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Manifest;

test('the user-only settings are exactly those withheld from an untrusted workspace', () => {
  const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.map((key) => key.replace(/^relata\./, ''));
  assert.deepEqual([...USER_ONLY_SETTINGS].sort(), restricted.sort());
});

/**
 * The user's settings.json as the extension host sees it in a remote window (code-server, where
 * the e2e runs): when VS Code re-reads the file after a change it keeps only the values whose
 * declared scope is among these (LOCAL_MACHINE_SCOPES, vs/workbench/services/configuration/common/
 * configuration.ts in VS Code 1.100; measured in code-server 4.100.3: a machine-scoped value read
 * at startup was gone after the first settings change). This stands for VS Code's configuration
 * service, which cannot run here; the scopes are package.json's own.
 */
const KEPT_FROM_USER_SETTINGS_IN_A_REMOTE_WINDOW = new Set(['application', 'window', 'resource', 'language-overridable']);

function userSettingsInRemoteWindow(userJson: Record<string, unknown>, reread: boolean): SettingsSource {
  const scopes: Record<string, { defaultValue?: unknown; globalValue?: unknown }> = {};
  for (const [key, property] of Object.entries(manifest.contributes.configuration.properties)) {
    const name = key.replace(/^relata\./, '');
    const kept = !reread || KEPT_FROM_USER_SETTINGS_IN_A_REMOTE_WINDOW.has(property.scope ?? 'window');
    scopes[name] = { defaultValue: property.default, ...(kept && key in userJson ? { globalValue: userJson[key] } : {}) };
  }
  return configuration(scopes);
}

test('a settings change that restarts the server in code-server reads the same store settings as the first start', () => {
  const userJson = {
    'relata.store.dataLocation': '/home/me/relata-data',
    'relata.server.runtime': '/opt/node20/bin/node',
    'relata.embedding.model': 'none',
    'relata.relationships.minScore': 0.3,
  };
  const read = (reread: boolean) => settingReader(userSettingsInRemoteWindow(userJson, reread));
  const atStart = serverSettings(read(false));
  const afterChange = serverSettings(read(true));
  assert.equal(atStart.dataLocation, '/home/me/relata-data');
  assert.deepEqual(afterChange, atStart, 'the restarted server opens the store the first one opened');
  assert.equal(read(true)(RUNTIME_SETTING, 'node'), '/opt/node20/bin/node');
  for (const key of USER_ONLY_SETTINGS) {
    const scope = manifest.contributes.configuration.properties[`relata.${key}`]?.scope ?? 'window';
    assert.ok(KEPT_FROM_USER_SETTINGS_IN_A_REMOTE_WINDOW.has(scope), `relata.${key} is "${scope}"-scoped: a remote window drops it from the user's settings on a re-read`);
  }
});

test('the runtime is the configured node when it exists; otherwise VS Code’s own only if the store loads there', async (t) => {
  const bin = tempDir(t);
  const node = path.join(bin, 'node');
  writeFileSync(node, '#!/bin/sh\n');
  chmodSync(node, 0o755);
  assert.equal(findExecutable('node', { PATH: bin }, 'linux'), node);
  assert.equal(findExecutable('node', { PATH: '' }, 'linux'), null);
  assert.equal((await chooseRuntime(node, 'cli.js')).command, node);

  const previous = process.env.PATH;
  process.env.PATH = tempDir(t);
  try {
    const own = await chooseRuntime('node', 'cli.js', '/opt/editor/electron', async () => 'store loads: node v20, ABI 115');
    assert.equal(own.command, '/opt/editor/electron');
    assert.deepEqual(own.env, { ELECTRON_RUN_AS_NODE: '1' });
    await assert.rejects(
      chooseRuntime('node', 'cli.js', '/opt/editor/electron', async () => {
        throw new Error('was compiled against a different Node.js version (NODE_MODULE_VERSION 115, this one needs 132)');
      }),
      (error: unknown) => error instanceof RuntimeNotFound && /not found on PATH.*different Node\.js version.*relata\.server\.runtime/s.test(error.message),
    );
    await assert.rejects(chooseRuntime('/no/such/node', 'cli.js'), /relata\.server\.runtime is "\/no\/such\/node", which is not an executable/);
  } finally {
    process.env.PATH = previous;
  }
});

test('a scan nothing was read from is a warning in File Status, not a green "indexed", and its reason says why', () => {
  const scan = fileStatusWords({ status: 'indexed', flags: ['little_text'], reason: null, duplicateOf: null });
  assert.match(scan.description, /^no text read/);
  assert.doesNotMatch(scan.description, /^indexed/);
  assert.match(scan.detail ?? '', /a scan of which OCR \(or its text layer\) gave almost nothing/);
  assert.ok(needsExplaining({ status: 'indexed', flags: ['little_text'] }), 'choosing it shows the whole reason');
  assert.ok(needsExplaining({ status: 'failed', flags: [] }), 'a failure too, whose reason a row may cut');
  assert.ok(!needsExplaining({ status: 'indexed', flags: ['read_by_ocr'] }), 'a file read by OCR was read');
});

test('files with no text read are counted apart from the indexed ones, and turn the status bar to a warning', () => {
  const summary = summarizeStatus({ folders: [folder({ items: { indexed: 8, failed: 0, skipped: 0, duplicate: 1, pending: 0, unread: 1 } })] });
  assert.equal(summary.text, '$(warning) Relata: 8 indexed, 1 with no text read');
  assert.ok(summary.warning);
  assert.match(summary.tooltip, /8 indexed, 1 with no text read, 0 failed/);
  const clean = summarizeStatus({ folders: [folder({ items: { indexed: 8, failed: 0, skipped: 0, duplicate: 0, pending: 0, unread: 0 } })] });
  assert.equal(clean.text, '$(database) Relata: 8 indexed');
});
