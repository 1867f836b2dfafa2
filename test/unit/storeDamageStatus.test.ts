// The status bar calls out a damaged store above everything else, and its tooltip says what to do.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FolderStatus } from '../../shared/protocol.ts';
import { summarizeStatus } from '../../client/src/statusSummary.ts';

const folder = (overrides: Partial<FolderStatus>): FolderStatus => ({
  folder: 'file:///demo', name: 'demo', state: 'watching', reason: null,
  items: { indexed: 9, failed: 0, skipped: 0, duplicate: 0, pending: 0 }, chunks: 21, queueDepth: 0, work: { reading: 0, extracting: 0, embedding: 0, relating: 0 },
  embeddingModel: null, embeddedChunks: 0, damage: null, store: null, ...overrides,
});

const DAMAGE = '/data/relata.sqlite: the store is damaged (items (page 7): Tree 3 page 7: btreeInitPage() returns error code 11). Run `relata check` to see what, or rebuild it from the folder with `relata index --rebuild` (it keeps the decisions and history it can still read)';

test('a damaged store turns the status bar to an error and the tooltip names the store and the remedy', () => {
  const summary = summarizeStatus({ folders: [folder({ damage: DAMAGE })] });
  assert.equal(summary.text, '$(error) Relata: store damaged');
  assert.equal(summary.warning, true);
  assert.ok(summary.tooltip.includes(DAMAGE), summary.tooltip);
  const indexing = summarizeStatus({ folders: [folder({ damage: DAMAGE, state: 'indexing', queueDepth: 4 })] });
  assert.equal(indexing.text, '$(error) Relata: store damaged', 'damage outranks progress');
  assert.equal(summarizeStatus({ folders: [folder({}), folder({ damage: DAMAGE })] }).text, '$(error) Relata: store damaged (1 folder)');
  assert.equal(summarizeStatus({ folders: [folder({})] }).text, '$(database) Relata: 9 indexed', 'a healthy store says nothing of damage');
});
